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

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the pull-model connector ({@link PullSource}) observed in one run, keyed by the run's probe
 * name: the test JVM hosts the engine, so reader, enumerator and test share it.
 *
 * <p>Threading: any thread; counters only.
 */
final class PullProbe {
    private static final ConcurrentMap<String, PullProbe> RUNS = new ConcurrentHashMap<>();
    private static final int MAX_SUBTASKS = 64;

    /** Calls of the reader context's {@code sendSplitRequest} that returned, per subtask. */
    private final AtomicLongArray callsReturned = new AtomicLongArray(MAX_SUBTASKS);

    /** {@code handleSplitRequest} calls the enumerator received. */
    final AtomicInteger requestsHandled = new AtomicInteger();

    /** Splits the enumerator assigned in answer to a request. */
    final AtomicInteger splitsAssigned = new AtomicInteger();

    /**
     * Requests the enumerator handled while the reader's {@code sendSplitRequest} call that sent it
     * had not returned within the bound: the call blocked on the enumerator's handling.
     */
    final AtomicInteger blockedCalls = new AtomicInteger();

    /** Reader-to-enumerator source events received, by the subtask they came from. */
    final ConcurrentMap<Integer, AtomicInteger> eventsBySubtask = new ConcurrentHashMap<>();

    static PullProbe of(String name) {
        return RUNS.computeIfAbsent(name, n -> new PullProbe());
    }

    static void clear(String name) {
        RUNS.remove(name);
    }

    synchronized void callReturned(int subtask) {
        callsReturned.incrementAndGet(subtask);
        notifyAll();
    }

    long callsReturned(int subtask) {
        return callsReturned.get(subtask);
    }

    /**
     * Enumerator side: waits, at most {@code boundMillis}, until {@code nth} calls of {@code
     * subtask}'s {@code sendSplitRequest} have returned, where {@code nth} counts the requests the
     * enumerator handled for it. On the engine's own path each call sends one request and returns
     * only after the enumerator handled it, so the wait for the call that sent this very request
     * runs out and is counted in {@link #blockedCalls}.
     */
    synchronized void awaitCallReturned(int subtask, long nth, long boundMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis);
        while (callsReturned.get(subtask) < nth) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                blockedCalls.incrementAndGet();
                return;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
