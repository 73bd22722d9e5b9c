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

package org.apache.seatunnel.engine.managed.source.transport;

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.junit.jupiter.api.Test;

/**
 * {@link CheckpointReportLane} and its {@link ReportGrouping} stepped by hand: a manual clock and
 * sender thread (every task and timer runs only when the test says so) and a fake invoker that
 * holds each batch until the test answers it. No real time is involved, so every timing assertion
 * is on the injected clock.
 */
class CheckpointReportLaneTest {
    private static final long SOURCE = 9L;
    private static final Address COORDINATOR = address(5701);
    private static final Address OTHER_COORDINATOR = address(5702);
    private static final long WINDOW = 2;
    private static final long DEADLINE = 60_000;

    private final ManualTimers timers = new ManualTimers();
    private final HeldInvoker invoker = new HeldInvoker();
    private final TransportMetrics metrics = new TransportMetrics();
    private int localReaders = 16;

    private CheckpointReportLane<Address> batcher(long window, int maxReports) {
        return new CheckpointReportLane<>(
                invoker,
                timers,
                new RetryPolicy(10, 100, RetryPolicy.DEFAULT_MAX_ATTEMPTS),
                new ReportGrouping(
                        window, maxReports, source -> source == SOURCE ? localReaders : 1),
                4096,
                metrics,
                timers::now);
    }

    /**
     * At most {@code maxQueued} reports wait per group and in the inbox; every source has {@link
     * #localReaders}.
     */
    private CheckpointReportLane<Address> batcherQueueing(int maxQueued) {
        return new CheckpointReportLane<>(
                invoker,
                timers,
                new RetryPolicy(10, 100, RetryPolicy.DEFAULT_MAX_ATTEMPTS),
                new ReportGrouping(WINDOW, 64, source -> localReaders),
                maxQueued,
                metrics,
                timers::now);
    }

    private static SourceCommandEnvelope report(int subtask, long commandId) {
        return envelope(CommandKind.READER_CHECKPOINTED, SOURCE, subtask, 1, commandId);
    }

    private List<CompletableFuture<AdmissionAck>> submitAll(
            CheckpointReportLane<Address> b, int reports) {
        List<CompletableFuture<AdmissionAck>> out = new ArrayList<>();
        for (int i = 0; i < reports; i++) {
            out.add(b.submit(COORDINATOR, report(i, 100 + i), timers.now() + DEADLINE));
            timers.runReady();
        }
        return out;
    }

    /** Distinct per entry, so a future completed with another entry's ack is noticed. */
    private static AdmissionAck acceptedAs(int i) {
        return AdmissionAck.accepted(1, 1000 + i);
    }

