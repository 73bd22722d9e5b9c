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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of the command transport: delivers envelopes to a member's {@link
 * SourceCommandTransportAdapter} in ordered streams and resolves each send with the target's final
 * {@link AdmissionAck}.
 *
 * <p>Threading: {@link #send} may be called from any thread and never blocks: it encodes the frame,
 * queues it and returns. Everything after that — invocations, answers, retry timers — runs on the
 * single thread of the {@link SenderScheduler}, the only thread that touches a stream's progress; a
 * stream's queue of new sends is shared with callers through {@link ConcurrentHashMap#compute}
 * only. Returned futures complete on the sender thread: dependants must not block there. Life
 * cycle: created by the engine binding's member runtime; {@link #close()} fails everything still
 * pending.
 *
 * <p><b>Streams.</b> Sends are grouped by {@code (member, sourceRuntimeId, subtask, lane)}: the
 * commands a coordinator sends to one reader (lane {@code TO_READER}), the cut releases it sends to
 * that reader ({@code TO_READER_CONTROL}, a watermark that needs no order with the rest), and what
 * one reader sends to its coordinator ({@code TO_COORDINATOR}). Within a stream delivery is in send
 * order, and at most one invocation is in flight: a batch of the first {@code
 * transport.command-batch-max-commands} queued commands (at most {@value #MAX_BATCH_BYTES} bytes of
 * frames, at least one command), one {@code CommandBatchCodec} batch when it holds more than one.
 * Sends that arrive meanwhile wait behind it (at most {@code maxQueuedPerStream} per stream; beyond
 * that a send fails at once with {@link RejectedExecutionException}).
 *
 * <p><b>A refused command is never overtaken.</b> The receiving adapter does not offer the commands
 * of a batch behind one it answered {@code RETRY_LATER} (they get {@code BEHIND_REFUSED}), and this
 * sender keeps the refused command and everything behind it at the head of the stream and sends
 * them again, in order, after the backoff: so the order in which a reader's mailbox admits a
 * stream's commands is the order they were sent, across any number of retries — which is what the
 * reader's applied-command ledger and ordered controls rely on. A transport failure (member gone,
 * call timeout, connection loss) resends the whole batch; the target deduplicates what it already
 * admitted.
 *
 * <p><b>Outcomes of one send.</b>
 *
 * <ul>
 *   <li>a final status ({@code ACCEPTED}, {@code DUPLICATE}, {@code STALE_TARGET}, {@code
 *       TERMINAL_REJECTED}, {@code UNSUPPORTED_PROTOCOL}, {@code INVALID_PAYLOAD}) completes its
 *       future normally with that ack;
 *   <li>{@code RETRY_LATER} and transport failures are retried by the {@link RetryPolicy} ({@code
 *       retry.*}): first the ack's {@code retryAfterMillis} (or {@code retry.initial-backoff}),
 *       doubling up to {@code retry.max-backoff}; timers, never a sleeping thread. The backoff
 *       restarts whenever the stream makes progress;
 *   <li>when the head of a stream runs out of attempts ({@code retry.max-attempts} without
 *       progress), passes its deadline, or gets an answer that does not decode, it ends: with its
 *       last {@code RETRY_LATER} ack (completed normally), a {@link CommandTimeoutException}, its
 *       last transport failure or an {@link IllegalStateException}; and the stream is broken: every
 *       send queued behind it fails with {@link CommandStreamBrokenException}, since delivering
 *       them would overtake it. A later send opens a new stream.
 * </ul>
 *
 * @param <M> the engine's member address
 */
public final class CommandSender<M> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandSender.class);

    /** Floor of Hazelcast's call timeout: below it Hazelcast's own detection is not precise. */
    private static final long MIN_CALL_TIMEOUT_MILLIS = 1000;

    /** Frame bytes one batch invocation carries at most (a batch always holds one command). */
    public static final int MAX_BATCH_BYTES = 1 << 20;

    /** The independent streams towards one target: see the class comment. */
    public enum Lane {
        TO_READER,
        TO_READER_CONTROL,
        TO_COORDINATOR;

        /** The lane a command of {@code kind} travels on. */
        public static Lane of(CommandKind kind) {
            if (SourceCommandTransportAdapter.isCoordinatorBound(kind)) {
                return TO_COORDINATOR;
            }
            return kind == CommandKind.CHECKPOINT_ABORTED ? TO_READER_CONTROL : TO_READER;
        }
    }

    private final FrameInvoker<M> invoker;
    private final SenderScheduler scheduler;
    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final RetryPolicy retryPolicy;
    private final int maxQueuedPerStream;
    private final int maxBatchCommands;
    private final ConcurrentMap<StreamKey, Stream> streams = new ConcurrentHashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;
    // Fault point 2's REORDER, tests only; the sender thread's. A stream retires when idle, so the
    // copy waits here, by stream key, for the stream's next transmission.
    private StreamKey staleKey;
    private Runnable staleCopy;

    /**
     * @param scheduler the sender's single thread and its timers; all progress runs on it
     * @param retryPolicy {@code retry.*}
     * @param maxQueuedPerStream sends that may wait in one stream, in flight included
     * @param maxBatchCommands {@code transport.command-batch-max-commands}, at most {@link
     *     CommandBatchCodec#MAX_ENTRIES}
     * @param clockMillis the clock deadlines are expressed in ({@link System#currentTimeMillis} in
     *     Zeta)
     */
    public CommandSender(
            FrameInvoker<M> invoker,
            SenderScheduler scheduler,
            RetryPolicy retryPolicy,
            int maxQueuedPerStream,
            int maxBatchCommands,
            TransportMetrics metrics,
            LongSupplier clockMillis) {
        if (maxQueuedPerStream < 1) {
            throw new IllegalArgumentException(
                    "maxQueuedPerStream must be positive: " + maxQueuedPerStream);
        }
        if (maxBatchCommands < 1 || maxBatchCommands > CommandBatchCodec.MAX_ENTRIES) {
            throw new IllegalArgumentException(
                    "transport.command-batch-max-commands must be within 1 .. "
                            + CommandBatchCodec.MAX_ENTRIES
                            + ": "
                            + maxBatchCommands);
        }
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.maxQueuedPerStream = maxQueuedPerStream;
        this.maxBatchCommands = maxBatchCommands;
    }

    /**
     * Sends {@code env} to the member at {@code target}, behind every earlier send of its stream.
     * Never blocks.
     *
     * @param deadlineMillis absolute time on this sender's clock after which no further attempt is
     *     made
     * @return completes with the final ack, or exceptionally with {@link CommandTimeoutException},
     *     {@link CommandStreamBrokenException}, {@link RejectedExecutionException} (stream full,
     *     sender closed), {@link IllegalArgumentException} (the envelope cannot be encoded) or the
     *     last transport failure
     */
    public CompletableFuture<AdmissionAck> send(
            M target, SourceCommandEnvelope env, long deadlineMillis) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(env, "env");
        CompletableFuture<AdmissionAck> future = new CompletableFuture<>();
        metrics.sent.incrementAndGet();
        byte[] frame;
        try {
            frame = SourceCommandCodec.encode(env);
        } catch (IllegalArgumentException e) {
            future.completeExceptionally(e);
            return future;
        }
        if (closed) {
            future.completeExceptionally(closedException());
            return future;
        }
        StreamKey key =
                new StreamKey(
                        target,
                        env.sourceRuntimeId(),
                        env.targetSubtask(),
                        Lane.of(env.commandKind()));
        Pending p = new Pending(env, frame, deadlineMillis, future);
        Stream[] scheduled = new Stream[1];
        boolean[] full = new boolean[1];
        streams.compute(
                key,
                (k, st) -> {
                    Stream s = st == null ? new Stream(k, target) : st;
                    if (s.size >= maxQueuedPerStream) {
                        full[0] = true;
                        return s;
                    }
                    s.incoming.addLast(p);
                    s.size++;
                    if (!s.pumpScheduled) {
                        s.pumpScheduled = true;
                        scheduled[0] = s;
                    }
                    return s;
                });
        if (full[0]) {
            metrics.queueFull.incrementAndGet();
            future.completeExceptionally(
                    new RejectedExecutionException(
                            "command stream to "
                                    + key
                                    + " is full ("
                                    + maxQueuedPerStream
                                    + " commands wait or are in flight); "
                                    + env.commandKind()
                                    + " not sent"));
            return future;
        }
        pending.incrementAndGet();
        if (scheduled[0] != null) {
            Stream s = scheduled[0];
            execute(() -> pump(s));
        }
        if (closed) {
            // Raced with close(): it may have failed the streams before this one was added.
            future.completeExceptionally(closedException());
        }
        return future;
    }

    /** Commands in flight or queued, over all streams. Any thread; approximate. */
    public int pendingCount() {
        return pending.get();
    }

    /** Open streams. Any thread; approximate. */
    public int streamCount() {
        return streams.size();
    }

    public TransportMetrics metrics() {
        return metrics;
    }

    /**
     * Fails every pending send with {@link RejectedExecutionException} and refuses new ones.
     * Idempotent. Call after the scheduler stopped taking tasks; a callback that races with it
     * loses against the first completion of each future, so no future completes twice.
     */
    @Override
    public void close() {
        closed = true;
        List<Pending> dropped = new ArrayList<>();
        for (StreamKey key : streams.keySet()) {
            streams.computeIfPresent(
                    key,
                    (k, s) -> {
                        s.closed = true;
                        dropped.addAll(s.waiting);
                        dropped.addAll(s.incoming);
                        s.waiting.clear();
                        s.incoming.clear();
                        return null;
                    });
        }
        for (Pending p : dropped) {
            pending.decrementAndGet();
            p.future.completeExceptionally(closedException());
        }
        if (!dropped.isEmpty()) {
            LOG.info("Command sender closed; failed {} pending sends", dropped.size());
        }
    }

    // ------------------------------------------------------------------ sender thread only

    private void pump(Stream s) {
        takeIncoming(s);
        if (s.inFlight == 0 && s.retryTimer == null) {
            startNext(s);
        }
    }

    /** Moves what callers queued into the stream's own queue; under the stream's bin. */
    private void takeIncoming(Stream s) {
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur == s) {
                        s.waiting.addAll(s.incoming);
                        s.incoming.clear();
                        s.pumpScheduled = false;
                    }
                    return cur;
                });
    }

    /** Sends the next batch of the stream, or retires an idle stream. */
    private void startNext(Stream s) {
        if (s.closed) {
            return;
        }
        // A caller may have cancelled a send that waited: it is dropped, never sent.
        while (!s.waiting.isEmpty() && s.waiting.peekFirst().future.isDone()) {
            finished(s, s.waiting.pollFirst());
        }
        if (s.waiting.isEmpty()) {
            retireIfIdle(s);
            return;
        }
        Pending head = s.waiting.peekFirst();
        long now = clockMillis.getAsLong();
        if (now >= head.deadlineMillis) {
            metrics.timeouts.incrementAndGet();
            breakStream(s, timeoutOf(s, head), null);
            return;
        }
        int n = 0;
        long bytes = 0;
        for (Pending p : s.waiting) {
            if (n == maxBatchCommands || (n > 0 && bytes + p.frame.length > MAX_BATCH_BYTES)) {
                break;
            }
            bytes += p.frame.length;
            n++;
        }
        s.inFlight = n;
        int attemptNo = ++s.attempts;
        metrics.attempts.addAndGet(n);
        long callTimeout = Math.max(MIN_CALL_TIMEOUT_MILLIS, head.deadlineMillis - now);
        CompletableFuture<byte[]> response =
                FaultSeam.INSTALLED == null
                        ? transmit(s, n, callTimeout)
                        : transmitWithFault(s, n, callTimeout);
        int count = n;
        // Async on the sender's own thread: a local target completes inline, and handling it
        // here would recurse into the next batch.
        response.whenCompleteAsync((r, e) -> onResponse(s, attemptNo, count, r, e), scheduler);
    }

    /** Hands the first {@code n} waiting commands to the transport, as one frame or a batch. */
    private CompletableFuture<byte[]> transmit(Stream s, int n, long callTimeout) {
        try {
            if (n == 1) {
                return invoker.invoke(targetOf(s), s.waiting.peekFirst().frame, callTimeout);
            }
            metrics.batchesSent.incrementAndGet();
            return invoker.invokeBatch(targetOf(s), batchOf(s, n), callTimeout);
        } catch (RuntimeException e) {
            CompletableFuture<byte[]> failed = new CompletableFuture<>();
            failed.completeExceptionally(e);
            return failed;
        }
    }

    /** The first {@code n} waiting commands of {@code s} as one batch frame. */
    private static byte[] batchOf(Stream s, int n) {
        List<byte[]> frames = new ArrayList<>(n);
        for (Pending p : s.waiting) {
            if (frames.size() == n) {
                break;
            }
            frames.add(p.frame);
        }
        return CommandBatchCodec.encode(frames);
    }

    /** Fault point 2 around {@link #transmit}. Tests only. */
    private CompletableFuture<byte[]> transmitWithFault(Stream s, int n, long callTimeout) {
        Runnable due = null;
        if (staleCopy != null && staleKey.equals(s.key)) {
            due = staleCopy;
            staleCopy = null;
            staleKey = null;
        }
        CompletableFuture<byte[]> sent = faultedTransmit(s, n, callTimeout);
        if (due != null) {
            // Behind a later transmission's answer: the reader admitted newer commands first.
            Runnable copy = due;
            sent.whenCompleteAsync((r, e) -> copy.run(), scheduler);
        }
        return sent;
    }

    private CompletableFuture<byte[]> faultedTransmit(Stream s, int n, long callTimeout) {
        Pending head = s.waiting.peekFirst();
        FaultAction f =
                FaultSeam.at(
                        FaultSite.OPERATION_SEND,
                        head.env.jobId(),
                        s.key.subtask,
                        head.env.commandKind() + (n > 1 ? " and " + (n - 1) + " more" : ""));
        if (f == FaultAction.LOSE) {
            CompletableFuture<byte[]> lost = new CompletableFuture<>();
            lost.completeExceptionally(new InjectedFaultException(FaultSite.OPERATION_SEND, f));
            return lost;
        }
        if (f == FaultAction.DUPLICATE) {
            transmit(s, n, callTimeout);
            return transmit(s, n, callTimeout);
        }
        if (f == FaultAction.REORDER) {
            // A copy taken now goes out once a later transmission is answered, so it reaches the
            // reader behind commands sent after it: a stale frame the reader must not apply again.
            boolean batch = n > 1;
            byte[] copy = batch ? batchOf(s, n) : head.frame;
            M target = targetOf(s);
            staleKey = s.key;
            staleCopy =
                    () -> {
                        try {
                            if (batch) {
                                invoker.invokeBatch(target, copy, callTimeout);
                            } else {
                                invoker.invoke(target, copy, callTimeout);
                            }
                        } catch (RuntimeException lost) {
                            // A copy that cannot be sent is a lost one: nothing to answer.
                        }
                    };
            return transmit(s, n, callTimeout);
        }
        if (f == FaultAction.DELAY) {
            // The batch is snapshotted now: the stream holds it in flight meanwhile.
            CompletableFuture<byte[]> later = new CompletableFuture<>();
            scheduler.schedule(
                    () ->
                            transmit(s, n, callTimeout)
                                    .whenComplete(
                                            (r, e) -> {
                                                if (e != null) {
                                                    later.completeExceptionally(e);
                                                } else {
                                                    later.complete(r);
                                                }
                                            }),
                    FaultSeam.DELAY_MILLIS);
            return later;
        }
        return transmit(s, n, callTimeout);
    }

    private void onResponse(Stream s, int attemptNo, int count, byte[] response, Throwable err) {
        if (s.closed || attemptNo != s.attempts) {
            return;
        }
        if (err == null && FaultSeam.INSTALLED != null) {
            // Fault point 4, tests only: the answer of an admitted frame is lost or late.
            Pending head = s.waiting.peekFirst();
            FaultAction f =
                    FaultSeam.at(
                            FaultSite.ADMISSION_ACK,
                            head == null ? 0 : head.env.jobId(),
                            s.key.subtask,
                            head == null ? "" : head.env.commandKind().name());
            if (f == FaultAction.LOSE) {
                err = new InjectedFaultException(FaultSite.ADMISSION_ACK, f);
            } else if (f == FaultAction.DELAY) {
                scheduler.schedule(
                        () -> handleResponse(s, attemptNo, count, response, null),
                        FaultSeam.DELAY_MILLIS);
                return;
            }
        }
        handleResponse(s, attemptNo, count, response, err);
    }

    private void handleResponse(
            Stream s, int attemptNo, int count, byte[] response, Throwable err) {
        if (s.closed || attemptNo != s.attempts) {
            return;
        }
        s.inFlight = 0;
        takeIncoming(s);
        if (err != null) {
            metrics.transportFailures.incrementAndGet();
            Throwable failure = unwrap(err);
            s.lastFailure = failure;
            LOG.debug(
                    "Transport failure sending {} command(s) to {} (attempt {}); retrying",
                    count,
                    s.key,
                    attemptNo,
                    failure);
            retryLater(s, 0);
            return;
        }
        List<AdmissionAck> acks = decode(response, count);
        if (acks == null) {
            metrics.ackDecodeFailures.incrementAndGet();
            breakStream(
                    s,
                    new IllegalStateException(
                            "undecodable admission answer for "
                                    + count
                                    + " command(s) to "
                                    + s.key
                                    + "; the peer speaks another protocol"),
                    null);
            return;
        }
        for (AdmissionAck ack : acks) {
            if (ack.status() == AdmissionStatus.RETRY_LATER) {
                // This one and everything behind it stay at the head, in order.
                s.lastAck = ack;
                retryLater(s, ack.retryAfterMillis());
                return;
            }
            Pending p = s.waiting.pollFirst();
            metrics.recordFinal(ack.status());
            s.backoff = null;
            s.lastAck = null;
            s.lastFailure = null;
            p.future.complete(ack);
            finished(s, p);
        }
        startNext(s);
    }

    /** The acks of one answer, one per command sent, or null if the answer does not decode. */
    private static List<AdmissionAck> decode(byte[] response, int count) {
        if (count == 1) {
            AdmissionAckCodec.DecodeResult d = AdmissionAckCodec.decode(response);
            if (!d.isSuccess()) {
                return null;
            }
            List<AdmissionAck> one = new ArrayList<>(1);
            one.add(d.ack());
            return one;
        }
        CommandBatchCodec.AckResult d = CommandBatchCodec.decodeAcks(response, count);
        if (!d.isSuccess()) {
            return null;
        }
        if (!d.opened()) {
            // The receiver refused the batch as a whole: the same final answer for every command.
            List<AdmissionAck> all = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                all.add(
                        AdmissionAck.rejected(
                                d.batchStatus(),
                                SourceCommandTransportAdapter.UNKNOWN_ATTEMPT,
                                d.reasonCode()));
            }
            return all;
        }
        return d.acks().size() == count ? d.acks() : null;
    }

    /** Schedules the head's next attempt, or ends it and breaks the stream when none is left. */
    private void retryLater(Stream s, long hintMillis) {
        if (s.backoff == null) {
            s.backoff = retryPolicy.newBackoff();
        }
        Pending head = s.waiting.peekFirst();
        long next = s.backoff.next(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            metrics.retriesExhausted.incrementAndGet();
            breakStream(s, s.lastAck == null ? s.lastFailure : null, s.lastAck);
            return;
        }
        if (clockMillis.getAsLong() + next >= head.deadlineMillis) {
            metrics.timeouts.incrementAndGet();
            breakStream(s, timeoutOf(s, head), null);
            return;
        }
        metrics.retries.incrementAndGet();
        s.retryTimer =
                schedule(
                        () -> {
                            s.retryTimer = null;
                            takeIncoming(s);
                            if (s.inFlight == 0) {
                                startNext(s);
                            }
                        },
                        next,
                        s);
    }

    /**
     * Ends the head with {@code headAck} (completed normally) or {@code headFailure}, and fails
     * everything behind it: delivering those would overtake the head.
     */
    private void breakStream(Stream s, Throwable headFailure, AdmissionAck headAck) {
        Pending head = s.waiting.pollFirst();
        if (headAck != null) {
            metrics.recordFinal(headAck.status());
            head.future.complete(headAck);
        } else {
            head.future.completeExceptionally(
                    headFailure != null
                            ? headFailure
                            : new IllegalStateException("no answer for " + head.env.commandKind()));
        }
        finished(s, head);
        List<Pending> behind = new ArrayList<>(s.waiting);
        s.waiting.clear();
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur != s) {
                        return cur;
                    }
                    behind.addAll(s.incoming);
                    s.incoming.clear();
                    s.closed = true;
                    return null;
                });
        if (!behind.isEmpty()) {
            metrics.streamsBroken.incrementAndGet();
            CommandStreamBrokenException broken =
                    new CommandStreamBrokenException(
                            "not sent: "
                                    + head.env.commandKind()
                                    + " ahead of it in the stream to "
                                    + s.key
                                    + " was not admitted",
                            headFailure);
            for (Pending p : behind) {
                p.future.completeExceptionally(broken);
                pending.decrementAndGet();
            }
        }
        s.backoff = null;
    }

    private void finished(Stream s, Pending p) {
        pending.decrementAndGet();
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur == s) {
                        s.size--;
                    }
                    return cur;
                });
    }

    /** Removes a stream with nothing queued, in flight or waiting for a timer. */
    private void retireIfIdle(Stream s) {
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur != s) {
                        return cur;
                    }
                    if (!s.incoming.isEmpty() || s.pumpScheduled) {
                        // Taken by the pump already scheduled for it.
                        return cur;
                    }
                    return s.waiting.isEmpty() && s.inFlight == 0 && s.retryTimer == null
                            ? null
                            : cur;
                });
    }

    // ------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    private M targetOf(Stream s) {
        return (M) s.target;
    }

    private void execute(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            // The member is shutting down: close() fails what is pending.
            LOG.debug("Command sender thread refused a task: {}", e.toString());
        }
    }

    private Cancellable schedule(Runnable task, long delayMillis, Stream s) {
        try {
            return scheduler.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            breakStream(s, closedException(), null);
            return null;
        }
    }

    private CommandTimeoutException timeoutOf(Stream s, Pending p) {
        return new CommandTimeoutException(
                "no final admission for "
                        + p.env.commandKind()
                        + " to "
                        + s.key
                        + " before its deadline after "
                        + s.attempts
                        + " invocation(s) of its stream; last answer: "
                        + (s.lastAck == null ? "none" : s.lastAck),
                s.attempts,
                s.lastAck,
                s.lastFailure);
    }

    private static RejectedExecutionException closedException() {
        return new RejectedExecutionException("command sender closed (member shutting down)");
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** One send. Immutable; its future is completed once, on the sender thread (or by close). */
    private static final class Pending {
        final SourceCommandEnvelope env;
        final byte[] frame;
        final long deadlineMillis;
        final CompletableFuture<AdmissionAck> future;

        Pending(
                SourceCommandEnvelope env,
                byte[] frame,
                long deadlineMillis,
                CompletableFuture<AdmissionAck> future) {
            this.env = env;
            this.frame = frame;
            this.deadlineMillis = deadlineMillis;
            this.future = future;
        }
    }

    /**
     * One ordered stream. Threading: {@code incoming}, {@code size}, {@code pumpScheduled} and
     * {@code closed} are guarded by the stream's bin of {@link #streams} (read and written only
     * inside {@code compute}); every other field belongs to the sender thread.
     */
    private static final class Stream {
        final StreamKey key;
        final Object target;
        final ArrayDeque<Pending> incoming = new ArrayDeque<>();
        int size;
        boolean pumpScheduled;
        // Also read by the sender thread outside the bin (a stream close() or a break retired).
        volatile boolean closed;

        final ArrayDeque<Pending> waiting = new ArrayDeque<>();
        int inFlight;
        int attempts;
        RetryPolicy.Backoff backoff;
        Cancellable retryTimer;
        AdmissionAck lastAck;
        Throwable lastFailure;

        Stream(StreamKey key, Object target) {
            this.key = key;
            this.target = target;
        }
    }

    private static final class StreamKey {
        final Object target;
        final long sourceRuntimeId;
        final int subtask;
        final Lane lane;

        StreamKey(Object target, long sourceRuntimeId, int subtask, Lane lane) {
            this.target = target;
            this.sourceRuntimeId = sourceRuntimeId;
            this.subtask = subtask;
            this.lane = lane;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof StreamKey)) {
                return false;
            }
            StreamKey k = (StreamKey) o;
            return sourceRuntimeId == k.sourceRuntimeId
                    && subtask == k.subtask
                    && lane == k.lane
                    && target.equals(k.target);
        }

        @Override
        public int hashCode() {
            return ((target.hashCode() * 31 + Long.hashCode(sourceRuntimeId)) * 31 + subtask) * 31
                    + lane.ordinal();
        }

        @Override
        public String toString() {
            return target + "/source " + sourceRuntimeId + "/subtask " + subtask + "/" + lane;
        }
    }
}
