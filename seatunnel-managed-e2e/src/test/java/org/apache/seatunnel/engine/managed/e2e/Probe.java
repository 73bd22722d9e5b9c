/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *    http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.seatunnel.engine.managed.e2e;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * What {@link ProbeSource} observed inside the engine, keyed by run id: for every callback the set
 * of thread names it ran on (numbers stripped so pools collapse to one entry), plus free-form facts
 * (addresses found through {@link EngineInternals}, interrupts seen).
 *
 * <p>Threading: written from any engine thread, read by the test thread; concurrent collections.
 */
public final class Probe {

    private static final Map<String, Probe> RUNS = new ConcurrentHashMap<>();

    private final Map<String, Set<String>> threads = new ConcurrentHashMap<>();
    private final Map<String, String> facts = new ConcurrentHashMap<>();

    public static Probe of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new Probe());
    }

    public static void clear(String runId) {
        RUNS.remove(runId);
    }

    void called(String callback) {
        threads.computeIfAbsent(callback, k -> new ConcurrentSkipListSet<>())
                .add(normalize(Thread.currentThread().getName()));
    }

    void fact(String key, String value) {
        facts.merge(key, value, (a, b) -> a.equals(b) ? a : a + " | " + b);
    }

    public Map<String, Set<String>> threads() {
        return new TreeMap<>(threads);
    }

    public Map<String, String> facts() {
        return new TreeMap<>(facts);
    }

    public boolean sawCallback(String callback) {
        return threads.containsKey(callback);
    }

    /** "hz.m0.generic-operation.thread-3" → "hz.m0.generic-operation.thread-N". */
    static String normalize(String name) {
        return name.replaceAll("\\d+$", "N").replaceAll("-\\d+-", "-N-");
    }
}