    private static List<AdmissionAck> accepted(int n) {
        List<AdmissionAck> acks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            acks.add(acceptedAs(i));
        }
        return acks;
    }

    @Test
    void sixteenLocalReadersReportingMakeOneInvocationAnsweredPerReport() throws Exception {
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 15);
        assertEquals(0, invoker.calls.size(), "15 of 16 local readers reported: wait");

        futures.add(b.submit(COORDINATOR, report(15, 115), timers.now() + DEADLINE));
        timers.runReady();

        assertEquals(1, invoker.calls.size());
        Call call = invoker.calls.peek();
        assertSame(COORDINATOR, call.target);
        assertEquals(16, call.entries.size());
        for (int i = 0; i < 16; i++) {
            assertEquals(report(i, 100 + i), call.entries.get(i), "in submit order");
        }
        invoker.answer(accepted(16));
        timers.runReady();
        for (int i = 0; i < 16; i++) {
            assertEquals(acceptedAs(i), futures.get(i).get(0, TimeUnit.MILLISECONDS));
        }
        assertEquals(1, metrics.reportBatchesSent());
        assertEquals(16, metrics.reportsBatched());
        assertEquals(1, metrics.reportFlushAllReported());
        assertEquals(0, metrics.reportFlushWindow() + metrics.reportFlushCountBound());
        assertEquals(16, metrics.finalStatus(AdmissionStatus.ACCEPTED));
        assertEquals(0, metrics.reportsDropped());
        assertEquals(0, b.pendingCount());
        assertEquals(0, timers.pendingTimers(), "no window timer left behind");
    }

    @Test
    void reportsShortOfTheFlushCountWakeTheSenderThreadOnlyAtTheLastOne() {
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        submitAll(b, 15);
        assertEquals(0, timers.executes, "15 of 16 reports: the sender thread is not woken");
        assertEquals(1, timers.pendingTimers(), "one window timer for the inbox");

        b.submit(COORDINATOR, report(15, 115), timers.now() + DEADLINE);
        assertEquals(1, timers.executes, "the 16th report wakes it once");
        timers.runReady();
        assertEquals(1, invoker.calls.size());
        assertEquals(16, invoker.calls.peek().entries.size());
        assertEquals(0, timers.pendingTimers(), "the drain cancelled the inbox window timer");
    }

    @Test
    void anInboxTheSenderThreadDoesNotDrainRefusesReportsAtItsBound() {
        localReaders = 100;
        CheckpointReportLane<Address> b = batcherQueueing(2);
        // No runReady: the sender thread never gets to the inbox.
        CompletableFuture<AdmissionAck> first =
                b.submit(COORDINATOR, report(0, 100), timers.now() + DEADLINE);
        b.submit(COORDINATOR, report(1, 101), timers.now() + DEADLINE);
        CompletableFuture<AdmissionAck> third =
                b.submit(COORDINATOR, report(2, 102), timers.now() + DEADLINE);

        assertTrue(third.isCompletedExceptionally());
        ExecutionException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ExecutionException.class, () -> third.get(0, TimeUnit.MILLISECONDS));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(1, metrics.queueFull());
        assertEquals(1, metrics.reportsDropped());
        assertFalse(first.isDone());
        // The window drains the two it holds, in one batch.
        timers.advance(WINDOW);
        assertEquals(Arrays.asList(report(0, 100), report(1, 101)), invoker.calls.peek().entries);
    }

    @Test
    void aMissingReaderDelaysTheBatchExactlyUntilTheWindowOnTheInjectedClock() {
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        long start = timers.now();
        submitAll(b, 15);

        timers.advance(WINDOW - 1);
        assertEquals(0, invoker.calls.size(), "window not yet over");
        timers.advance(1);

        assertEquals(1, invoker.calls.size());
        assertEquals(start + WINDOW, invoker.calls.peek().sentAtMillis);
        assertEquals(15, invoker.calls.peek().entries.size());
        assertEquals(1, metrics.reportFlushWindow());
        assertEquals(0, metrics.reportFlushAllReported());
    }

    @Test
    void theCountBoundFlushesAtOnceAndKeepsOrderAcrossBatches() throws Exception {
        localReaders = 100;
        CheckpointReportLane<Address> b = batcher(WINDOW, 4);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 10);

        // One batch in flight per group: the next waits for its answer.
        assertEquals(1, invoker.calls.size());
        assertEquals(report(0, 100), invoker.calls.peek().entries.get(0));
        invoker.answer(accepted(4));
        timers.runReady();
        assertEquals(1, invoker.calls.size());
        assertEquals(report(4, 104), invoker.calls.peek().entries.get(0));
        invoker.answer(accepted(4));
        timers.runReady();
        // Two left, below the bound and with 98 readers missing: the window sends them.
        assertEquals(0, invoker.calls.size());
        timers.advance(WINDOW);
        assertEquals(Arrays.asList(report(8, 108), report(9, 109)), invoker.calls.peek().entries);
        invoker.answer(accepted(2));
        timers.runReady();

        assertEquals(2, metrics.reportFlushCountBound());
        assertEquals(1, metrics.reportFlushWindow());
        assertEquals(3, metrics.reportBatchesSent());
        assertEquals(10, metrics.reportsBatched());
        assertEquals(acceptedAs(1), futures.get(9).get(0, TimeUnit.MILLISECONDS));
    }

    @Test
    void retryLaterEntriesAreResentAloneInOrderAfterTheBackoff() throws Exception {
        localReaders = 4;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 4);
        AdmissionAck busy = AdmissionAck.retryLater(1, 30, ReasonCode.MAILBOX_COUNT_FULL);
        invoker.answer(Arrays.asList(acceptedAs(0), busy, acceptedAs(2), busy));
        timers.runReady();

        assertEquals(acceptedAs(0), futures.get(0).get(0, TimeUnit.MILLISECONDS));
        assertEquals(acceptedAs(2), futures.get(2).get(0, TimeUnit.MILLISECONDS));
        assertFalse(futures.get(1).isDone());
        assertFalse(futures.get(3).isDone());
        timers.advance(29);
        assertEquals(0, invoker.calls.size(), "the receiver's 30 ms hint is honoured");
        timers.advance(1);

        assertEquals(Arrays.asList(report(1, 101), report(3, 103)), invoker.calls.peek().entries);
        AdmissionAck dup = AdmissionAck.rejected(AdmissionStatus.DUPLICATE, 1, ReasonCode.NONE);
        invoker.answer(Arrays.asList(acceptedAs(1), dup));
        timers.runReady();
        assertEquals(acceptedAs(1), futures.get(1).get(0, TimeUnit.MILLISECONDS));
        assertEquals(dup, futures.get(3).get(0, TimeUnit.MILLISECONDS));
        assertEquals(1, metrics.reportBatchRetries());
        assertEquals(1, metrics.reportBatchesSent(), "a retry is not a new batch");
        assertEquals(0, metrics.reportsDropped());
    }

    @Test
    void aTransportFailureResendsTheWholeBatchInOrder() throws Exception {
        localReaders = 3;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 3);
        invoker.calls
                .poll()
                .response
                .completeExceptionally(new IllegalStateException("member left"));
        timers.runReady();
        assertEquals(1, metrics.transportFailures());

        timers.advance(10);
        assertEquals(
                Arrays.asList(report(0, 100), report(1, 101), report(2, 102)),
                invoker.calls.peek().entries);
        invoker.answer(accepted(3));
        timers.runReady();
        assertEquals(acceptedAs(2), futures.get(2).get(0, TimeUnit.MILLISECONDS));
    }

    @Test
    void aBatchRefusedAsAWholeAnswersEveryReportWithTheRefusal() throws Exception {
        localReaders = 2;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 2);
        invoker.calls
                .poll()
                .response
                .complete(
                        CommandBatchCodec.encodeRefusal(
                                AdmissionStatus.UNSUPPORTED_PROTOCOL,
                                ReasonCode.UNSUPPORTED_MAJOR_VERSION));
        timers.runReady();
        for (CompletableFuture<AdmissionAck> f : futures) {
            AdmissionAck ack = f.get(0, TimeUnit.MILLISECONDS);
            assertEquals(AdmissionStatus.UNSUPPORTED_PROTOCOL, ack.status());
            assertEquals(ReasonCode.UNSUPPORTED_MAJOR_VERSION, ack.reasonCode());
        }
        assertEquals(2, metrics.finalStatus(AdmissionStatus.UNSUPPORTED_PROTOCOL));
    }

    @Test
    void anAnswerWithTheWrongNumberOfAcksFailsTheReportsAndCountsThem() {
        localReaders = 2;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 2);
        invoker.answer(accepted(1));
        timers.runReady();
        for (CompletableFuture<AdmissionAck> f : futures) {
            ExecutionException e =
                    org.junit.jupiter.api.Assertions.assertThrows(
                            ExecutionException.class, () -> f.get(0, TimeUnit.MILLISECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
        }
        assertEquals(1, metrics.ackDecodeFailures());
        assertEquals(2, metrics.reportsDropped());
    }

    @Test
    void aReportPastItsDeadlineIsDroppedAndCounted() {
        localReaders = 2;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        CompletableFuture<AdmissionAck> shortLived =
                b.submit(COORDINATOR, report(0, 100), timers.now() + 5);
        timers.runReady();
        CompletableFuture<AdmissionAck> longLived =
                b.submit(COORDINATOR, report(1, 101), timers.now() + DEADLINE);
        timers.runReady();
        invoker.answer(
                Arrays.asList(
                        AdmissionAck.retryLater(1, 50, ReasonCode.MAILBOX_COUNT_FULL),
                        AdmissionAck.retryLater(1, 50, ReasonCode.MAILBOX_COUNT_FULL)));
        timers.runReady();
        timers.advance(50);

        assertTrue(shortLived.isCompletedExceptionally());
        ExecutionException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ExecutionException.class, () -> shortLived.get(0, TimeUnit.MILLISECONDS));
        assertInstanceOf(CommandTimeoutException.class, e.getCause());
        assertEquals(Arrays.asList(report(1, 101)), invoker.calls.peek().entries);
        assertEquals(1, metrics.reportsDropped());
        assertEquals(1, metrics.timeouts());
        assertFalse(longLived.isDone());
    }

    @Test
    void groupsAreKeptApartByCoordinatorAndSource() {
        localReaders = 2;
        CheckpointReportLane<Address> b = batcher(WINDOW, 64);
        b.submit(COORDINATOR, report(0, 100), timers.now() + DEADLINE);
        b.submit(OTHER_COORDINATOR, report(1, 101), timers.now() + DEADLINE);
        // Another source with one local reader: complete on its own.
        b.submit(
                COORDINATOR,
                envelope(CommandKind.READER_CHECKPOINTED, SOURCE + 1, 0, 1, 7),
                timers.now() + DEADLINE);
        timers.runReady();
        assertEquals(1, invoker.calls.size());
        assertEquals(SOURCE + 1, invoker.calls.peek().entries.get(0).sourceRuntimeId());
        timers.advance(WINDOW);
        assertEquals(3, invoker.calls.size());
    }

    @Test
    void closeFailsEveryPendingReportAndRefusesNewOnes() {
        CheckpointReportLane<Address> b = batcher(WINDOW, 4);
        localReaders = 100;
        // Four in flight, one waiting for the window.
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 5);
        assertEquals(1, invoker.calls.size());

        b.close();
        CompletableFuture<AdmissionAck> late =
                b.submit(COORDINATOR, report(9, 200), timers.now() + DEADLINE);

        for (CompletableFuture<AdmissionAck> f : futures) {
            assertTrue(f.isCompletedExceptionally());
        }
        assertTrue(late.isCompletedExceptionally());
        ExecutionException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ExecutionException.class, () -> late.get(0, TimeUnit.MILLISECONDS));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(6, metrics.reportsDropped());
        assertEquals(0, b.pendingCount());
        // A late answer to the batch in flight changes nothing.
        invoker.answer(accepted(4));
        timers.runReady();
        assertEquals(6, metrics.reportsDropped());
    }

    @Test
    void reportsBeyondTheQueueBoundBehindABatchInFlightAreRefusedAndCounted() {
        localReaders = 1;
        CheckpointReportLane<Address> b = batcherQueueing(2);
        // The first is in flight; two may wait behind it; the fourth is refused.
        List<CompletableFuture<AdmissionAck>> futures = submitAll(b, 4);
        assertEquals(1, invoker.calls.size());
        assertTrue(futures.get(3).isCompletedExceptionally());
        ExecutionException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        ExecutionException.class,
                        () -> futures.get(3).get(0, TimeUnit.MILLISECONDS));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(1, metrics.queueFull());
        assertEquals(1, metrics.reportsDropped());
        // The two waiting ones leave together once the first is answered.
        invoker.answer(accepted(1));
        timers.runReady();
        assertEquals(Arrays.asList(report(1, 101), report(2, 102)), invoker.calls.peek().entries);
    }

    @Test
    void aZeroWindowSendsEachReportAtOnce() {
        CheckpointReportLane<Address> b = batcher(0, 64);
        submitAll(b, 1);
        assertEquals(1, invoker.calls.size());
        assertEquals(1, metrics.reportFlushWindow());
    }

    @Test
    void theLaneIsOpenedOnTheSenderAndClosedWithIt() {
        localReaders = 2;
        CommandSender<Address> sender =
                new CommandSender<>(
                        invoker,
                        timers,
                        new RetryPolicy(10, 100, RetryPolicy.DEFAULT_MAX_ATTEMPTS),
                        4096,
                        8,
                        metrics,
                        timers::now);
        CheckpointReportLane<Address> lane =
                sender.openReportLane(new ReportGrouping(WINDOW, 64, source -> localReaders));
        List<CompletableFuture<AdmissionAck>> futures = submitAll(lane, 2);
        assertEquals(1, invoker.calls.size(), "the sender's invoker carries the lane's batch");
        assertEquals(2, lane.pendingCount());

        sender.close();

        for (CompletableFuture<AdmissionAck> f : futures) {
            assertTrue(f.isCompletedExceptionally(), "closing the sender closes its lane");
        }
        assertEquals(0, lane.pendingCount());
        assertTrue(
                sender.openReportLane(new ReportGrouping(WINDOW, 64, source -> 1))
                        .submit(COORDINATOR, report(0, 300), timers.now() + DEADLINE)
                        .isCompletedExceptionally(),
                "a lane opened on a closed sender refuses reports");
    }

    // ------------------------------------------------------------------ fixtures

    /** One held batch invocation. */
    static final class Call {
        final Address target;
        final List<SourceCommandEnvelope> entries;
        final long sentAtMillis;
        final CompletableFuture<byte[]> response = new CompletableFuture<>();

        Call(Address target, List<SourceCommandEnvelope> entries, long sentAtMillis) {
            this.target = target;
            this.entries = entries;
            this.sentAtMillis = sentAtMillis;
        }
    }

    /** Decodes each batch and holds it until the test answers. */
    final class HeldInvoker implements FrameInvoker<Address> {
        final ArrayDeque<Call> calls = new ArrayDeque<>();

        @Override
        public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long timeout) {
            throw new AssertionError("reports travel in batches");
        }

        @Override
        public CompletableFuture<byte[]> invokeBatch(Address target, byte[] batch, long timeout) {
            CommandBatchCodec.BatchResult r =
                    CommandBatchCodec.decode(batch, CommandBatchCodec.MAX_ENTRIES, Long.MAX_VALUE);
            assertTrue(r.isSuccess(), r::toString);
            List<SourceCommandEnvelope> entries = new ArrayList<>();
            for (int i = 0; i < r.count(); i++) {
                entries.add(
                        SourceCommandCodec.decode(r.batch(), r.offset(i), r.length(i), 1 << 10)
                                .envelope());
            }
            Call c = new Call(target, entries, timers.now());
            calls.add(c);
            return c.response;
        }

        /** Answers the oldest held batch. */
        void answer(List<AdmissionAck> acks) {
            calls.poll().response.complete(CommandBatchCodec.encodeAcks(acks));
        }
    }

    /**
     * The sender thread by hand: {@link #runReady} runs queued tasks and due timers; {@link
     * #advance} moves the clock, running timers in due order.
     */
    static final class ManualTimers implements SenderScheduler {
        private long now = 1_000;
        private long seq;
        private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
        private final PriorityQueue<Timer> timers =
                new PriorityQueue<>(
                        Comparator.comparingLong((Timer t) -> t.due).thenComparingLong(t -> t.seq));

        long now() {
            return now;
        }

        /** Tasks handed to the sender thread: each a wake-up of a real one. */
        int executes;

        @Override
        public void execute(Runnable task) {
            executes++;
            ready.add(task);
        }

        @Override
        public Cancellable schedule(Runnable task, long delayMillis) {
            Timer t = new Timer(task, now + delayMillis, seq++);
            timers.add(t);
            return new Cancellable() {
                @Override
                public boolean cancel() {
                    return t.handle.cancel(false);
                }

                @Override
                public boolean isCancelled() {
                    return t.handle.isCancelled();
                }
            };
        }

        void runReady() {
            while (true) {
                Runnable r = ready.poll();
                if (r != null) {
                    r.run();
                    continue;
                }
                Timer t = timers.peek();
                if (t != null && t.due <= now) {
                    timers.poll();
                    if (!t.handle.isCancelled()) {
                        t.task.run();
                    }
                    continue;
                }
                return;
            }
        }

        void advance(long millis) {
            long target = now + millis;
            runReady();
            while (true) {
                Timer t = timers.peek();
                if (t == null || t.due > target) {
                    break;
                }
                now = Math.max(now, t.due);
                runReady();
            }
            now = target;
            runReady();
        }

        int pendingTimers() {
            int n = 0;
            for (Timer t : timers) {
                if (!t.handle.isCancelled()) {
                    n++;
                }
            }
            return n;
        }

        private static final class Timer {
            final Runnable task;
            final long due;
            final long seq;
            final CompletableFuture<Void> handle = new CompletableFuture<>();

            Timer(Runnable task, long due, long seq) {
                this.task = task;
                this.due = due;
                this.seq = seq;
            }
        }
    }
}
