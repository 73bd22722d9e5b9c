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
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.fenced;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.mailbox;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.perFrame;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.take;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CommandSender} against fake {@link FrameInvoker}s and an in-memory {@link
 * SourceCommandTransportAdapter} with real mailboxes: ordered streams across retries, batching,
 * backoff, deadlines, broken streams, lanes and bounds, without a cluster.
 */
class TransportCommandSenderTest {
    private static final long SOURCE = 9L;
    private static final Address TARGET = address(5701);
    private static final Address OTHER = address(5702);
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final TransportTargets<Address> targets = new TransportTargets<>();
    private final TransportMetrics receiverMetrics = new TransportMetrics();
    private final SourceCommandTransportAdapter<Address> adapter =
            new SourceCommandTransportAdapter<>(targets, 1 << 10, 5, receiverMetrics);
    private final WorkerMailboxBudget budget = new WorkerMailboxBudget(1 << 20);
    private final RecordingScheduler scheduler = new RecordingScheduler();
    private final TransportMetrics metrics = new TransportMetrics();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private CommandSender<Address> sender(
            FrameInvoker<Address> invoker, long initial, long max, int maxQueued) {
        return sender(invoker, new RetryPolicy(initial, max, 120), maxQueued, 64);
    }

    private CommandSender<Address> sender(
            FrameInvoker<Address> invoker, RetryPolicy retry, int maxQueued, int maxBatch) {
        return new CommandSender<>(
                invoker,
                SenderScheduler.of(scheduler),
                retry,
                maxQueued,
                maxBatch,
                metrics,
                System::currentTimeMillis);
    }

