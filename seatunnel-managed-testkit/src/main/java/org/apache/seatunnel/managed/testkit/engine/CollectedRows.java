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

package org.apache.seatunnel.managed.testkit.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVM-wide registry that {@link CollectingSink} writes row keys into, by the sink's {@code
 * run.id}, so a test in the same JVM as the embedded engine can read what a job delivered.
 *
 * <p>Threading: sink writers append from engine task threads and committers from Hazelcast
 * operation threads while a test thread reads; all collections are concurrent, reads are snapshots.
 * Entries live until {@link #clear(String)}.
 */
public final class CollectedRows {

    private static final Map<String, CollectedRows> RUNS = new ConcurrentHashMap<>();

    private final ConcurrentLinkedQueue<String> written = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> committed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger commitCalls = new AtomicInteger();
    private final AtomicInteger writersCreated = new AtomicInteger();

    private CollectedRows() {}

    /** The rows of a run, created on first use. */
    public static CollectedRows of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new CollectedRows());
    }

    /** Forgets a run, so a long test JVM does not keep every key. */
    public static void clear(String runId) {
        RUNS.remove(runId);
    }

    void recordWritten(String key) {
        written.add(key);
    }

    void recordCommitted(List<String> keys) {
        committed.addAll(keys);
        commitCalls.incrementAndGet();
    }

    void recordWriterCreated() {
        writersCreated.incrementAndGet();
    }

    /** Every row key any writer attempt received, replays after a restore included. */
    public List<String> written() {
        return new ArrayList<>(written);
    }

    /** Keys of the rows whose checkpoint completed (committed through the sink committer). */
    public List<String> committed() {
        return new ArrayList<>(committed);
    }

    public int writtenCount() {
        return written.size();
    }

    public int commitCalls() {
        return commitCalls.get();
    }

    public int writersCreated() {
        return writersCreated.get();
    }

    /** Key → how often it was seen, sorted; see {@link RowAccounting#multiset}. */
    public static Map<String, Integer> multiset(List<String> keys) {
        return RowAccounting.multiset(keys);
    }
}
