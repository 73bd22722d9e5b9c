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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the batches of {@link CheckpointReportLane} and drives each one through the sender's {@link
 * RetryState}: one batch invocation per attempt, each report answered with its own entry, the
 * reports answered {@code RETRY_LATER} (or all of them, after a transport failure) sent again after
 * the backoff, expired ones dropped alone.
 *
 * <p>Threading: sender thread only; answers hop back onto it through the {@link SenderScheduler}
 * before they are handled.
 *
 * @param <M> the engine's member address
 */
final class ReportBatchSender<M> {
    private static final Logger LOG = LoggerFactory.getLogger(ReportBatchSender.class);

    /** How a batch's reports and the batch itself end; the lane's bookkeeping. */
    interface Ends {
        /** Fails {@code r} and counts it as dropped if this completed it. */
        boolean drop(ReportGroup.Report r, Throwable cause);

        /** Forgets {@code r}, already completed. */
        void finishQuietly(ReportGroup.Report r);

        /** The batch has no report left to send. */
        void endBatch(ReportGroup g, ReportGroup.Batch b);
    }

    private final FrameInvoker<M> invoker;
    private final SenderScheduler timers;
    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final Ends ends;

    ReportBatchSender(
            FrameInvoker<M> invoker,
            SenderScheduler timers,
            TransportMetrics metrics,
            LongSupplier clockMillis,
            Ends ends) {
        this.invoker = invoker;
        this.timers = timers;
        this.metrics = metrics;
        this.clockMillis = clockMillis;
        this.ends = ends;
    }

    void attempt(ReportGroup g, ReportGroup.Batch b) {
        b.retry.retryTimer = null;
        if (b.finished) {
            return;
        }
        long now = clockMillis.getAsLong();
        List<ReportGroup.Report> sendable = new ArrayList<>(b.reports.size());
        long earliestDeadline = Long.MAX_VALUE;
        for (ReportGroup.Report r : b.reports) {
            if (r.future.isDone()) {
                // Cancelled by its caller, or failed by close().
                ends.finishQuietly(r);
            } else if (r.deadlineMillis <= now) {
                metrics.timeouts.incrementAndGet();
                ends.drop(r, timeoutOf(r, b));
            } else {
                sendable.add(r);
                earliestDeadline = Math.min(earliestDeadline, r.deadlineMillis);
            }
        }
        b.reports = sendable;
        if (sendable.isEmpty()) {
            ends.endBatch(g, b);
            return;
        }
        List<byte[]> frames = new ArrayList<>(sendable.size());
        for (ReportGroup.Report r : sendable) {
            frames.add(r.frame);
        }
        int attemptNo = b.retry.begin();
        long callTimeout = Math.max(CommandSender.MIN_CALL_TIMEOUT_MILLIS, earliestDeadline - now);
        CompletableFuture<byte[]> response;
        try {
            response =
                    invoker.invokeBatch(
                            coordinatorOf(g), CommandBatchCodec.encode(frames), callTimeout);
        } catch (RuntimeException e) {
            try {
                timers.execute(() -> onResponse(g, b, attemptNo, null, e));
            } catch (RejectedExecutionException closing) {
                // close() fails what is left.
            }
            return;
        }
        // Hop through the sender thread: a local target completes inline, and handling it here
        // would recurse into the next attempt or the next batch.
        response.whenComplete(
                (bytes, err) -> {
                    try {
                        timers.execute(() -> onResponse(g, b, attemptNo, bytes, err));
                    } catch (RejectedExecutionException closing) {
                        // close() fails what is left.
                    }
                });
    }

    private void onResponse(
            ReportGroup g, ReportGroup.Batch b, int attemptNo, byte[] bytes, Throwable failure) {
        timers.checkSenderThread("ReportBatchSender.onResponse");
        if (b.finished || !b.retry.isCurrent(attemptNo)) {
            return;
        }
        if (failure != null) {
            metrics.transportFailures.incrementAndGet();
            b.retry.failed(failure);
            LOG.debug(
                    "Transport failure sending {} checkpoint reports to {} (attempt {}); retrying",
                    b.reports.size(),
                    g.key,
                    attemptNo,
                    b.retry.lastFailure());
            retryOrEnd(g, b, 0);
            return;
        }
        // One decoding for every lane: a batch refused as a whole answers each entry with the
        // refusal, final for every entry as it would have been alone.
        List<AdmissionAck> acks = RetryState.decode(bytes, b.reports.size(), true);
        if (acks == null) {
            metrics.ackDecodeFailures.incrementAndGet();
            IllegalStateException e =
                    new IllegalStateException(
                            "undecodable or mismatched batch answer for "
                                    + b.reports.size()
                                    + " checkpoint reports to "
                                    + g.key);
            for (ReportGroup.Report r : b.reports) {
                ends.drop(r, e);
            }
            ends.endBatch(g, b);
            return;
        }
        List<ReportGroup.Report> again = new ArrayList<>();
        long hint = 0;
        for (int i = 0; i < acks.size(); i++) {
            ReportGroup.Report r = b.reports.get(i);
            AdmissionAck ack = acks.get(i);
            if (ack.status() == AdmissionStatus.RETRY_LATER) {
                r.lastAck = ack;
                b.retry.refused(ack);
                hint = Math.max(hint, ack.retryAfterMillis());
                again.add(r);
            } else {
                completeFinal(r, ack);
            }
        }
        b.reports = again;
        if (again.isEmpty()) {
            ends.endBatch(g, b);
        } else {
            retryOrEnd(g, b, hint);
        }
    }

    private void retryOrEnd(ReportGroup g, ReportGroup.Batch b, long hintMillis) {
        long next = b.retry.nextDelay(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            if (b.retry.retried()) {
                metrics.retriesExhausted.incrementAndGet();
            }
            for (ReportGroup.Report r : b.reports) {
                if (b.retry.lastWasFailure() || r.lastAck == null) {
                    ends.drop(r, b.retry.lastFailure());
                } else {
                    // The last RETRY_LATER is the report's outcome, as for a single send.
                    metrics.reportsDropped.incrementAndGet();
                    r.future.complete(r.lastAck);
                    ends.finishQuietly(r);
                }
            }
            ends.endBatch(g, b);
            return;
        }
        long earliestDeadline = Long.MAX_VALUE;
        for (ReportGroup.Report r : b.reports) {
            earliestDeadline = Math.min(earliestDeadline, r.deadlineMillis);
        }
        long delay = Math.max(0, Math.min(next, earliestDeadline - clockMillis.getAsLong()));
        metrics.retries.incrementAndGet();
        metrics.reportBatchRetries.incrementAndGet();
        b.retry.retryTimer = schedule(() -> attempt(g, b), delay);
    }

    private void completeFinal(ReportGroup.Report r, AdmissionAck ack) {
        if (r.future.complete(ack)) {
            metrics.recordFinal(ack.status());
        }
        ends.finishQuietly(r);
    }

    @SuppressWarnings("unchecked")
    private M coordinatorOf(ReportGroup g) {
        return (M) g.key.coordinator;
    }

    private static CommandTimeoutException timeoutOf(ReportGroup.Report r, ReportGroup.Batch b) {
        return b.retry.timeout(r.env.commandKind(), r.key, " batch attempt(s)", r.lastAck);
    }

    private Cancellable schedule(Runnable task, long delayMillis) {
        try {
            return timers.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            // The member is shutting down; close() fails what is left.
            return null;
        }
    }
}
