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
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.apache.seatunnel.engine.managed.source.zeta.transport.ManagedSourceRuntimeSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CommandSender} against a fake {@link FrameInvoker} that loops frames into an in-memory
 * {@link SourceCommandTransportAdapter}: retry, backoff, deadline, single flight and bounds,
 * without a cluster.
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
        return new CommandSender<>(
                invoker,
                SenderScheduler.of(scheduler),
                new RetryPolicy(
                        initial,
                        max,
                        ManagedSourceRuntimeSettings.defaults().retryPolicy().maxAttempts()),
                maxQueued,
                metrics,
                System::currentTimeMillis);
    }

    /** Delivers at once through the adapter, like a local member. */
    private FrameInvoker<Address> loopback() {
        return (target, frame, timeout) ->
                CompletableFuture.completedFuture(adapter.deliverFrame(frame, target));
    }

    private static long in(Duration d) {
        return System.currentTimeMillis() + d.toMillis();
    }

    private static AdmissionAck ackOf(CompletableFuture<AdmissionAck> f) throws Exception {
        return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void acceptedCompletesWithTheAck() throws Exception {
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 8, budget);
        targets.registerReader(fenced(mb, TARGET));
        SourceCommandEnvelope env = envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1);

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

        AdmissionAck stale =
                ackOf(
                        sender.send(
                                TARGET,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                in(BOUND)));

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
                (target, frame, timeout) -> {
                    AdmissionAck ack =
                            calls.incrementAndGet() <= 6
                                    ? AdmissionAck.retryLater(1, 5, ReasonCode.MAILBOX_COUNT_FULL)
                                    : AdmissionAck.accepted(1, 0);
                    return CompletableFuture.completedFuture(AdmissionAckCodec.encode(ack));
                };

        AdmissionAck ack =
                ackOf(
                        sender(invoker, 10, 40, 16)
                                .send(
                                        TARGET,
                                        envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                        in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(7, metrics.attempts());
        assertEquals(6, metrics.retries());
        // The first delay is the deadline timer; then the retry delays.
        List<Long> delays = scheduler.delays();
        assertEquals(List.of(10L, 20L, 40L, 40L, 40L, 40L), delays.subList(1, delays.size()));
    }

    @Test
    void withoutHintTheInitialBackoffIsUsed() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                (target, frame, timeout) -> {
                    if (calls.incrementAndGet() <= 2) {
                        CompletableFuture<byte[]> f = new CompletableFuture<>();
                        f.completeExceptionally(new IllegalStateException("member left"));
                        return f;
                    }
                    return CompletableFuture.completedFuture(
                            AdmissionAckCodec.encode(AdmissionAck.accepted(1, 0)));
                };

        AdmissionAck ack =
                ackOf(
                        sender(invoker, 3, 100, 16)
                                .send(
                                        TARGET,
                                        envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                        in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(2, metrics.transportFailures());
        List<Long> delays = scheduler.delays();
        assertEquals(List.of(3L, 6L), delays.subList(1, delays.size()));
    }

    @Test
    void atRetryMaxAttemptsTheSendEndsWithItsLastAnswerAndCountsExhaustion() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                (target, frame, timeout) -> {
                    calls.incrementAndGet();
                    return CompletableFuture.completedFuture(
                            AdmissionAckCodec.encode(
                                    AdmissionAck.retryLater(1, 1, ReasonCode.MAILBOX_COUNT_FULL)));
                };
        CommandSender<Address> sender =
                new CommandSender<>(
                        invoker,
                        SenderScheduler.of(scheduler),
                        new RetryPolicy(1, 4, 3),
                        ManagedSourceRuntimeSettings.defaults().maxQueuedPerTarget(),
                        metrics,
                        System::currentTimeMillis);

        AdmissionAck ack =
                ackOf(
                        sender.send(
                                TARGET,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                in(BOUND)));

        assertEquals(AdmissionStatus.RETRY_LATER, ack.status(), "the last answer");
        assertEquals(3, calls.get(), "retry.max-attempts attempts, the first included");
        assertEquals(2, metrics.retries());
        assertEquals(1, metrics.retriesExhausted());
        // The future completes before the send leaves its queue (on the sender's thread).
        await().atMost(BOUND).until(() -> sender.pendingCount() == 0);
    }

    @Test
    void aSingleAttemptSendHandsTheFirstOutcomeBackWithoutRetry() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                (target, frame, timeout) -> {
                    calls.incrementAndGet();
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    f.completeExceptionally(new IllegalStateException("member left"));
                    return f;
                };
        CompletableFuture<AdmissionAck> f =
                sender(invoker, 1, 10, 16)
                        .send(
                                TARGET,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                in(BOUND),
                                RetryPolicy.SINGLE_ATTEMPT);

        java.util.concurrent.ExecutionException e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        java.util.concurrent.ExecutionException.class,
                        () -> f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals("member left", e.getCause().getMessage());
        assertEquals(1, calls.get());
        assertEquals(0, metrics.retries());
        assertEquals(0, metrics.retriesExhausted(), "a single attempt is not a cut-off retry");
    }

    @Test
    void invokerThatThrowsIsRetriedLikeATransportFailure() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FrameInvoker<Address> invoker =
                (target, frame, timeout) -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("not connected");
                    }
                    return CompletableFuture.completedFuture(
                            AdmissionAckCodec.encode(AdmissionAck.accepted(1, 0)));
                };

        AdmissionAck ack =
                ackOf(
                        sender(invoker, 1, 10, 16)
                                .send(
                                        TARGET,
                                        envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                        in(BOUND)));

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
    void undecodableAckFailsTheSendWithoutRetry() {
        FrameInvoker<Address> invoker =
                (target, frame, timeout) -> CompletableFuture.completedFuture(new byte[] {1, 2});

        CompletableFuture<AdmissionAck> f =
                sender(invoker, 1, 10, 16)
                        .send(
                                TARGET,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1),
                                in(BOUND));

        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(1, metrics.ackDecodeFailures());
        assertEquals(1, metrics.attempts());
    }

    @Test
    void onePerTargetInFlightAndFifoBehindIt() throws Exception {
        // Holds every response until the test releases it, recording which frames were in flight.
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        List<CompletableFuture<AdmissionAck>> toTarget = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            toTarget.add(
                    sender.send(
                            TARGET,
                            envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, i),
                            in(BOUND)));
        }
        // Another subtask and another member are other lanes: they are not held back.
        CompletableFuture<AdmissionAck> otherSubtask =
                sender.send(
                        TARGET,
                        envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 1, 1, 99),
                        in(BOUND));
        CompletableFuture<AdmissionAck> otherMember =
                sender.send(
                        OTHER, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 98), in(BOUND));

        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 3);
        assertEquals(7, sender.pendingCount());
        List<Long> order = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            await().atMost(BOUND).until(() -> invoker.inFlightFor(TARGET, 0) != null);
            Call call = invoker.inFlightFor(TARGET, 0);
            assertEquals(1, invoker.countFor(TARGET, 0), "single flight per target");
            order.add(call.env.commandId());
            invoker.answer(call, AdmissionAck.accepted(1, i));
            assertEquals(AdmissionStatus.ACCEPTED, ackOf(toTarget.get(i)).status());
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), order);
        assertFalse(otherSubtask.isDone());
        invoker.answerAll(AdmissionAck.accepted(1, 0));
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(otherSubtask).status());
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(otherMember).status());
        await().atMost(BOUND).until(() -> sender.pendingCount() == 0);
    }

    @Test
    void fullLaneRejectsAtOnceAndCounts() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 2);
        List<CompletableFuture<AdmissionAck>> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sent.add(
                    sender.send(
                            TARGET,
                            envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, i),
                            in(BOUND)));
        }

        CompletableFuture<AdmissionAck> overflow =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 3), in(BOUND));

        assertTrue(overflow.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(overflow));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(1, metrics.queueFull());
        for (CompletableFuture<AdmissionAck> f : sent) {
            await().atMost(BOUND).until(() -> !invoker.inFlight.isEmpty());
            // One at a time: answering frees the lane, and the next envelope is invoked at once.
            invoker.answer(invoker.inFlight.peek(), AdmissionAck.accepted(1, 0));
            assertEquals(AdmissionStatus.ACCEPTED, ackOf(f).status());
        }
    }

    @Test
    void queuedEnvelopeWhoseDeadlinePassedTimesOutWithoutBeingSent() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        CompletableFuture<AdmissionAck> head =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1), in(BOUND));
        long shortDeadline = System.currentTimeMillis() + 50;
        CompletableFuture<AdmissionAck> shortLived =
                sender.send(
                        TARGET,
                        envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 2),
                        shortDeadline);
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 1);
        // The head stays unanswered past the queued envelope's deadline.
        await().atMost(BOUND).until(() -> System.currentTimeMillis() > shortDeadline);

        invoker.answerAll(AdmissionAck.accepted(1, 0));

        assertEquals(AdmissionStatus.ACCEPTED, ackOf(head).status());
        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(shortLived));
        CommandTimeoutException t = assertInstanceOf(CommandTimeoutException.class, e.getCause());
        assertEquals(0, t.attempts());
        assertEquals(1, invoker.calls.get());
    }

    @Test
    void closeFailsEverythingPendingAndRefusesNewSends() throws Exception {
        ManualInvoker invoker = new ManualInvoker();
        CommandSender<Address> sender = sender(invoker, 1, 10, 16);
        CompletableFuture<AdmissionAck> a =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1), in(BOUND));
        CompletableFuture<AdmissionAck> b =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 2), in(BOUND));
        await().atMost(BOUND).until(() -> invoker.inFlight.size() == 1);

        scheduler.shutdownNow();
        sender.close();

        for (CompletableFuture<AdmissionAck> f : List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
            assertInstanceOf(RejectedExecutionException.class, e.getCause());
        }
        CompletableFuture<AdmissionAck> late =
                sender.send(
                        TARGET, envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 3), in(BOUND));
        assertTrue(late.isCompletedExceptionally());
        assertEquals(0, sender.pendingCount());
    }

    @Test
    void unencodableEnvelopeFailsAtOnce() {
        SourceCommandEnvelope v2 =
                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1).toBuilder()
                        .protocolVersion(2, 0)
                        .build();

        CompletableFuture<AdmissionAck> f =
                sender(loopback(), 1, 10, 16).send(TARGET, v2, in(BOUND));

        assertTrue(f.isCompletedExceptionally());
    }

    /** One held invocation. */
    static final class Call {
        final Address target;
        final SourceCommandEnvelope env;
        final CompletableFuture<byte[]> response = new CompletableFuture<>();

        Call(Address target, SourceCommandEnvelope env) {
            this.target = target;
            this.env = env;
        }
    }

    /** Holds invocations until the test answers them. */
    static final class ManualInvoker implements FrameInvoker<Address> {
        final ConcurrentLinkedQueue<Call> inFlight = new ConcurrentLinkedQueue<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long timeout) {
            calls.incrementAndGet();
            Call c = new Call(target, SourceCommandCodec.decode(frame, 1 << 20).envelope());
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

        void answer(Call c, AdmissionAck ack) {
            inFlight.remove(c);
            c.response.complete(AdmissionAckCodec.encode(ack));
        }

        void answerAll(AdmissionAck ack) {
            for (Call c = inFlight.poll(); c != null; c = inFlight.poll()) {
                c.response.complete(AdmissionAckCodec.encode(ack));
            }
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
