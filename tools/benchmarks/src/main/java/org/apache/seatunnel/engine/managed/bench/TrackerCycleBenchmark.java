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

package org.apache.seatunnel.engine.managed.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAssignmentTracker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the coordinator loop's tracker costs per split in a split storm without checkpoints: one
 * reader's split demand of {@value #DEMAND} one-row splits added as pending, dispatched in commands
 * of {@value #PER_COMMAND}, admitted, and collected when that reader's apply acknowledgement comes
 * {@code lagRounds} demands later, round robin over {@code readers} readers. With 64 readers and a
 * lag of one round about 65,000 splits stay tracked, as at p=64 in the engine's storm.
 *
 * <p>{@code evictKiB} streams through that many KiB after every demand, standing in for the task
 * threads that share the loop's cores and take its cache; {@link #evictOnly} measures the streaming
 * alone, to be subtracted.
 *
 * <p>Usage: {@code tools/run-jmh.sh TrackerCycleBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class TrackerCycleBenchmark {
    static final int DEMAND = 512;
    static final int PER_COMMAND = 64;
    static final long EPOCH = 1;
    static final long ATTEMPT = 7;

    // More ids than are ever tracked at once, so an id is free again when it comes round.
    private static final int ID_RING = 1 << 20;

    @Param({"64"})
    int readers;

    @Param({"1"})
    int lagRounds;

    @Param({"0", "2048"})
    int evictKiB;

    /**
     * Splits waiting for a subtask that never asks, so the index is as large as a tracker's in a
     * storm with checkpoints on (what readers applied stays tracked until a checkpoint completes).
     */
    @Param({"0"})
    int background;

    /** The demand's splits recorded in one call, as the coordinator does, or one by one. */
    @Param({"true"})
    boolean batched;

    private SourceAssignmentTracker tracker;
    private String[] ids;
    private final byte[] splitBytes = new byte[13];
    private long nextId;
    private long commandId;
    private long[] sequence;
    private ArrayDeque<Long>[] unapplied;
    private int subtask;
    private long[] evict;
    private long sink;
    private final List<String> demandIds = new ArrayList<>(DEMAND);
    private final List<byte[]> demandBytes = Collections.nCopies(DEMAND, splitBytes);

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() {
        tracker =
                new SourceAssignmentTracker(
                        SourceAssignmentTracker.DEFAULT_MAX_ENTRIES,
                        1L << 30,
                        SourceAssignmentTracker.DEFAULT_MAX_ENTRIES,
                        1L << 30,
                        false,
                        new CoordinatorMetrics());
        ids = new String[ID_RING];
        for (int i = 0; i < ID_RING; i++) {
            ids[i] = "fake-" + i;
        }
        sequence = new long[readers];
        unapplied = new ArrayDeque[readers];
        for (int s = 0; s < readers; s++) {
            unapplied[s] = new ArrayDeque<>();
        }
        evict = evictKiB == 0 ? null : new long[evictKiB * 1024 / 8];
        // Ids no demand uses: the ring's ids run from 0, these from ID_RING on.
        for (int i = 0; i < background; i++) {
            tracker.addPending("idle-" + i, splitBytes, readers);
        }
    }

    /** One reader's demand: added, dispatched and admitted; an older demand of it collected. */
    @Benchmark
    @OperationsPerInvocation(DEMAND)
    public long demandDispatchCollect() {
        int s = subtask;
        subtask = (subtask + 1) % readers;
        if (batched) {
            demandIds.clear();
            for (int i = 0; i < DEMAND; i++) {
                demandIds.add(ids[(int) (nextId++ & (ID_RING - 1))]);
            }
            tracker.addPending(demandIds, demandBytes, s);
        } else {
            for (int i = 0; i < DEMAND; i++) {
                tracker.addPending(ids[(int) (nextId++ & (ID_RING - 1))], splitBytes, s);
            }
        }
        long last = 0;
        while (tracker.hasPending(s)) {
            int n = tracker.dispatchable(s, PER_COMMAND, Long.MAX_VALUE);
            last = ++sequence[s];
            long cmd = ++commandId;
            tracker.dispatched(s, n, EPOCH, ATTEMPT, last, cmd, 0, 0);
            tracker.onAdmitted(cmd);
        }
        unapplied[s].addLast(last);
        if (unapplied[s].size() > lagRounds) {
            tracker.appliedThrough(s, ATTEMPT, EPOCH, unapplied[s].pollFirst());
        }
        return evict() + tracker.size();
    }

    /** The streaming of {@link #demandDispatchCollect} alone, per split. */
    @Benchmark
    @OperationsPerInvocation(DEMAND)
    public long evictOnly() {
        return evict();
    }

    private long evict() {
        if (evict == null) {
            return 0;
        }
        long[] e = evict;
        long x = sink;
        // One write per 64-byte line: the lines end up modified in this core's cache.
        for (int i = 0; i < e.length; i += 8) {
            e[i] += x;
            x += e[i];
        }
        sink = x;
        return x;
    }
}
