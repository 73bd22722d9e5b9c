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

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
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
 * <p><b>Outcomes of one send</b> are those of the sender's one retry state machine, {@link
 * RetryState}; a head that ends unadmitted breaks its stream ({@link CommandStreamBrokenException}
 * for every send behind it), and a later send opens a new stream.
 *
 * @param <M> the engine's member address
 */
public final class CommandSender<M> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandSender.class);

    /** Floor of Hazelcast's call timeout: below it Hazelcast's own detection is not precise. */
    static final long MIN_CALL_TIMEOUT_MILLIS = 1000;

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
    private final SenderStreams streams;
    private volatile boolean closed;
    private final StreamTransmitter<M> transmitter;

    /** The batching lanes opened on this sender; closed with it. */
    @GuardedBy("reportLanes")
    private final List<CheckpointReportLane<M>> reportLanes = new ArrayList<>();

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
        this.transmitter = new StreamTransmitter<>(invoker, scheduler, metrics);
        this.streams = new SenderStreams(retryPolicy, maxQueuedPerStream, metrics);
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
        SenderStream.Key key =
                new SenderStream.Key(
                        target,
                        env.sourceRuntimeId(),
                        env.targetSubtask(),
                        Lane.of(env.commandKind()));
        SenderStream.Pending p = new SenderStream.Pending(env, frame, deadlineMillis, future);
        SenderStream scheduled = streams.offer(key, target, p);
        if (scheduled == SenderStreams.FULL) {
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
        if (scheduled != null) {
            execute(() -> pump(scheduled));
        }
        if (closed) {
            // Raced with close(): it may have failed the streams before this one was added.
            future.completeExceptionally(closedException());
        }
        return future;
    }

    /**
     * Opens the checkpoint-report lane of this sender: readers' {@code READER_CHECKPOINTED} reports
     * grouped per coordinator and source by {@code grouping} and sent as batches on this sender's
     * thread, with its invoker, {@code retry.*} policy, queue bound, metrics and clock. Closed with
     * this sender. Any thread.
     */
    public CheckpointReportLane<M> openReportLane(ReportGrouping grouping) {
        CheckpointReportLane<M> lane =
                new CheckpointReportLane<>(
                        invoker,
                        scheduler,
                        retryPolicy,
                        grouping,
                        maxQueuedPerStream,
                        metrics,
                        clockMillis);
        synchronized (reportLanes) {
            reportLanes.add(lane);
        }
        if (closed) {
            lane.close();
        }
        return lane;
    }

    /** Commands in flight or queued, over all streams. Any thread; approximate. */
    public int pendingCount() {
        return streams.pendingCount();
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
        List<CheckpointReportLane<M>> lanes;
        synchronized (reportLanes) {
            lanes = new ArrayList<>(reportLanes);
        }
        for (CheckpointReportLane<M> lane : lanes) {
            lane.close();
        }
        List<SenderStream.Pending> dropped = streams.closeAll();
        for (SenderStream.Pending p : dropped) {
            streams.dropped(1);
            p.future.completeExceptionally(closedException());
        }
        if (!dropped.isEmpty()) {
            LOG.info("Command sender closed; failed {} pending sends", dropped.size());
        }
    }

    // ------------------------------------------------------------------ sender thread only

    private void pump(SenderStream s) {
        scheduler.checkSenderThread("CommandSender.pump");
        streams.takeIncoming(s);
        if (s.inFlight == 0 && s.retry.retryTimer == null) {
            startNext(s);
        }
    }

    /** Sends the next batch of the stream, or retires an idle stream. */
    private void startNext(SenderStream s) {
        if (s.closed) {
            return;
        }
        // A caller may have cancelled a send that waited: it is dropped, never sent.
        while (!s.waiting.isEmpty() && s.waiting.peekFirst().future.isDone()) {
            s.waiting.pollFirst();
            streams.finished(s);
        }
        if (s.waiting.isEmpty()) {
            streams.retireIfIdle(s);
            return;
        }
        SenderStream.Pending head = s.waiting.peekFirst();
        long now = clockMillis.getAsLong();
        if (now >= head.deadlineMillis) {
            metrics.timeouts.incrementAndGet();
            streams.breakStream(s, timeoutOf(s, head), null);
            return;
        }
        int n = 0;
        long bytes = 0;
        for (SenderStream.Pending p : s.waiting) {
            if (n == maxBatchCommands || (n > 0 && bytes + p.frame.length > MAX_BATCH_BYTES)) {
                break;
            }
            bytes += p.frame.length;
            n++;
        }
        s.inFlight = n;
        int attemptNo = s.retry.begin();
        metrics.attempts.addAndGet(n);
        long callTimeout = Math.max(MIN_CALL_TIMEOUT_MILLIS, head.deadlineMillis - now);
        int count = n;
        CompletableFuture<byte[]> response = transmitter.send(s, count, callTimeout);
        // Async on the sender's own thread: a local target completes inline, and handling it
        // here would recurse into the next batch.
        response.whenCompleteAsync((r, e) -> onResponse(s, attemptNo, count, r, e), scheduler);
    }

    private void onResponse(
            SenderStream s, int attemptNo, int count, byte[] response, Throwable err) {
        if (s.closed || !s.retry.isCurrent(attemptNo)) {
            return;
        }
        if (FaultSeam.INSTALLED != null) {
            transmitter.answer(s, attemptNo, count, response, err, this::handleResponse);
            return;
        }
        handleResponse(s, attemptNo, count, response, err);
    }

    private void handleResponse(
            SenderStream s, int attemptNo, int count, byte[] response, Throwable err) {
        scheduler.checkSenderThread("CommandSender.handleResponse");
        if (s.closed || !s.retry.isCurrent(attemptNo)) {
            return;
        }
        s.inFlight = 0;
        streams.takeIncoming(s);
        if (err != null) {
            metrics.transportFailures.incrementAndGet();
            s.retry.failed(err);
            Throwable failure = s.retry.lastFailure();
            LOG.debug(
                    "Transport failure sending {} command(s) to {} (attempt {}); retrying",
                    count,
                    s.key,
                    attemptNo,
                    failure);
            retryLater(s, 0);
            return;
        }
        List<AdmissionAck> acks = RetryState.decode(response, count, count > 1);
        if (acks == null) {
            metrics.ackDecodeFailures.incrementAndGet();
            streams.breakStream(
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
                s.retry.refused(ack);
                retryLater(s, ack.retryAfterMillis());
                return;
            }
            SenderStream.Pending p = s.waiting.pollFirst();
            metrics.recordFinal(ack.status());
            s.retry.progress();
            p.future.complete(ack);
            streams.finished(s);
        }
        startNext(s);
    }

    /** Schedules the head's next attempt, or ends it and breaks the stream when none is left. */
    private void retryLater(SenderStream s, long hintMillis) {
        SenderStream.Pending head = s.waiting.peekFirst();
        long next = s.retry.nextDelay(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            metrics.retriesExhausted.incrementAndGet();
            streams.breakStream(
                    s, s.retry.lastAck() == null ? s.retry.lastFailure() : null, s.retry.lastAck());
            return;
        }
        if (!RetryState.fitsDeadline(clockMillis.getAsLong(), next, head.deadlineMillis)) {
            metrics.timeouts.incrementAndGet();
            streams.breakStream(s, timeoutOf(s, head), null);
            return;
        }
        metrics.retries.incrementAndGet();
        s.retry.retryTimer =
                schedule(
                        () -> {
                            s.retry.retryTimer = null;
                            streams.takeIncoming(s);
                            if (s.inFlight == 0) {
                                startNext(s);
                            }
                        },
                        next,
                        s);
    }

    // ------------------------------------------------------------------ helpers

    private void execute(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            // The member is shutting down: close() fails what is pending.
            LOG.debug("Command sender thread refused a task: {}", e.toString());
        }
    }

    private Cancellable schedule(Runnable task, long delayMillis, SenderStream s) {
        try {
            return scheduler.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            streams.breakStream(s, closedException(), null);
            return null;
        }
    }

    private CommandTimeoutException timeoutOf(SenderStream s, SenderStream.Pending p) {
        return s.retry.timeout(
                p.env.commandKind(), s.key, " invocation(s) of its stream", s.retry.lastAck());
    }

    private static RejectedExecutionException closedException() {
        return new RejectedExecutionException("command sender closed (member shutting down)");
    }
}
