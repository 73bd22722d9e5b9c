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

package org.apache.seatunnel.connectors.managed.fake.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The JVM-wide memory of ManagedFake's test hooks, which must outlive one reader or enumerator
 * attempt: once-only faults (so the attempt restored after an injected failure does not fail
 * again), snapshot holds a test releases, and the receipts of enumerator-to-reader source events.
 * Only an embedded engine in the test's own JVM can observe these; on a real cluster every option
 * that uses them is off by default.
 *
 * <p>Threading: every method may be called from any thread; state is in concurrent maps.
 */
public final class ManagedFakeFaults {
    /** How long a held snapshot waits for its release at most: a forgotten release heals. */
    static final long MAX_HOLD_MILLIS = 30_000;

    private static final Map<String, Boolean> FIRED = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> HOLDS = new ConcurrentHashMap<>();
    private static final Map<String, Map<Integer, Integer>> EVENTS = new ConcurrentHashMap<>();

    private ManagedFakeFaults() {}

    /** True exactly once per key in this JVM. */
    public static boolean fireOnce(String key) {
        return FIRED.putIfAbsent(key, Boolean.TRUE) == null;
    }

    /** Whether the once-only fault {@code key} has fired. */
    public static boolean fired(String key) {
        return FIRED.containsKey(key);
    }

    /**
     * Blocks the caller until {@link #release} for {@code faultId}, at most {@link
     * #MAX_HOLD_MILLIS}; only the first call per id holds.
     */
    public static void holdOnce(String faultId) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        if (HOLDS.putIfAbsent(faultId, latch) != null) {
            return;
        }
        latch.await(MAX_HOLD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** True once a snapshot is being held for {@code faultId} (or was). */
    public static boolean isHeld(String faultId) {
        return HOLDS.containsKey(faultId);
    }

    /** Lets a held snapshot of {@code faultId} go on. */
    public static void release(String faultId) {
        CountDownLatch latch = HOLDS.get(faultId);
        if (latch != null) {
            latch.countDown();
        }
    }

    public static void recordEvent(String runId, int receivingSubtask) {
        EVENTS.computeIfAbsent(runId, k -> new ConcurrentHashMap<>())
                .merge(receivingSubtask, 1, Integer::sum);
    }

    /** Reader subtask → how many source events of {@code runId} it received. */
    public static Map<Integer, Integer> eventsReceived(String runId) {
        Map<Integer, Integer> m = EVENTS.get(runId);
        return m == null ? new TreeMap<>() : new TreeMap<>(m);
    }

    /** Forgets everything recorded under {@code id} (a fault id or an event run id). */
    public static void clear(String id) {
        FIRED.keySet().removeIf(k -> k.equals(id) || k.startsWith(id + "/"));
        CountDownLatch latch = HOLDS.remove(id);
        if (latch != null) {
            latch.countDown();
        }
        EVENTS.remove(id);
    }
}
