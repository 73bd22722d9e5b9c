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

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.coordinator.CommandDispatcher;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorConfig;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.coordinator.DelayScheduler;
import org.apache.seatunnel.engine.managed.source.coordinator.EnumeratorFactory;
import org.apache.seatunnel.engine.managed.source.coordinator.OfferResult;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Split storm: 100,000 splits to 512 readers through a real {@link CoordinatorEventLoop} and its
 * tracker, on a single-threaded executor standing in for the member pool. Reader split requests are
 * offered from the main thread (retrying on QUEUE_FULL, like an engine thread would); a no-op
 * dispatcher admits every command immediately, and every {@value #ACK_EVERY} requests the main
 * thread acknowledges what each reader was sent as applied, which returns the readers' credit;
 * every {@code --checkpoint-every} assignments it takes a coordinator snapshot, reports every
 * reader's watermark and completes the checkpoint, which lets the tracker collect.
 *
 * <p>Prints assignments/s per round, the tracker's estimated bytes at 100,000 entries against a
 * heap measurement, and the tracker size and heap after every round (no monotonic growth).
 *
 * <p>Usage: {@code java -cp ... SplitStormBenchmark [rounds=5] [splits=100000] [readers=512]
 * [checkpointEvery=10000]}
 */
public final class SplitStormBenchmark {
    /** Requests between two rounds of apply acknowledgements. */
    static final int ACK_EVERY = 1024;

    /** The tracker's default bound: the footprint fills it to this many entries at most. */
    private static final int TRACKER_BOUND = 100_000;

    private final int splits;
    private final int readers;
    private final int checkpointEvery;
    private final ExecutorService loopThread = Executors.newSingleThreadExecutor();
    private final ScheduledExecutorService timerThread =
            Executors.newSingleThreadScheduledExecutor();
    private final AtomicLongArray lastSequence;
    private final CoordinatorEventLoop<BenchSplit, Integer> loop;
    private final StormEnumerator[] enumerator = new StormEnumerator[1];
    private long checkpointId;

    private SplitStormBenchmark(int splits, int readers, int checkpointEvery) {
        this.splits = splits;
        this.readers = readers;
        this.checkpointEvery = checkpointEvery;
        this.lastSequence = new AtomicLongArray(readers);
        this.loop =
                CoordinatorEventLoop.<BenchSplit, Integer>builder()
                        .config(
                                CoordinatorConfig.builder()
                                        .jobId(1)
                                        .sourceRuntimeId(1)
                                        .parallelism(readers)
                                        .build())
                        .enumeratorFactory(
                                new EnumeratorFactory<BenchSplit, Integer>() {
                                    @Override
                                    public SourceSplitEnumerator<BenchSplit, Integer> create(
                                            SourceSplitEnumerator.Context<BenchSplit> ctx) {
                                        enumerator[0] = new StormEnumerator(ctx);
                                        return enumerator[0];
                                    }

                                    @Override
                                    public SourceSplitEnumerator<BenchSplit, Integer> restore(
                                            SourceSplitEnumerator.Context<BenchSplit> ctx,
                                            Integer state) {
                                        return create(ctx);
                                    }
                                })
                        .splitSerializer(new BenchSplit.Ser())
                        .stateSerializer(new IntSer())
                        .dispatcher(this::admitNow)
                        .executor(loopThread)
                        .timer(new ExecutorDelayScheduler(timerThread))
                        .workerPool(new SourceAsyncWorkerPool(Runnable::run))
                        .failureHandler(
                                (where, cause) -> {
                                    System.err.println("coordinator failure in " + where);
                                    cause.printStackTrace();
                                })
                        .build();
    }

    /** No-op transport: admitted at once; only remembers each reader's last sequence. */
    private void admitNow(SourceCommandEnvelope env, CommandDispatcher.AckCallback callback) {
        int s = env.targetSubtask();
        if (env.senderSequence() > lastSequence.get(s)) {
            lastSequence.set(s, env.senderSequence());
        }
        callback.onAdmission(AdmissionAck.accepted(env.targetAttemptId(), env.senderSequence()));
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int splits = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int readers = args.length > 2 ? Integer.parseInt(args[2]) : 512;
        int every = args.length > 3 ? Integer.parseInt(args[3]) : 10_000;
        SplitStormBenchmark b = new SplitStormBenchmark(splits, readers, every);
        try {
            b.run(rounds);
        } finally {
            b.loopThread.shutdownNow();
            b.timerThread.shutdownNow();
        }
    }

    private void run(int rounds) throws Exception {
        System.out.printf(
                "split storm: %d splits, %d readers, checkpoint every %d assignments, %s%n",
                splits, readers, checkpointEvery, System.getProperty("java.version"));
        loop.open();
        for (int r = 0; r < readers; r++) {
            int subtask = r;
            offer(() -> loop.registerReader(subtask, 1));
        }
        awaitIdle();
        measureFootprint();
        for (int round = 1; round <= rounds; round++) {
            stormRound(round, true);
        }
        System.out.println("metrics: " + loop.metrics());
        loop.close();
        loopThread.shutdown();
        loopThread.awaitTermination(30, TimeUnit.SECONDS);
    }

    /** Fills the tracker to 100,000 entries without completing a checkpoint, measures, drains. */
    private void measureFootprint() throws Exception {
        long before = usedHeapAfterGc();
        enumerator[0].refill(0, Math.min(splits, TRACKER_BOUND));
        requestAll();
        long[] peak = probe();
        long during = usedHeapAfterGc();
        checkpoint();
        long[] after = probe();
        long drained = usedHeapAfterGc();
        System.out.printf(
                "footprint: tracker entries=%d estimated=%.1f MiB (%.0f B/entry);"
                        + " heap delta with tracker full=%.1f MiB (%.0f B/entry);"
                        + " after checkpoint: entries=%d, heap delta=%.1f MiB%n",
                peak[0],
                peak[1] / 1048576.0,
                peak[0] == 0 ? 0.0 : (double) peak[1] / peak[0],
                (during - before) / 1048576.0,
                peak[0] == 0 ? 0.0 : (double) (during - before) / peak[0],
                after[0],
                (drained - before) / 1048576.0);
    }

    private void stormRound(int round, boolean periodicCheckpoints) throws Exception {
        enumerator[0].refill(round, splits);
        long dispatchedBefore = loop.metrics().get(Counter.ASSIGNMENTS_DISPATCHED);
        long start = System.nanoTime();
        int sinceCheckpoint = 0;
        for (int i = 0; i < splits; i++) {
            int s = i % readers;
            offer(() -> loop.handleSplitRequest(s, 1));
            if ((i + 1) % ACK_EVERY == 0) {
                ackApplied();
            }
            if (periodicCheckpoints && ++sinceCheckpoint == checkpointEvery) {
                sinceCheckpoint = 0;
                checkpoint();
            }
        }
        checkpoint();
        long nanos = System.nanoTime() - start;
        long dispatched = loop.metrics().get(Counter.ASSIGNMENTS_DISPATCHED) - dispatchedBefore;
        long[] p = probe();
        System.out.printf(
                "round %d: %d assignments in %.1f ms = %.0f assignments/s (incl. %d checkpoints);"
                        + " tracker entries=%d estimated bytes=%d; heap after GC=%.1f MiB%n",
                round,
                dispatched,
                nanos / 1e6,
                dispatched / (nanos / 1e9),
                splits / checkpointEvery + 1,
                p[0],
                p[1],
                usedHeapAfterGc() / 1048576.0);
    }

    /**
     * Requests as many splits as the tracker holds (all of them if fewer), without a checkpoint.
     */
    private void requestAll() throws Exception {
        int n = Math.min(splits, TRACKER_BOUND);
        for (int i = 0; i < n; i++) {
            int s = i % readers;
            offer(() -> loop.handleSplitRequest(s, 1));
            if ((i + 1) % ACK_EVERY == 0) {
                ackApplied();
            }
        }
        ackApplied();
        awaitIdle();
    }

    /** Every reader applied everything it was sent so far: its credit comes back. */
    private void ackApplied() {
        for (int s = 0; s < readers; s++) {
            int subtask = s;
            long watermark = lastSequence.get(s);
            if (watermark > 0) {
                offer(() -> loop.assignmentApplied(subtask, 1, watermark));
            }
        }
    }

    /** Snapshot, every reader's watermark as its checkpoint metadata, then completion. */
    private void checkpoint() throws Exception {
        ackApplied();
        awaitIdle();
        long id = snapshotWhenQueued();
        for (int s = 0; s < readers; s++) {
            ReaderInclusionReport report =
                    ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, s, 1, id)
                            .watermark(1, lastSequence.get(s))
                            .build();
            offer(() -> loop.reportInclusion(report));
        }
        offer(() -> loop.notifyCheckpointComplete(id));
        awaitIdle();
    }

    /** Entries and estimated bytes, read on the loop (the tracker is loop-owned). */
    private long[] probe() throws Exception {
        snapshotWhenQueued();
        return enumerator[0].lastProbe;
    }

    /**
     * A snapshot under a new checkpoint id, offered again while the loop's queue is full (the
     * readers' requests may fill it); returns the id it was taken under.
     */
    private long snapshotWhenQueued() throws Exception {
        while (true) {
            long id = ++checkpointId;
            try {
                loop.snapshot(id).get(30, TimeUnit.SECONDS);
                return id;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RejectedExecutionException)
                        || !String.valueOf(e.getCause().getMessage()).contains("QUEUE_FULL")) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Waits until every earlier command ran: a snapshot is a barrier through the FIFO queue. */
    private void awaitIdle() throws Exception {
        probe();
    }

    private static void offer(Supplier<OfferResult> offer) {
        while (offer.get() == OfferResult.QUEUE_FULL) {
            Thread.onSpinWait(); // the benchmark's caller may spin; engine threads would not
        }
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return m.getHeapMemoryUsage().getUsed();
    }

    /** Hands one split per request, round-robin over the refilled set. */
    private final class StormEnumerator implements SourceSplitEnumerator<BenchSplit, Integer> {
        private final SourceSplitEnumerator.Context<BenchSplit> context;
        private final ArrayDeque<BenchSplit> pending = new ArrayDeque<>();
        private volatile int round;
        private volatile int count;
        volatile long[] lastProbe = new long[2];

        StormEnumerator(SourceSplitEnumerator.Context<BenchSplit> context) {
            this.context = context;
        }

        void refill(int round, int n) {
            this.round = round;
            this.count = n;
        }

        @Override
        public void open() {}

        @Override
        public void run() {}

        @Override
        public void close() {}

        @Override
        public void addSplitsBack(List<BenchSplit> splits, int subtaskId) {
            pending.addAll(splits);
        }

        @Override
        public int currentUnassignedSplitSize() {
            return pending.size() + count;
        }

        @Override
        public void handleSplitRequest(int subtaskId) {
            BenchSplit next = pending.pollFirst();
            if (next == null && count > 0) {
                next = new BenchSplit("r" + round + "-split-" + (--count), 0);
            }
            if (next != null) {
                context.assignSplit(subtaskId, next);
            }
        }

        @Override
        public void registerReader(int subtaskId) {}

        @Override
        public Integer snapshotState(long checkpointId) {
            lastProbe =
                    new long[] {
                        loop.tracker().size(), loop.tracker().estimatedBytes(),
                    };
            return pending.size() + count;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    /** A split: id plus a start offset. */
    static final class BenchSplit implements SourceSplit {
        private static final long serialVersionUID = 1L;
        final String id;
        final long offset;

        BenchSplit(String id, long offset) {
            this.id = id;
            this.offset = offset;
        }

        @Override
        public String splitId() {
            return id;
        }

        static final class Ser implements Serializer<BenchSplit> {
            @Override
            public byte[] serialize(BenchSplit s) {
                byte[] id = s.id.getBytes(StandardCharsets.UTF_8);
                byte[] out = new byte[id.length + 8];
                System.arraycopy(id, 0, out, 8, id.length);
                for (int i = 0; i < 8; i++) {
                    out[i] = (byte) (s.offset >>> (56 - 8 * i));
                }
                return out;
            }

            @Override
            public BenchSplit deserialize(byte[] b) {
                long off = 0;
                for (int i = 0; i < 8; i++) {
                    off = (off << 8) | (b[i] & 0xff);
                }
                return new BenchSplit(new String(b, 8, b.length - 8, StandardCharsets.UTF_8), off);
            }
        }
    }

    static final class IntSer implements Serializer<Integer> {
        @Override
        public byte[] serialize(Integer v) {
            return new byte[] {
                (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) (int) v
            };
        }

        @Override
        public Integer deserialize(byte[] b) {
            return ((b[0] & 0xff) << 24)
                    | ((b[1] & 0xff) << 16)
                    | ((b[2] & 0xff) << 8)
                    | (b[3] & 0xff);
        }
    }

    /** Production-style timer: a shared scheduled executor. */
    static final class ExecutorDelayScheduler implements DelayScheduler {
        private final ScheduledExecutorService ses;

        ExecutorDelayScheduler(ScheduledExecutorService ses) {
            this.ses = ses;
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable action) {
            ScheduledFuture<?> f = ses.schedule(action, delay.toNanos(), TimeUnit.NANOSECONDS);
            return new Cancellable() {
                @Override
                public boolean cancel() {
                    return f.cancel(false);
                }

                @Override
                public boolean isCancelled() {
                    return f.isCancelled();
                }
            };
        }
    }
}
