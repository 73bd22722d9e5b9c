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

package org.apache.seatunnel.connectors.managed.reader;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.connectors.managed.reader.fetcher.SplitFetcherManager;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.apache.seatunnel.managed.testkit.conformance.ConformanceRules;
import org.apache.seatunnel.managed.testkit.conformance.ConformanceTarget;
import org.junit.jupiter.api.Test;

/**
 * The base's own guarantees beyond the conformance rules: the thread-per-split bound, fetch
 * failures reaching the loop, the fetch queue bound under a slow loop, Lane B's poll path and a
 * bounded close.
 */
class ManagedSourceReaderBaseTest {

    record Split(int n, long next, long end) implements SourceSplit {
        @Override
        public String splitId() {
            return "t" + n;
        }
    }

    static final class Codec extends VersionedSerializer<Split> {
        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, Split s) throws IOException {
            out.writeInt(s.n());
            out.writeLong(s.next());
            out.writeLong(s.end());
        }

        @Override
        protected Split read(DataInputStream in, int version) throws IOException {
            return new Split(in.readInt(), in.readLong(), in.readLong());
        }
    }

    static final class Pos {
        final Split split;
        long next;

        Pos(Split s) {
            this.split = s;
            this.next = s.next();
        }
    }

    /** Reads its splits in turn, 50 numbers per fetch; may first wait on a gate or fail. */
    static final class Numbers implements ManagedSplitReader<Long, Split> {
        final ArrayDeque<Split> splits = new ArrayDeque<>();
        final CountDownLatch gate;
        final boolean fail;
        long next = -1;

        Numbers(CountDownLatch gate, boolean fail) {
            this.gate = gate;
            this.fail = fail;
        }

        @Override
        public FetchedRecords<Long> fetch() throws Exception {
            if (fail) {
                throw new IOException("broken pipe");
            }
            if (gate != null) {
                // Honours interrupts but not wakeUp(): the close() test needs a stubborn fetch.
                gate.await();
            }
            Split s = splits.peekFirst();
            if (s == null) {
                return FetchedRecords.empty();
            }
            if (next < 0) {
                next = s.next();
            }
            FetchedRecords.Builder<Long> b = FetchedRecords.builder();
            for (int i = 0; i < 50 && next < s.end(); i++) {
                b.add(s.splitId(), next++, 8);
            }
            if (next >= s.end()) {
                b.finish(s.splitId());
                splits.pollFirst();
                next = -1;
            }
            return b.build();
        }

        @Override
        public void handleSplitsAdded(List<Split> added) {
            splits.addAll(added);
        }

        @Override
        public void wakeUp() {}

        @Override
        public void close() {}
    }

    static final class Reader extends ManagedSourceReaderBase<Long, String, Split, Pos> {
        Reader(
                SourceReader.Context ctx,
                ManagedReaderConfig config,
                FetchMode mode,
                int maxThreads,
                CountDownLatch gate,
                boolean fail) {
            super(
                    ctx,
                    config,
                    mode,
                    maxThreads,
                    () -> new Numbers(gate, fail),
                    (n, out, pos) -> {
                        out.collect(pos.split.splitId() + ":" + n);
                        pos.next = n + 1;
                    });
        }

        @Override
        protected Pos initialState(Split split) {
            return new Pos(split);
        }

        @Override
        protected Split toSplit(String splitId, Pos p) {
            return new Split(p.split.n(), p.next, p.split.end());
        }
    }

    static final class Ctx implements SourceReader.Context {
        int noMoreElement;
        final java.util.Map<String, org.apache.seatunnel.api.common.metrics.Counter> counters =
                new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public void signalNoMoreElement() {
            noMoreElement++;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToEnumerator(SourceEvent e) {}

        @Override
        public MetricsContext getMetricsContext() {
            return new MetricsContext() {
                @Override
                public org.apache.seatunnel.api.common.metrics.Counter counter(String name) {
                    return counter(
                            name,
                            new org.apache.seatunnel.api.common.metrics.ThreadSafeCounter(name));
                }

                @Override
                public <C extends org.apache.seatunnel.api.common.metrics.Counter> C counter(
                        String name, C c) {
                    counters.put(name, c);
                    return c;
                }

                @Override
                public org.apache.seatunnel.api.common.metrics.Meter meter(String name) {
                    return new org.apache.seatunnel.api.common.metrics.ThreadSafeQPSMeter(name);
                }

                @Override
                public <M extends org.apache.seatunnel.api.common.metrics.Meter> M meter(
                        String name, M m) {
                    return m;
                }
            };
        }

        long metric(String name) {
            return counters.get(name).getCount();
        }

        @Override
        public EventListener getEventListener() {
            return e -> {};
        }
    }

    static final class Out implements Collector<String>, PollContext {
        final List<String> rows = new ArrayList<>();
        final Object lock = new Object();
        int budget;

        @Override
        public void collect(String r) {
            rows.add(r);
            budget--;
        }

        @Override
        public Object getCheckpointLock() {
            return lock;
        }

        @Override
        public int remainingRecords() {
            return Math.max(0, budget);
        }

        @Override
        public long remainingBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public long deadlineNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean shouldYield() {
            return budget <= 0;
        }
    }

    /** A reader with one fetch thread whose split reader neither waits nor fails. */
    private static Reader singleThread(Ctx ctx, ManagedReaderConfig cfg) {
        return new Reader(
                ctx, cfg, ManagedSourceReaderBase.FetchMode.SINGLE_THREAD, 1, null, false);
    }

    private static List<Split> splits(int count, long each) {
        List<Split> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new Split(i, 0, each));
        }
        return out;
    }

    @Test
    void threadPerSplitPassesTheConformanceRules() throws Exception {
        ConformanceRules<String, Split> rules =
                new ConformanceRules<>(
                        ConformanceTarget.<String, Split>forReaders(
                                        ctx ->
                                                new Reader(
                                                        ctx,
                                                        ManagedReaderConfig.defaults(),
                                                        ManagedSourceReaderBase.FetchMode
                                                                .THREAD_PER_SPLIT,
                                                        2,
                                                        null,
                                                        false),
                                        new Codec())
                                .splits(splits(5, 120))
                                .build());
        rules.pollReturnsWithinBudgetAndHonoursShouldYield();
        rules.noLostWakeupUnderAdversarialTiming();
        rules.snapshotAndEmitAreAtomic();
        rules.snapshotIncludesSplitsAddedInTheSameTurn();
        rules.duplicateAddSplitsIsIdempotent();
        rules.noBackgroundThreadChangesSnapshotState();
        rules.closeLeavesNoThreadBehind();
    }

    @Test
    void threadPerSplitRunsAtMostMaxThreadsAtOnce() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        Ctx ctx = new Ctx();
        try (Reader r =
                new Reader(
                        ctx,
                        ManagedReaderConfig.defaults(),
                        ManagedSourceReaderBase.FetchMode.THREAD_PER_SPLIT,
                        2,
                        gate,
                        false)) {
            r.addSplits(splits(5, 60));
            r.handleNoMoreSplits();
            await().atMost(Duration.ofSeconds(10)).until(() -> r.liveFetchThreads() == 2);
            assertEquals(2, r.liveFetchThreads(), "the bound holds while splits wait");
            gate.countDown();
            Out out = new Out();
            drain(r, out);
            assertEquals(5 * 60, out.rows.size());
            assertEquals(5 * 60, new java.util.HashSet<>(out.rows).size(), "no duplicate");
        }
    }

    @Test
    void aFetchFailureFailsTheNextPollWithItsCause() throws Exception {
        try (Reader r =
                new Reader(
                        new Ctx(),
                        ManagedReaderConfig.defaults(),
                        ManagedSourceReaderBase.FetchMode.SINGLE_THREAD,
                        1,
                        null,
                        true)) {
            java.util.concurrent.CompletableFuture<Void> available = r.isAvailable();
            r.addSplits(splits(1, 10));
            available.get(10, TimeUnit.SECONDS);
            Out out = new Out();
            out.budget = 10;
            SplitFetcherManager.FetchFailedException e =
                    assertThrows(
                            SplitFetcherManager.FetchFailedException.class,
                            () -> r.pollNextManaged(out, out));
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void theFetchQueueNeverHoldsMoreThanItsBoundWhileTheLoopIsSlow() throws Exception {
        ManagedReaderConfig cfg = ManagedReaderConfig.builder().fetchQueueMaxRecords(120).build();
        Ctx ctx = new Ctx();
        try (Reader r = singleThread(ctx, cfg)) {
            r.addSplits(splits(4, 500));
            r.handleNoMoreSplits();
            // Fetches of 50 fill the queue to 100 and the next one must wait for the loop.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ctx.metric("ManagedSourceFetchQueueFullWaits") > 0);
            Out out = new Out();
            drain(r, out);
            assertEquals(2000, out.rows.size());
            long peak = ctx.metric("ManagedSourceFetchQueuePeakRecords");
            assertTrue(peak <= 120, "peak " + peak + " within reader.fetch-queue.max-records");
            assertEquals(100, peak, "the queue filled up to the last batch that fit");
            assertEquals(4, ctx.metric("ManagedSourceReaderSplitsFinished"));
        }
    }

    @Test
    void aTurnThatEmitsTheLastFetchedRecordReportsNothingAvailable() throws Exception {
        Ctx ctx = new Ctx();
        try (Reader r = singleThread(ctx, ManagedReaderConfig.defaults())) {
            // One split of 50: one fetched batch of 50 that also finishes the split.
            r.addSplits(splits(1, 50));
            r.isAvailable().get(10, TimeUnit.SECONDS);
            Out out = new Out();
            out.budget = 49;
            assertEquals(PollStatus.MORE_AVAILABLE, r.pollNextManaged(out, out));
            assertEquals(0, ctx.metric("ManagedSourceReaderSplitsFinished"));
            out.budget = 1;
            // The budget ends exactly with the batch: nothing is left, so no empty turn follows.
            assertEquals(PollStatus.NOTHING_AVAILABLE, r.pollNextManaged(out, out));
            assertEquals(50, out.rows.size());
            assertEquals("t0:49", out.rows.get(49));
            assertEquals(1, ctx.metric("ManagedSourceReaderSplitsFinished"));
            assertEquals(0, r.unfinishedSplits());
        }
    }

    @Test
    void laneBPollEmitsUnderTheCheckpointLockAndSignalsTheEndOnce() throws Exception {
        Ctx ctx = new Ctx();
        ManagedReaderConfig cfg = ManagedReaderConfig.builder().legacyPollMaxRecords(7).build();
        try (Reader r = singleThread(ctx, cfg)) {
            r.addSplits(splits(2, 30));
            r.handleNoMoreSplits();
            Out out = new Out();
            Collector<String> locked =
                    new Collector<String>() {
                        @Override
                        public void collect(String record) {
                            assertTrue(Thread.holdsLock(out.lock), "emitted under the lock");
                            out.rows.add(record);
                        }

                        @Override
                        public Object getCheckpointLock() {
                            return out.lock;
                        }
                    };
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ctx.noMoreElement == 0 && System.nanoTime() < deadline) {
                int before = out.rows.size();
                r.pollNext(locked);
                assertTrue(out.rows.size() - before <= 7, "at most legacy-poll.max-records");
            }
            assertEquals(60, out.rows.size());
            r.pollNext(locked);
            assertEquals(1, ctx.noMoreElement, "the end is signalled once");
        }
    }

    @Test
    void closeInterruptsAFetchThatIgnoresWakeUpAfterTheCloseTimeout() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        ManagedReaderConfig cfg =
                ManagedReaderConfig.builder().closeTimeout(Duration.ofMillis(50)).build();
        Reader r =
                new Reader(
                        new Ctx(),
                        cfg,
                        ManagedSourceReaderBase.FetchMode.SINGLE_THREAD,
                        1,
                        never,
                        false);
        r.addSplits(splits(1, 10));
        await().atMost(Duration.ofSeconds(10)).until(() -> r.liveFetchThreads() == 1);
        r.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.liveFetchThreads() == 0);
        assertSame(0, r.liveFetchThreads());
    }

    @Test
    void aReaderRemembersOnlyTheNewestFinishedSplitsWithinItsBound() throws Exception {
        Ctx ctx = new Ctx();
        ManagedReaderConfig cfg = ManagedReaderConfig.builder().finishedSplitsRemembered(2).build();
        try (Reader r = singleThread(ctx, cfg)) {
            r.addSplits(splits(3, 1));
            Out out = new Out();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ctx.metric("ManagedSourceReaderSplitsFinished") < 3) {
                out.budget = 64;
                if (r.pollNextManaged(out, out) == PollStatus.NOTHING_AVAILABLE
                        && ctx.metric("ManagedSourceReaderSplitsFinished") < 3) {
                    r.isAvailable().get(10, TimeUnit.SECONDS);
                }
                assertTrue(System.nanoTime() < deadline, "read within 30 s");
            }
            assertEquals(2, r.finishedSplitsRemembered());
            assertEquals(1, ctx.metric("ManagedSourceReaderFinishedSplitsForgotten"));

            // A finished split it remembers, assigned again, is ignored ...
            r.addSplits(List.of(new Split(2, 0, 1)));
            assertEquals(1, ctx.metric("ManagedSourceReaderSplitsDuplicate"));
            assertEquals(0, r.unfinishedSplits());
            // ... one it forgot is taken again: the bound trades that guard for memory.
            r.addSplits(List.of(new Split(0, 0, 1)));
            assertEquals(1, r.unfinishedSplits());
        }
    }

    @Test
    void theFinishedSplitBoundIsAnOptionWithARange() {
        assertEquals(
                100_000, ManagedReaderConfig.defaults().finishedSplitsRemembered(), "the default");
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> ManagedReaderConfig.builder().finishedSplitsRemembered(-1));
    }

    /** Polls as the runtime would until END_OF_INPUT (bounded). */
    private static void drain(Reader r, Out out) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (; ; ) {
            out.budget = 64;
            PollStatus s = r.pollNextManaged(out, out);
            if (s == PollStatus.END_OF_INPUT) {
                return;
            }
            if (s == PollStatus.NOTHING_AVAILABLE) {
                r.isAvailable().get(10, TimeUnit.SECONDS);
            }
            assertTrue(System.nanoTime() < deadline, "read within 30 s");
        }
    }
}
