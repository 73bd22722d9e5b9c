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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Timestamps the managed FakeSource takes for the side-by-side runner, the same way on both lanes:
 * when the enumerator snapshots checkpoint N, when a reader snapshots N, when the enumerator hears
 * N completed, and how late an idle reader emitted a row after it became due. Off unless {@link
 * #enable()} was called, so jobs that do not measure pay one volatile read.
 *
 * <p>Threading: any thread; lock-free collections. Each sample queue is bounded by a counter of its
 * own, since a {@code ConcurrentLinkedQueue}'s size is a walk of the whole queue, and per emitted
 * row that made a rate-limited run's readers spend their time counting samples.
 */
public final class ManagedFakeProbe {
    private static volatile boolean enabled;
    private static final Map<Long, Long> ENUMERATOR_SNAPSHOT = new ConcurrentHashMap<>();
    // Wall-clock time of the same moment, to compare with the engine's own (millisecond) times.
    private static final Map<Long, Long> ENUMERATOR_SNAPSHOT_WALL = new ConcurrentHashMap<>();
    private static final Map<Long, Long> COMPLETE = new ConcurrentHashMap<>();
    private static final Map<Long, Long> COMPLETE_WALL = new ConcurrentHashMap<>();
    private static final ConcurrentLinkedQueue<Long> BARRIER_WAIT = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger BARRIER_WAIT_COUNT = new AtomicInteger();
    private static final ConcurrentLinkedQueue<Long> EMIT_DELAY = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger EMIT_DELAY_COUNT = new AtomicInteger();
    private static final int MAX_SAMPLES = 200_000;

    private ManagedFakeProbe() {}

    public static void enable() {
        reset();
        enabled = true;
    }

    public static void disable() {
        enabled = false;
    }

    public static void reset() {
        ENUMERATOR_SNAPSHOT.clear();
        ENUMERATOR_SNAPSHOT_WALL.clear();
        COMPLETE.clear();
        COMPLETE_WALL.clear();
        BARRIER_WAIT.clear();
        BARRIER_WAIT_COUNT.set(0);
        EMIT_DELAY.clear();
        EMIT_DELAY_COUNT.set(0);
    }

    public static void enumeratorSnapshot(long checkpointId) {
        if (enabled) {
            ENUMERATOR_SNAPSHOT.putIfAbsent(checkpointId, System.nanoTime());
            ENUMERATOR_SNAPSHOT_WALL.putIfAbsent(checkpointId, System.currentTimeMillis());
        }
    }

    public static void readerSnapshot(long checkpointId) {
        if (enabled) {
            Long start = ENUMERATOR_SNAPSHOT.get(checkpointId);
            if (start != null && reserve(BARRIER_WAIT_COUNT)) {
                BARRIER_WAIT.add(System.nanoTime() - start);
            }
        }
    }

    public static void checkpointComplete(long checkpointId) {
        if (enabled) {
            COMPLETE.putIfAbsent(checkpointId, System.nanoTime());
            COMPLETE_WALL.putIfAbsent(checkpointId, System.currentTimeMillis());
        }
    }

    /** A row that was due at {@code dueNanos} (rate limit) is emitted now. */
    public static void rowEmitted(long dueNanos) {
        if (enabled && reserve(EMIT_DELAY_COUNT)) {
            EMIT_DELAY.add(Math.max(0, System.nanoTime() - dueNanos));
        }
    }

    /** Claims one of a queue's {@link #MAX_SAMPLES} places; false once they are taken. */
    private static boolean reserve(AtomicInteger count) {
        // A read first: once full, a sample costs no write to the shared counter.
        return count.get() < MAX_SAMPLES && count.incrementAndGet() <= MAX_SAMPLES;
    }

    /**
     * When the connector's enumerator snapshotted checkpoint N, in wall-clock milliseconds (the
     * clock the engine's checkpoint statistics use), or null if it was not seen while enabled.
     */
    public static Long enumeratorSnapshotWallMillis(long checkpointId) {
        return ENUMERATOR_SNAPSHOT_WALL.get(checkpointId);
    }

    /**
     * When the connector's enumerator was told that checkpoint N completed, in wall-clock
     * milliseconds, or null if it was not seen while enabled.
     */
    public static Long completeWallMillis(long checkpointId) {
        return COMPLETE_WALL.get(checkpointId);
    }

    /** Enumerator snapshot of N → a reader's snapshot of N, in nanoseconds, sorted. */
    public static long[] barrierWaits() {
        return sorted(BARRIER_WAIT);
    }

    /** Enumerator snapshot of N → N completed at the enumerator, in nanoseconds, sorted. */
    public static long[] checkpointDurations() {
        long[] out =
                COMPLETE.entrySet().stream()
                        .filter(e -> ENUMERATOR_SNAPSHOT.containsKey(e.getKey()))
                        .mapToLong(e -> e.getValue() - ENUMERATOR_SNAPSHOT.get(e.getKey()))
                        .toArray();
        java.util.Arrays.sort(out);
        return out;
    }

    /**
     * Drops the row due → emitted samples and takes no more until {@link #reset()}: a run that does
     * not read them and samples the heap next (200,000 boxed samples are some 10 MB, which the heap
     * figure of either lane would carry as if the job held them).
     */
    public static void dropEmitDelays() {
        EMIT_DELAY_COUNT.set(MAX_SAMPLES);
        EMIT_DELAY.clear();
    }

    /** Row due → row emitted, in nanoseconds, sorted. */
    public static long[] emitDelays() {
        return sorted(EMIT_DELAY);
    }

    private static long[] sorted(ConcurrentLinkedQueue<Long> q) {
        long[] a = q.stream().mapToLong(Long::longValue).toArray();
        java.util.Arrays.sort(a);
        return a;
    }
}
