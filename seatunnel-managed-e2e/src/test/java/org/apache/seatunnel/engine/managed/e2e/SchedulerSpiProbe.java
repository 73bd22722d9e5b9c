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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What {@link SchedulerSpiEnumerator} did in one run, for the test to check: which threads ran the
 * discovery callable and its result handler, and how the assignment from the enumerator's own
 * thread went.
 *
 * <p>Threading: any thread; one entry per run id, every field thread-safe.
 */
final class SchedulerSpiProbe {
    private static final Map<String, SchedulerSpiProbe> RUNS = new ConcurrentHashMap<>();

    final AtomicReference<String> discoveryThread = new AtomicReference<>();
    final AtomicReference<String> handlerThread = new AtomicReference<>();
    final AtomicReference<String> ownThreadAssigned = new AtomicReference<>();
    final AtomicReference<Throwable> ownThreadFailure = new AtomicReference<>();
    final List<String> noMoreSplitsSignalled = new CopyOnWriteArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger enumeratorCloses =
            new java.util.concurrent.atomic.AtomicInteger();

    static SchedulerSpiProbe of(String runId) {
        return RUNS.computeIfAbsent(runId, k -> new SchedulerSpiProbe());
    }

    static void clear(String runId) {
        RUNS.remove(runId);
    }
}
