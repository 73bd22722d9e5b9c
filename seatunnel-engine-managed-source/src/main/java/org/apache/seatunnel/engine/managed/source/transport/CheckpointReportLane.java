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
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint-report lane of {@link CommandSender}: sends the {@code READER_CHECKPOINTED}
 * reports of this member's readers to their coordinator in batches, one batch invocation (one
 * sender-thread invocation, one engine operation, one pass of the receiving adapter) instead of one
 * per reader and checkpoint.
 *
 * <p>Threading: {@link #submit} may be called from any thread and never blocks: it encodes the
 * report and puts it into a lock-free inbox that the sender's thread drains; that thread alone
 * touches groups, batches, window and retry timers. Futures complete on that thread; dependants
 * must not block there. Life cycle: opened by {@link CommandSender#openReportLane} and closed with
 * the sender; {@link #close()} fails every report not yet answered.
 *
 * <p>The sender thread is not woken for every report. Reports are submitted by the engine's barrier
 * threads, one per reader, all within the few milliseconds the engine takes to deliver a
 * checkpoint's barriers; a wake-up per report put one more thread switch per reader on the member's
 * cores while those barriers were still being delivered. The report that brings the inbox to the
 * flush count of its source (every local reader, at most {@code
 * transport.report-batch-max-reports}) wakes the sender at once; a report into an empty inbox arms
 * one timer for {@code transport.report-batch-window}, so no report waits longer than before.
 *
 * <p>Reports are grouped by {@code (coordinator address, sourceRuntimeId)}; {@link ReportGrouping}
 * decides when a group is flushed as one batch, in arrival order.
 *
 * <p>At most one batch per group is in flight; reports that arrive meanwhile wait (bounded by the
 * per-target queue bound of {@link CommandSender}) and are flushed when it ends, so a coordinator
 * sees one reader's reports in the order they were taken. Each report's future completes with its
 * own entry of the batch answer, so callers see exactly what a single send would give them. A
 * {@code RETRY_LATER} entry or a transport failure re-sends the reports not yet answered finally,
 * in order, after the backoff of the batch's {@link RetryState} (the sender's one retry state
 * machine, {@code retry.*}); a redelivered report is harmless: the coordinator's tracker ignores
 * entries it already holds as included. Unlike a stream, a batch does not break: the reports are
 * independent, so one past its deadline is dropped alone and the others are sent again. A report
 * that ends without a final ack (deadline, retries exhausted, queue full, closing, undecodable
 * answer) is counted in {@code ManagedSourceReportsDropped}; the loss is recoverable because later
 * checkpoints re-derive the report.
 *
 * <p>Ordering against the reader's other coordinator-bound commands (assignment acks, split
 * requests), which keep the {@link CommandSender}'s per-target FIFO, is not kept: a report may
 * overtake an earlier assignment ack. That is safe because the tracker treats the ack as flow
 * control only and counts a late ack of an included assignment as a duplicate.
 *
 * @param <M> the engine's member address
 */
public final class CheckpointReportLane<M> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointReportLane.class);

    private final FrameInvoker<M> invoker;
    private final SenderScheduler timers;
    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final RetryPolicy retryPolicy;
    private final ReportGrouping grouping;
    private final int maxQueued;

    /** Sender thread only; no lock. */
    private final Map<GroupKey, Group> groups = new HashMap<>();

    /** Every report not yet finished, so close() can fail even those the scheduler dropped. */
    private final Set<Report> live = ConcurrentHashMap.newKeySet();

    /**
     * Submitted, not yet taken by the sender thread: drained at the latest one window after a
     * report enters it, and holding at most about {@code maxQueued} reports (submit refuses more).
     */
    private final ConcurrentLinkedQueue<Report> inbox = new ConcurrentLinkedQueue<>();

    /**
     * Reports in {@link #inbox}: incremented after a report went in, decremented right after the
     * sender took one out. Whoever sees 1 arms the window; a drain polls until the inbox is empty,
     * so a report counted behind another one is taken by the drain that takes that one.
     */
    private final AtomicInteger inboxCount = new AtomicInteger();

    private final Runnable drainTask = this::drainInbox;

    private volatile boolean closed;

    /**
     * Opened by {@link CommandSender#openReportLane}, with the sender's own invoker, thread, retry
     * policy, metrics and clock.
     *
     * @param maxQueued reports that may wait per group and in the inbox ({@code
     *     transport.max-queued-per-target})
     */
    CheckpointReportLane(
            FrameInvoker<M> invoker,
            SenderScheduler timers,
            RetryPolicy retryPolicy,
            ReportGrouping grouping,
            int maxQueued,
            TransportMetrics metrics,
            LongSupplier clockMillis) {
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.grouping = Objects.requireNonNull(grouping, "grouping");
        this.maxQueued = maxQueued;
    }

    /**
     * Sends one reader's checkpoint report to the coordinator at {@code coordinator} in the next
     * batch of its group. Never blocks.
     *
     * @param deadlineMillis absolute time on this batcher's clock after which no further attempt is
     *     made
     * @return completes with the report's own ack, or exceptionally as {@link CommandSender#send}
     *     would (timeout, rejected, undecodable answer)
     */
    public CompletableFuture<AdmissionAck> submit(
            M coordinator, SourceCommandEnvelope env, long deadlineMillis) {
        Objects.requireNonNull(coordinator, "coordinator");
        Objects.requireNonNull(env, "env");
        CompletableFuture<AdmissionAck> future = new CompletableFuture<>();
        metrics.sent.incrementAndGet();
        byte[] frame;
        try {
            frame = SourceCommandCodec.encode(env);
        } catch (IllegalArgumentException e) {
            metrics.reportsDropped.incrementAndGet();
            future.completeExceptionally(e);
            return future;
        }
        GroupKey key = new GroupKey(coordinator, env.sourceRuntimeId());
        Report r = new Report(key, env, frame, deadlineMillis, future);
        live.add(r);
        if (closed) {
            drop(r, closedException());
            return future;
        }
        if (inboxCount.get() >= maxQueued) {
            // The sender thread has not drained for a whole window: it is stuck or starved.
            metrics.queueFull.incrementAndGet();
            drop(
                    r,
                    new RejectedExecutionException(
                            "checkpoint report inbox is full ("
                                    + maxQueued
                                    + " reports wait for the sender thread); report not sent"));
            return future;
        }
        r.arrivalMillis = clockMillis.getAsLong();
        inbox.add(r);
        int queued = inboxCount.incrementAndGet();
        if (queued >= grouping.flushCount(key.sourceRuntimeId) || grouping.windowMillis() <= 0) {
            execute(drainTask, r);
        } else if (queued == 1) {
            // The drain that takes r cancels this timer: any report that counted on it is
            // taken by the same drain.
            r.inboxTimer = schedule(drainTask, grouping.windowMillis());
        }
        return future;
    }

    /** Reports submitted and not yet answered. Any thread; approximate. */
    public int pendingCount() {
        return live.size();
    }

    /**
     * Fails every report not yet answered with {@link RejectedExecutionException} and refuses new
     * ones. Idempotent. Call after the scheduler stopped taking tasks; a callback racing with it
     * loses against the first completion of each future.
     */
    @Override
    public void close() {
        closed = true;
        int dropped = 0;
        for (Report r : live) {
            if (drop(r, closedException())) {
                dropped++;
            }
        }
        if (dropped > 0) {
            LOG.info("Checkpoint report batcher closed; failed {} pending reports", dropped);
        }
    }

    // ------------------------------------------------------------------ sender thread only

    private void drainInbox() {
        // Every report first, then the flush decisions: a group whose window has passed is sent
        // with all the reports that waited for it, not with the first one drained.
        List<Group> touched = new ArrayList<>(2);
        Report r;
        while ((r = inbox.poll()) != null) {
            inboxCount.decrementAndGet();
            cancel(r.inboxTimer);
            Group g = enqueue(r);
            if (g != null && !touched.contains(g)) {
                touched.add(g);
            }
        }
        for (Group g : touched) {
            evaluate(g);
        }
    }

    /** Adds {@code r} to its group's waiting reports; returns the group, or null if dropped. */
    private Group enqueue(Report r) {
        if (closed || r.future.isDone()) {
            finishQuietly(r);
            return null;
        }
        Group g = groups.get(r.key);
        if (g == null) {
            g = new Group(r.key);
            groups.put(r.key, g);
        }
        if (g.waiting.size() >= maxQueued) {
            metrics.queueFull.incrementAndGet();
            drop(
                    r,
                    new RejectedExecutionException(
                            "checkpoint report queue to "
                                    + r.key
                                    + " is full ("
                                    + maxQueued
                                    + " reports wait); report not sent"));
            return null;
        }
        if (g.waiting.isEmpty()) {
            g.oldestMillis = r.arrivalMillis;
        }
        g.waiting.addLast(r);
        return g;
    }

    /** Flushes {@code g} if a flush condition holds, else arms its window timer. */
    private void evaluate(Group g) {
        if (g.inFlight != null || g.waiting.isEmpty()) {
            // Re-evaluated when the batch in flight ends.
            return;
        }
        long now = clockMillis.getAsLong();
        ReportGrouping.FlushCause cause =
                grouping.causeToFlush(
                        g.key.sourceRuntimeId,
                        g.waiting.size(),
                        distinctSubtasks(g),
                        g.oldestMillis,
                        now);
        if (cause == null) {
            if (g.windowTimer == null) {
                long delay = grouping.untilWindow(g.oldestMillis, now);
                g.windowTimer = schedule(() -> onWindow(g), delay);
            }
            return;
        }
        flush(g, cause);
    }

    private void onWindow(Group g) {
        g.windowTimer = null;
        if (groups.get(g.key) == g) {
            evaluate(g);
        }
    }

    private static int distinctSubtasks(Group g) {
        BitSet seen = new BitSet();
        for (Report r : g.waiting) {
            seen.set(Math.max(0, r.env.targetSubtask()));
        }
        return seen.cardinality();
    }

    private void flush(Group g, ReportGrouping.FlushCause cause) {
        cancel(g.windowTimer);
        g.windowTimer = null;
        int maxReports = grouping.maxReports();
        List<Report> reports = new ArrayList<>(Math.min(maxReports, g.waiting.size()));
        while (reports.size() < maxReports && !g.waiting.isEmpty()) {
            reports.add(g.waiting.pollFirst());
        }
        if (!g.waiting.isEmpty()) {
            g.oldestMillis = g.waiting.peekFirst().arrivalMillis;
        }
        switch (cause) {
            case COUNT_BOUND:
                metrics.reportFlushCountBound.incrementAndGet();
                break;
            case ALL_REPORTED:
                metrics.reportFlushAllReported.incrementAndGet();
                break;
            default:
                metrics.reportFlushWindow.incrementAndGet();
                break;
        }
        metrics.reportBatchesSent.incrementAndGet();
        metrics.reportsBatched.addAndGet(reports.size());
        Batch b = new Batch(reports, new RetryState(retryPolicy));
        g.inFlight = b;
        attempt(g, b);
    }

    private void attempt(Group g, Batch b) {
        b.retry.retryTimer = null;
        if (b.finished) {
            return;
        }
        long now = clockMillis.getAsLong();
        List<Report> sendable = new ArrayList<>(b.reports.size());
        long earliestDeadline = Long.MAX_VALUE;
        for (Report r : b.reports) {
            if (r.future.isDone()) {
                // Cancelled by its caller, or failed by close().
                finishQuietly(r);
            } else if (r.deadlineMillis <= now) {
                metrics.timeouts.incrementAndGet();
                drop(r, timeoutOf(r, b));
            } else {
                sendable.add(r);
                earliestDeadline = Math.min(earliestDeadline, r.deadlineMillis);
            }
        }
        b.reports = sendable;
        if (sendable.isEmpty()) {
            endBatch(g, b);
            return;
        }
        List<byte[]> frames = new ArrayList<>(sendable.size());
        for (Report r : sendable) {
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

    private void onResponse(Group g, Batch b, int attemptNo, byte[] bytes, Throwable failure) {
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
            for (Report r : b.reports) {
                drop(r, e);
            }
            endBatch(g, b);
            return;
        }
        List<Report> again = new ArrayList<>();
        long hint = 0;
        for (int i = 0; i < acks.size(); i++) {
            Report r = b.reports.get(i);
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
            endBatch(g, b);
        } else {
            retryOrEnd(g, b, hint);
        }
    }

    private void retryOrEnd(Group g, Batch b, long hintMillis) {
        long next = b.retry.nextDelay(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            if (b.retry.retried()) {
                metrics.retriesExhausted.incrementAndGet();
            }
            for (Report r : b.reports) {
                if (b.retry.lastWasFailure() || r.lastAck == null) {
                    drop(r, b.retry.lastFailure());
                } else {
                    // The last RETRY_LATER is the report's outcome, as for a single send.
                    metrics.reportsDropped.incrementAndGet();
                    r.future.complete(r.lastAck);
                    finishQuietly(r);
                }
            }
            endBatch(g, b);
            return;
        }
        long earliestDeadline = Long.MAX_VALUE;
        for (Report r : b.reports) {
            earliestDeadline = Math.min(earliestDeadline, r.deadlineMillis);
        }
        long delay = Math.max(0, Math.min(next, earliestDeadline - clockMillis.getAsLong()));
        metrics.retries.incrementAndGet();
        metrics.reportBatchRetries.incrementAndGet();
        b.retry.retryTimer = schedule(() -> attempt(g, b), delay);
    }

    private void endBatch(Group g, Batch b) {
        b.finished = true;
        cancel(b.retry.retryTimer);
        b.retry.retryTimer = null;
        if (g.inFlight == b) {
            g.inFlight = null;
        }
        if (g.waiting.isEmpty()) {
            cancel(g.windowTimer);
            g.windowTimer = null;
            groups.remove(g.key);
        } else {
            evaluate(g);
        }
    }

    private void completeFinal(Report r, AdmissionAck ack) {
        if (r.future.complete(ack)) {
            metrics.recordFinal(ack.status());
        }
        finishQuietly(r);
    }

    // ------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    private M coordinatorOf(Group g) {
        return (M) g.key.coordinator;
    }

    /** Fails {@code r} and counts it as dropped if this completed it. */
    private boolean drop(Report r, Throwable cause) {
        boolean mine =
                r.future.completeExceptionally(
                        cause != null ? cause : new IllegalStateException("report not delivered"));
        if (mine) {
            metrics.reportsDropped.incrementAndGet();
        }
        live.remove(r);
        return mine;
    }

    private void finishQuietly(Report r) {
        live.remove(r);
    }

    private void execute(Runnable task, Report r) {
        try {
            timers.execute(task);
        } catch (RejectedExecutionException e) {
            drop(r, closedException());
        }
    }

    private Cancellable schedule(Runnable task, long delayMillis) {
        try {
            return timers.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            // The member is shutting down; close() fails what is left.
            return null;
        }
    }

    private static void cancel(Cancellable f) {
        if (f != null) {
            f.cancel();
        }
    }

    private static CommandTimeoutException timeoutOf(Report r, Batch b) {
        return b.retry.timeout(r.env.commandKind(), r.key, " batch attempt(s)", r.lastAck);
    }

    private static RejectedExecutionException closedException() {
        return new RejectedExecutionException(
                "checkpoint report batcher closed (member shutting down)");
    }

    /** One report. Threading: mutable fields belong to the sender thread unless marked. */
    private static final class Report {
        final GroupKey key;
        final SourceCommandEnvelope env;
        final byte[] frame;
        final long deadlineMillis;
        final CompletableFuture<AdmissionAck> future;
        // Set by the submitting thread before the report is published to the inbox.
        long arrivalMillis;
        // The window timer this report armed, if it came into an empty inbox; set after publishing,
        // so a drain may miss it and leave a timer that then finds nothing to do.
        volatile Cancellable inboxTimer;
        AdmissionAck lastAck;

        Report(
                GroupKey key,
                SourceCommandEnvelope env,
                byte[] frame,
                long deadlineMillis,
                CompletableFuture<AdmissionAck> future) {
            this.key = key;
            this.env = env;
            this.frame = frame;
            this.deadlineMillis = deadlineMillis;
            this.future = future;
        }
    }

    /** One batch in flight. Threading: sender thread only. */
    private static final class Batch {
        List<Report> reports;
        final RetryState retry;
        boolean finished;

        Batch(List<Report> reports, RetryState retry) {
            this.reports = reports;
            this.retry = retry;
        }
    }

    /** The reports waiting for one coordinator of one source. Threading: sender thread only. */
    private static final class Group {
        final GroupKey key;
        final ArrayDeque<Report> waiting = new ArrayDeque<>();
        long oldestMillis;
        Batch inFlight;
        Cancellable windowTimer;

        Group(GroupKey key) {
            this.key = key;
        }
    }

    private static final class GroupKey {
        final Object coordinator;
        final long sourceRuntimeId;

        GroupKey(Object coordinator, long sourceRuntimeId) {
            this.coordinator = coordinator;
            this.sourceRuntimeId = sourceRuntimeId;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof GroupKey)) {
                return false;
            }
            GroupKey k = (GroupKey) o;
            return sourceRuntimeId == k.sourceRuntimeId && coordinator.equals(k.coordinator);
        }

        @Override
        public int hashCode() {
            return coordinator.hashCode() * 31 + Long.hashCode(sourceRuntimeId);
        }

        @Override
        public String toString() {
            return coordinator + "/source " + sourceRuntimeId;
        }
    }
}
