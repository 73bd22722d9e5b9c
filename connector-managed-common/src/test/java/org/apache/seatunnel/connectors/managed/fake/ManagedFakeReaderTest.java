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

package org.apache.seatunnel.connectors.managed.fake;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.connectors.managed.fake.TestSupport.Budget;
import org.apache.seatunnel.connectors.managed.fake.TestSupport.FakeReaderContext;
import org.apache.seatunnel.connectors.managed.fake.TestSupport.ListCollector;
import org.apache.seatunnel.connectors.managed.fake.TestSupport.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ManagedFakeReaderTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final long FAR = TimeUnit.SECONDS.toNanos(60);

    private final ExecutorService poller =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "test-poller");
                        t.setDaemon(true);
                        return t;
                    });

    @AfterEach
    void stopPoller() {
        poller.shutdownNow();
    }

    private static ManagedFakeConfig bounded(int splits, long rows) {
        return ManagedFakeConfig.builder().splitCount(splits).rowsPerSplit(rows).build();
    }

    private static ManagedFakeReader reader(
            FakeReaderContext ctx, ManagedFakeConfig config, java.util.function.LongSupplier c) {
        return new ManagedFakeReader(ctx, config, c, new Random(42));
    }

    // ------------------------------------------------------------------ Lane B

    @Test
    void legacyPollEmitsOneBatchInsideTheCheckpointLock() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeReader reader = reader(ctx, bounded(5, 1000), System::nanoTime);
        reader.addSplits(TestSupport.splits(5));
        ListCollector out = new ListCollector();

        reader.pollNext(out);

        assertEquals(ManagedFakeReader.CHUNK_ROWS, out.rows.size());
        assertFalse(out.heldLock.contains(false), "every collect ran under the checkpoint lock");
    }

    @Test
    void legacyBoundedSignalsNoMoreElementOnlyAfterNoMoreSplitsAndAllSplitsRead() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeReader reader = reader(ctx, bounded(5, 20), System::nanoTime);
        reader.addSplits(TestSupport.splits(5));
        ListCollector out = new ListCollector();

        for (int i = 0; i < 10; i++) {
            reader.pollNext(out);
        }
        assertEquals(100, out.rows.size());
        assertEquals(0, ctx.noMoreElementSignals.get(), "no end before handleNoMoreSplits");

        reader.handleNoMoreSplits();
        reader.pollNext(out);
        reader.pollNext(out);

        assertEquals(1, ctx.noMoreElementSignals.get(), "end signalled exactly once");
        List<String> seen = out.payloads();
        Collections.sort(seen);
        assertEquals(TestSupport.expectedPayloads(5, 20), seen);
    }

    @Test
    void legacySlowDataWaitsWhileHoldingTheCheckpointLock() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(10)
                        .slowDataMillis(60_000)
                        .slowDataJitter(false)
                        .build();
        ManagedFakeReader reader = reader(ctx, config, System::nanoTime);
        reader.addSplits(TestSupport.splits(1));
        ListCollector out = new ListCollector();
        AtomicReference<Thread> pollThread = new AtomicReference<>();

        Future<?> poll =
                poller.submit(
                        () -> {
                            pollThread.set(Thread.currentThread());
                            reader.pollNext(out);
                            return null;
                        });

        // The poll thread is parked in its slow-data wait and still owns the checkpoint lock.
        await().atMost(BOUND)
                .until(
                        () ->
                                pollThread.get() != null
                                        && pollThread.get().getState() == Thread.State.TIMED_WAITING
                                        && ownsMonitor(pollThread.get(), out.checkpointLock));
        assertTrue(out.rows.isEmpty());

        reader.wakeup();
        poll.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals(10, out.rows.size());
    }

    // ------------------------------------------------------------------ Lane A

    @Test
    void managedPollHonoursTheRecordBudget() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManualClock clock = new ManualClock();
        ManagedFakeReader reader = reader(ctx, bounded(3, 1000), clock);
        reader.addSplits(TestSupport.splits(3));
        ListCollector out = new ListCollector();

        Budget budget = new Budget(clock, 7, clock.getAsLong() + FAR);
        PollStatus status = reader.pollNextManaged(budget.counting(out), budget);

        assertEquals(PollStatus.MORE_AVAILABLE, status);
        assertEquals(7, out.rows.size());

        // A context whose allowance does not shrink on its own is honoured by its initial value.
        Budget fixed = new Budget(clock, 5, clock.getAsLong() + FAR);
        reader.pollNextManaged(out, fixed);
        assertEquals(12, out.rows.size());
    }

    @Test
    void managedReturnsNothingAvailableUntilDataReadyAtPasses() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManualClock clock = new ManualClock();
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(1000)
                        .slowDataMillis(1000)
                        .slowDataJitter(false)
                        .build();
        ManagedFakeReader reader = reader(ctx, config, clock);
        reader.addSplits(TestSupport.splits(1));
        ListCollector out = new ListCollector();

        // Deadline = now: no time to wait, the data is not there yet.
        Budget noTime = new Budget(clock, 1000, clock.getAsLong());
        assertEquals(PollStatus.NOTHING_AVAILABLE, reader.pollNextManaged(out, noTime));
        assertTrue(out.rows.isEmpty());
        CompletableFuture<Void> available = reader.isAvailable();
        assertFalse(available.isDone());

        clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(1000));
        assertTrue(reader.isAvailable().isDone(), "the clock passed dataReadyAt");

        Budget plenty = new Budget(clock, 1000, clock.getAsLong() + FAR);
        PollStatus status = reader.pollNextManaged(plenty.counting(out), plenty);
        assertEquals(ManagedFakeReader.CHUNK_ROWS, out.rows.size(), "one chunk is there");
        assertEquals(PollStatus.NOTHING_AVAILABLE, status, "the next chunk is not");
        assertTrue(available.isDone(), "the poll attempt that found data completed the future");
    }

    @Test
    void managedSlowDataYieldsAtTheDeadline() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(1000)
                        .slowDataMillis(60_000)
                        .slowDataJitter(false)
                        .build();
        ManagedFakeReader reader = reader(ctx, config, System::nanoTime);
        reader.addSplits(TestSupport.splits(1));
        ListCollector out = new ListCollector();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        Budget budget = new Budget(System::nanoTime, 1000, deadline);

        Future<PollStatus> poll = poller.submit(() -> reader.pollNextManaged(out, budget));

        await().atMost(BOUND).until(poll::isDone);
        long returnedAt = System.nanoTime();
        assertEquals(PollStatus.NOTHING_AVAILABLE, poll.get());
        assertTrue(out.rows.isEmpty());
        assertTrue(returnedAt - deadline >= 0, "the wait lasted until the deadline, no less");
    }

    @Test
    void managedWakeupEndsTheWaitPromptly() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(1000)
                        .slowDataMillis(60_000)
                        .slowDataJitter(false)
                        .build();
        ManagedFakeReader reader = reader(ctx, config, System::nanoTime);
        reader.addSplits(TestSupport.splits(1));
        ListCollector out = new ListCollector();
        long deadline = System.nanoTime() + FAR;
        Budget budget = new Budget(System::nanoTime, 1000, deadline);
        AtomicReference<Thread> pollThread = new AtomicReference<>();

        Future<PollStatus> poll =
                poller.submit(
                        () -> {
                            pollThread.set(Thread.currentThread());
                            return reader.pollNextManaged(out, budget);
                        });
        await().atMost(BOUND)
                .until(
                        () ->
                                pollThread.get() != null
                                        && pollThread.get().getState()
                                                == Thread.State.TIMED_WAITING);

        reader.wakeup();

        await().atMost(BOUND).until(poll::isDone);
        assertEquals(PollStatus.NOTHING_AVAILABLE, poll.get());
        assertTrue(System.nanoTime() < deadline, "the wakeup, not the 60 s deadline, ended it");
        assertTrue(out.rows.isEmpty());
    }

    @Test
    void isAvailableNeverLosesASplitArrivingAfterAnEmptyPoll() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManualClock clock = new ManualClock();
        ManagedFakeReader reader = reader(ctx, bounded(2, 10), clock);
        ListCollector out = new ListCollector();
        Budget budget = new Budget(clock, 100, clock.getAsLong() + FAR);

        assertEquals(PollStatus.NOTHING_AVAILABLE, reader.pollNextManaged(out, budget));
        CompletableFuture<Void> beforeSplit = reader.isAvailable();
        assertFalse(beforeSplit.isDone());

        reader.addSplits(TestSupport.splits(2));

        assertTrue(beforeSplit.isDone(), "the pending future completes on the event");
        assertTrue(reader.isAvailable().isDone(), "a later call sees the data at once");

        CompletableFuture<Void> idle =
                new ManagedFakeReader(ctx, bounded(1, 1), clock, new Random()).isAvailable();
        assertFalse(idle.isDone());
    }

    @Test
    void wakeupCompletesThePendingAvailabilityFuture() {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeReader reader = reader(ctx, bounded(1, 1), new ManualClock());
        CompletableFuture<Void> pending = reader.isAvailable();
        assertFalse(pending.isDone());

        reader.wakeup();

        assertTrue(pending.isDone());
    }

    @Test
    void managedBoundedEndsWithEndOfInputOnlyAfterNoMoreSplits() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManualClock clock = new ManualClock();
        ManagedFakeReader reader = reader(ctx, bounded(5, 20), clock);
        reader.addSplits(TestSupport.splits(5));
        ListCollector out = new ListCollector();

        PollStatus last = null;
        for (int i = 0; i < 20 && out.rows.size() < 100; i++) {
            Budget b = new Budget(clock, 16, clock.getAsLong() + FAR);
            last = reader.pollNextManaged(b.counting(out), b);
        }
        assertEquals(100, out.rows.size());
        assertEquals(PollStatus.NOTHING_AVAILABLE, last, "no end before no-more-splits");
        assertFalse(reader.isAvailable().isDone());

        reader.handleNoMoreSplits();

        assertTrue(reader.isAvailable().isDone(), "end of input is worth a poll");
        Budget b = new Budget(clock, 16, clock.getAsLong() + FAR);
        assertEquals(PollStatus.END_OF_INPUT, reader.pollNextManaged(out, b));
        assertEquals(0, ctx.noMoreElementSignals.get(), "Lane A reports the end by status only");
        List<String> seen = out.payloads();
        Collections.sort(seen);
        assertEquals(TestSupport.expectedPayloads(5, 20), seen);
    }

    @Test
    void unboundedSplitsNeverFinish() throws Exception {
        FakeReaderContext ctx = new FakeReaderContext(0, Boundedness.UNBOUNDED);
        ManualClock clock = new ManualClock();
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(2).rowsPerSplit(3).bounded(false).build();
        ManagedFakeReader reader = reader(ctx, config, clock);
        reader.addSplits(TestSupport.splits(2));
        reader.handleNoMoreSplits();
        ListCollector out = new ListCollector();

        for (int i = 0; i < 10; i++) {
            Budget b = new Budget(clock, 50, clock.getAsLong() + FAR);
            assertEquals(PollStatus.MORE_AVAILABLE, reader.pollNextManaged(b.counting(out), b));
        }
        reader.pollNext(out);

        assertEquals(500 + ManagedFakeReader.CHUNK_ROWS, out.rows.size());
        assertEquals(0, ctx.noMoreElementSignals.get());
    }

    @Test
    void snapshotAndRestoreResumeExactlyOnBothLanes() throws Exception {
        ManualClock clock = new ManualClock();
        ManagedFakeConfig config = bounded(3, 50);
        FakeReaderContext ctx1 = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeReader first = reader(ctx1, config, clock);
        first.addSplits(TestSupport.splits(3));
        ListCollector beforeCut = new ListCollector();
        Budget b1 = new Budget(clock, 13, clock.getAsLong() + FAR);
        first.pollNextManaged(b1.counting(beforeCut), b1);
        first.pollNext(beforeCut);

        List<ManagedFakeSplit> snapshot = first.snapshotState(1L);

        // Rows after the cut are lost with the failed attempt and must be read again.
        first.pollNext(new ListCollector());
        assertEquals(3, snapshot.size());
        long offsets = 0;
        for (ManagedFakeSplit s : snapshot) {
            offsets += s.offset();
        }
        assertEquals(beforeCut.rows.size(), offsets, "offsets account for every emitted row");

        FakeReaderContext ctx2 = new FakeReaderContext(0, Boundedness.BOUNDED);
        ManagedFakeReader restored = reader(ctx2, config, clock);
        restored.addSplits(new ArrayList<>(snapshot));
        restored.handleNoMoreSplits();
        ListCollector afterCut = new ListCollector();
        PollStatus status = PollStatus.MORE_AVAILABLE;
        for (int i = 0; i < 100 && status != PollStatus.END_OF_INPUT; i++) {
            Budget b = new Budget(clock, 17, clock.getAsLong() + FAR);
            status = restored.pollNextManaged(b.counting(afterCut), b);
        }
        assertEquals(PollStatus.END_OF_INPUT, status);

        List<String> all = new ArrayList<>(beforeCut.payloads());
        all.addAll(afterCut.payloads());
        Collections.sort(all);
        assertEquals(TestSupport.expectedPayloads(3, 50), all, "every (split, seq) exactly once");
    }

    private static boolean ownsMonitor(Thread thread, Object monitor) {
        ThreadInfo[] infos =
                ManagementFactory.getThreadMXBean()
                        .getThreadInfo(new long[] {thread.getId()}, true, false);
        if (infos.length == 0 || infos[0] == null) {
            return false;
        }
        int id = System.identityHashCode(monitor);
        for (LockInfo lock : infos[0].getLockedMonitors()) {
            if (lock.getIdentityHashCode() == id
                    && lock.getClassName().equals(monitor.getClass().getName())) {
                return true;
            }
        }
        return false;
    }
}