    /** Delivers at once through the adapter, like a local member. */
    private FrameInvoker<Address> loopback() {
        return new FrameInvoker<Address>() {
            @Override
            public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long t) {
                return CompletableFuture.completedFuture(adapter.deliverFrame(frame, target));
            }

            @Override
            public CompletableFuture<byte[]> invokeBatch(Address target, byte[] batch, long t) {
                return CompletableFuture.completedFuture(adapter.deliverBatchFrame(batch, target));
            }
        };
    }

    private static long in(Duration d) {
        return System.currentTimeMillis() + d.toMillis();
    }

    private static AdmissionAck ackOf(CompletableFuture<AdmissionAck> f) throws Exception {
        return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static SourceCommandEnvelope assignment(int subtask, long seq) {
        return envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, subtask, 1, seq);
    }

    @Test
    void acceptedCompletesWithTheAck() throws Exception {
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 8, budget);
        targets.registerReader(fenced(mb, TARGET));
        SourceCommandEnvelope env = assignment(0, 1);

        AdmissionAck ack = ackOf(sender(loopback(), 10, 100, 16).send(TARGET, env, in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(env, take(mb));
        assertEquals(1, metrics.finalStatus(AdmissionStatus.ACCEPTED));
        assertEquals(1, metrics.attempts());
    }

    @Test
    void everyNonRetryStatusIsFinal() throws Exception {
        targets.registerReader(fenced(mailbox(SOURCE, 0, 2, 8, budget), TARGET));
        CommandSender<Address> sender = sender(loopback(), 10, 100, 16);

        AdmissionAck stale = ackOf(sender.send(TARGET, assignment(0, 1), in(BOUND)));

        assertEquals(AdmissionStatus.STALE_TARGET, stale.status());
        assertEquals(1, metrics.attempts());
        assertEquals(0, metrics.retries());
        assertEquals(1, metrics.finalStatus(AdmissionStatus.STALE_TARGET));
    }

    @Test
    void retryLaterBacksOffDoublingUpToTheMaximumAndASmallerHintNeverShortensIt() throws Exception {
        // Answers RETRY_LATER (hint 5 ms, below the 10 ms initial backoff) six times, then
        // ACCEPTED.
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                perFrame(
                        (target, frame, timeout) -> {
                            AdmissionAck ack =
                                    calls.incrementAndGet() <= 6
                                            ? AdmissionAck.retryLater(
                                                    1, 5, ReasonCode.MAILBOX_COUNT_FULL)
                                            : AdmissionAck.accepted(1, 0);
                            return CompletableFuture.completedFuture(AdmissionAckCodec.encode(ack));
                        });

        AdmissionAck ack =
                ackOf(sender(invoker, 10, 40, 16).send(TARGET, assignment(0, 1), in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(7, metrics.attempts());
        assertEquals(6, metrics.retries());
        assertEquals(List.of(10L, 20L, 40L, 40L, 40L, 40L), scheduler.delays());
    }

    @Test
    void withoutHintTheInitialBackoffIsUsed() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                perFrame(
                        (target, frame, timeout) -> {
                            if (calls.incrementAndGet() <= 2) {
                                CompletableFuture<byte[]> f = new CompletableFuture<>();
                                f.completeExceptionally(new IllegalStateException("member left"));
                                return f;
                            }
                            return CompletableFuture.completedFuture(
                                    AdmissionAckCodec.encode(AdmissionAck.accepted(1, 0)));
                        });

        AdmissionAck ack =
                ackOf(sender(invoker, 3, 100, 16).send(TARGET, assignment(0, 1), in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(2, metrics.transportFailures());
        assertEquals(List.of(3L, 6L), scheduler.delays());
    }

    @Test
    void atRetryMaxAttemptsTheHeadEndsWithItsLastAnswerAndWhatWaitsBehindItFailsUnsent()
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<Long> invoked = new CopyOnWriteArrayList<>();
        FrameInvoker<Address> invoker =
                perFrame(
                        (target, frame, timeout) -> {
                            calls.incrementAndGet();
                            invoked.add(
                                    SourceCommandCodec.decode(frame, 1 << 20)
                                            .envelope()
                                            .commandId());
                            return CompletableFuture.completedFuture(
                                    AdmissionAckCodec.encode(
                                            AdmissionAck.retryLater(
                                                    1, 1, ReasonCode.MAILBOX_COUNT_FULL)));
                        });
        CommandSender<Address> sender = sender(invoker, new RetryPolicy(1, 4, 3), 16, 1);

        CompletableFuture<AdmissionAck> head = sender.send(TARGET, assignment(0, 1), in(BOUND));
        CompletableFuture<AdmissionAck> behind = sender.send(TARGET, assignment(0, 2), in(BOUND));

        assertEquals(AdmissionStatus.RETRY_LATER, ackOf(head).status(), "the last answer");
        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(behind));
        assertInstanceOf(CommandStreamBrokenException.class, e.getCause());
        assertEquals(3, calls.get(), "retry.max-attempts attempts, the first included");
        assertEquals(List.of(1L, 1L, 1L), invoked, "the command behind was never sent");
        assertEquals(2, metrics.retries());
        assertEquals(1, metrics.retriesExhausted());
        assertEquals(1, metrics.streamsBroken());
        await().atMost(BOUND).until(() -> sender.pendingCount() == 0 && sender.streamCount() == 0);
    }

    @Test
    void aRefusedCommandIsNeverOvertakenWhileTheReaderFreesRoomConcurrently() throws Exception {
        // A mailbox of 2 commands, 200 commands of one stream in batches of 8, and a consumer that
        // frees room one command at a time while the sender works: the mailbox refuses most
        // batches part-way, and must still see the commands in exactly the order they were sent.
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 2, budget);
        targets.registerReader(fenced(mb, TARGET));
        CommandSender<Address> sender = sender(loopback(), new RetryPolicy(1, 2, 100_000), 512, 8);
        List<CompletableFuture<AdmissionAck>> sent = new ArrayList<>();
        for (long seq = 1; seq <= 200; seq++) {
            sent.add(sender.send(TARGET, assignment(0, seq), in(BOUND)));
        }
        List<Long> admittedOrder = new ArrayList<>();
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (admittedOrder.size() < 200 && System.nanoTime() < deadline) {
            SourceCommandEnvelope env = take(mb);
            if (env != null) {
                admittedOrder.add(env.senderSequence());
            } else {
                Thread.yield();
            }
        }
        List<Long> expected = new ArrayList<>();
        for (long seq = 1; seq <= 200; seq++) {
            expected.add(seq);
        }
        assertEquals(expected, admittedOrder, "mailbox order is send order, with no gap");
        for (CompletableFuture<AdmissionAck> f : sent) {
            assertEquals(AdmissionStatus.ACCEPTED, ackOf(f).status());
        }
        assertTrue(
                receiverMetrics.answered(AdmissionStatus.RETRY_LATER) > 0,
                "the mailbox was full at times");
        assertTrue(metrics.batchesSent() > 0, "commands left in batches");
        assertEquals(0, metrics.streamsBroken());
    }

    @Test
    void lanesAndStreamsAreIndependent() throws Exception {
        // The assignment stream to subtask 0 is stuck on a full mailbox; a cut release to the
        // same reader, the reader's own command to its coordinator and another subtask's stream
        // are not held behind it.
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        CompletableFuture<AdmissionAck> stuck = sender.send(TARGET, assignment(0, 1), in(BOUND));
        CompletableFuture<AdmissionAck> release =
                sender.send(
                        TARGET,
                        envelope(CommandKind.CHECKPOINT_ABORTED, SOURCE, 0, 1, 7),
                        in(BOUND));
        CompletableFuture<AdmissionAck> uplink =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_REQUEST, SOURCE, 0, 1, 8), in(BOUND));
        CompletableFuture<AdmissionAck> otherSubtask =
                sender.send(TARGET, assignment(1, 9), in(BOUND));
        CompletableFuture<AdmissionAck> otherMember =
                sender.send(OTHER, assignment(0, 10), in(BOUND));
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 5);
        for (Call c : new ArrayList<>(invoker.inFlight)) {
            if (c.env.commandId() != 1) {
                invoker.answer(c, AdmissionAck.accepted(1, 0));
            }
        }
        for (CompletableFuture<AdmissionAck> f :
                List.of(release, uplink, otherSubtask, otherMember)) {
            assertEquals(AdmissionStatus.ACCEPTED, ackOf(f).status());
        }
        assertFalse(stuck.isDone());
        invoker.answerAll(AdmissionAck.accepted(1, 0));
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(stuck).status());
    }

    @Test
    void invokerThatThrowsIsRetriedLikeATransportFailure() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                perFrame(
                        (target, frame, timeout) -> {
                            if (calls.incrementAndGet() == 1) {
                                throw new IllegalStateException("not connected");
                            }
                            return CompletableFuture.completedFuture(
                                    AdmissionAckCodec.encode(AdmissionAck.accepted(1, 0)));
                        });

        AdmissionAck ack =
                ackOf(sender(invoker, 1, 10, 16).send(TARGET, assignment(0, 1), in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(1, metrics.transportFailures());
    }

    @Test
    void unknownTargetRetriesUntilTheDeadlineThenTimesOut() {
        CompletableFuture<AdmissionAck> f =
                sender(loopback(), 5, 20, 16)
                        .send(
                                TARGET,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 3, 1, 1),
                                in(Duration.ofMillis(300)));

        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
        CommandTimeoutException timeout =
                assertInstanceOf(CommandTimeoutException.class, e.getCause());
        assertEquals(ReasonCode.NO_SUCH_TARGET, timeout.lastAck().reasonCode());
        assertTrue(timeout.attempts() > 1, "attempts: " + timeout.attempts());
        assertEquals(1, metrics.timeouts());
    }

    @Test
    void undecodableAckEndsTheSendWithoutRetryAndBreaksTheStream() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        CompletableFuture<AdmissionAck> head = sender.send(TARGET, assignment(0, 1), in(BOUND));
        CompletableFuture<AdmissionAck> behind = sender.send(TARGET, assignment(0, 2), in(BOUND));
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 1);

        invoker.inFlight.poll().response.complete(new byte[] {1, 2});

        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(head));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        ExecutionException b = assertThrows(ExecutionException.class, () -> ackOf(behind));
        assertInstanceOf(CommandStreamBrokenException.class, b.getCause());
        assertEquals(1, metrics.ackDecodeFailures());
        assertEquals(1, invoker.calls.get());
    }

    @Test
    void whatQueuedBehindAnInvocationLeavesInOneBatchInOrder() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, new RetryPolicy(1, 10, 120), 16, 3);
        List<CompletableFuture<AdmissionAck>> sent = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            sent.add(sender.send(TARGET, assignment(0, i), in(BOUND)));
        }
        await().atMost(BOUND).until(() -> invoker.inFlight.size() >= 1);
        List<Long> order = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        while (order.size() < 5) {
            await().atMost(BOUND).until(() -> !invoker.inFlight.isEmpty());
            assertEquals(1, invoker.inFlight.size(), "one invocation of the stream in flight");
            Call c = invoker.inFlight.peek();
            sizes.add(c.batch.size());
            for (SourceCommandEnvelope env : c.batch) {
                order.add(env.commandId());
            }
            invoker.answer(c, AdmissionAck.accepted(1, 0));
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), order);
        assertTrue(sizes.stream().allMatch(n -> n <= 3), "batches of at most 3: " + sizes);
        assertTrue(sizes.size() < 5, "batched: " + sizes);
        for (CompletableFuture<AdmissionAck> f : sent) {
            assertEquals(AdmissionStatus.ACCEPTED, ackOf(f).status());
        }
    }

    @Test
    void fullStreamRejectsAtOnceAndCounts() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 2);
        CompletableFuture<AdmissionAck> a = sender.send(TARGET, assignment(0, 1), in(BOUND));
        CompletableFuture<AdmissionAck> b = sender.send(TARGET, assignment(0, 2), in(BOUND));

        CompletableFuture<AdmissionAck> overflow = sender.send(TARGET, assignment(0, 3), in(BOUND));

        assertTrue(overflow.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(overflow));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(1, metrics.queueFull());
        // Answer whatever is in flight until both are answered (they may travel together).
        await().atMost(BOUND)
                .until(
                        () -> {
                            Call c = invoker.inFlight.peek();
                            if (c != null) {
                                invoker.answer(c, AdmissionAck.accepted(1, 0));
                            }
                            return a.isDone() && b.isDone();
                        });
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(a).status());
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(b).status());
    }

    @Test
    void aHeadWhoseDeadlinePassedTimesOutUnsentAndBreaksTheStream() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, new RetryPolicy(1, 10, 120), 16, 1);
        CompletableFuture<AdmissionAck> first = sender.send(TARGET, assignment(0, 1), in(BOUND));
        long shortDeadline = System.currentTimeMillis() + 50;
        CompletableFuture<AdmissionAck> shortLived =
                sender.send(TARGET, assignment(0, 2), shortDeadline);
        CompletableFuture<AdmissionAck> behind = sender.send(TARGET, assignment(0, 3), in(BOUND));
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 1);
        // The first stays unanswered past the second one's deadline.
        await().atMost(BOUND).until(() -> System.currentTimeMillis() > shortDeadline);

        invoker.answerAll(AdmissionAck.accepted(1, 0));

        assertEquals(AdmissionStatus.ACCEPTED, ackOf(first).status());
        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(shortLived));
        assertInstanceOf(CommandTimeoutException.class, e.getCause());
        ExecutionException b = assertThrows(ExecutionException.class, () -> ackOf(behind));
        assertInstanceOf(CommandStreamBrokenException.class, b.getCause());
        assertEquals(1, invoker.calls.get());
    }

    @Test
    void closeFailsEverythingPendingAndRefusesNewSends() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        CompletableFuture<AdmissionAck> a = sender.send(TARGET, assignment(0, 1), in(BOUND));
        CompletableFuture<AdmissionAck> b = sender.send(TARGET, assignment(0, 2), in(BOUND));
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 1);

        scheduler.shutdownNow();
        sender.close();

        for (CompletableFuture<AdmissionAck> f : List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
            assertInstanceOf(RejectedExecutionException.class, e.getCause());
        }
        CompletableFuture<AdmissionAck> late = sender.send(TARGET, assignment(0, 3), in(BOUND));
        assertTrue(late.isCompletedExceptionally());
        assertEquals(0, sender.pendingCount());
    }

    @Test
    void unencodableEnvelopeFailsAtOnce() {
        SourceCommandEnvelope v2 = assignment(0, 1).toBuilder().protocolVersion(2, 0).build();

        CompletableFuture<AdmissionAck> f =
                sender(loopback(), 1, 10, 16).send(TARGET, v2, in(BOUND));

        assertTrue(f.isCompletedExceptionally());
    }

    /** One held invocation: a frame or a batch. */
    static final class Call {
        final Address target;
        final SourceCommandEnvelope env;
        final List<SourceCommandEnvelope> batch;
        final CompletableFuture<byte[]> response = new CompletableFuture<>();

        Call(Address target, List<SourceCommandEnvelope> batch) {
            this.target = target;
            this.env = batch.get(0);
            this.batch = batch;
        }
    }

    /** Holds invocations until the test answers them. */
    static final class ManualInvoker implements FrameInvoker<Address> {
        final ConcurrentLinkedQueue<Call> inFlight = new ConcurrentLinkedQueue<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long timeout) {
            calls.incrementAndGet();
            Call c =
                    new Call(
                            target,
                            Collections.singletonList(
                                    SourceCommandCodec.decode(frame, 1 << 20).envelope()));
            inFlight.add(c);
            return c.response;
        }

        @Override
        public CompletableFuture<byte[]> invokeBatch(Address target, byte[] batch, long timeout) {
            calls.incrementAndGet();
            CommandBatchCodec.BatchResult b =
                    CommandBatchCodec.decode(batch, CommandBatchCodec.MAX_ENTRIES, Long.MAX_VALUE);
            List<SourceCommandEnvelope> envs = new ArrayList<>();
            for (int i = 0; i < b.count(); i++) {
                envs.add(
                        SourceCommandCodec.decode(b.batch(), b.offset(i), b.length(i), 1 << 20)
                                .envelope());
            }
            Call c = new Call(target, envs);
            inFlight.add(c);
            return c.response;
        }

        Call inFlightFor(Address target, int subtask) {
            for (Call c : inFlight) {
                if (c.target.equals(target) && c.env.targetSubtask() == subtask) {
                    return c;
                }
            }
            return null;
        }

        int countFor(Address target, int subtask) {
            int n = 0;
            for (Call c : inFlight) {
                if (c.target.equals(target) && c.env.targetSubtask() == subtask) {
                    n++;
                }
            }
            return n;
        }

        /** Answers every command of the held invocation with {@code ack}. */
        void answer(Call c, AdmissionAck ack) {
            inFlight.remove(c);
            c.response.complete(encode(c, ack));
        }

        void answerAll(AdmissionAck ack) {
            for (Call c = inFlight.poll(); c != null; c = inFlight.poll()) {
                c.response.complete(encode(c, ack));
            }
        }

        private static byte[] encode(Call c, AdmissionAck ack) {
            if (c.batch.size() == 1) {
                return AdmissionAckCodec.encode(ack);
            }
            return CommandBatchCodec.encodeAcks(Collections.nCopies(c.batch.size(), ack));
        }
    }

    /** A real single-thread scheduler that records the delays it was asked for. */
    static final class RecordingScheduler extends ScheduledThreadPoolExecutor {
        private final List<Long> delays = new CopyOnWriteArrayList<>();

        RecordingScheduler() {
            super(1);
            setRemoveOnCancelPolicy(true);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            // execute() schedules with delay 0: only timers are of interest.
            if (unit.toMillis(delay) > 0) {
                delays.add(unit.toMillis(delay));
            }
            return super.schedule(command, delay, unit);
        }

        List<Long> delays() {
            return Collections.unmodifiableList(new ArrayList<>(delays));
        }
    }
}
