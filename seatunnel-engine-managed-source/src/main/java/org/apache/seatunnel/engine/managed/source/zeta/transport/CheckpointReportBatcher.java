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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import com.hazelcast.cluster.Address;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.LongToIntFunction;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.apache.seatunnel.engine.managed.source.transport.CommandSender;
import org.apache.seatunnel.engine.managed.source.transport.CommandTimeoutException;
import org.apache.seatunnel.engine.managed.source.transport.FrameInvoker;
import org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the {@code READER_CHECKPOINTED} reports of this member's readers to their coordinator in
 * batches: one {@link DeliverCommandBatchOperation} (one sender-thread invocation, one Hazelcast
 * operation, one pass of the receiving adapter) instead of one per reader and checkpoint.
 *
 * <p>Threading: {@link #submit} may be called from any thread and never blocks: it encodes the
 * report and puts it into a lock-free inbox that the sender thread of {@code scheduler} (the
 * member's {@link CommandSender} thread) drains; that thread alone touches groups, batches, window
 * and retry timers. Futures complete on that thread; dependants must not block there. Life cycle:
 * created and closed by {@link ManagedSourceMemberService}; {@link #close()} fails every report not
 * yet answered.
 *
 * <p>The sender thread is not woken for every report. Reports are submitted by the engine's barrier
 * threads, one per reader, all within the few milliseconds the engine takes to deliver a
 * checkpoint's barriers; a wake-up per report put one more thread switch per reader on the member's
 * cores while those barriers were still being delivered. The report that brings the inbox to the
 * flush count of its source (every local reader, at most {@code
 * transport.report-batch-max-reports}) wakes the sender at once; a report into an empty inbox arms
 * one timer for {@code transport.report-batch-window}, so no report waits longer than before.
 *
 * <p>Reports are grouped by {@code (coordinator address, sourceRuntimeId)}. A group is flushed as
 * one batch, in arrival order, when (checked in this order)
 *
 * <ol>
 *   <li>it holds {@code transport.report-batch-max-reports} reports ({@code COUNT_BOUND});
 *   <li>it holds a report from every reader of the source registered on this member ({@code
 *       ALL_REPORTED}), the usual case: all local readers take a barrier within a short span;
 *   <li>its oldest report has waited {@code transport.report-batch-window} ({@code WINDOW}), when a
 *       reader is slow to take its barrier (backpressure) or is still registering.
 * </ol>
 *
 * <p>At most one batch per group is in flight; reports that arrive meanwhile wait (bounded by the
 * per-target queue bound of {@link CommandSender}) and are flushed when it ends, so a coordinator
 * sees one reader's reports in the order they were taken. Each report's future completes with its
 * own entry of the batch answer, so callers see exactly what a single send would give them. A
 * {@code RETRY_LATER} entry or a transport failure re-sends the reports not yet answered finally,
 * in order, with the member's {@code retry.*} backoff (a redelivered report is harmless: the
 * coordinator's tracker ignores entries it already holds as included). A report that ends without a
 * final ack (deadline, retries exhausted, queue full, closing, undecodable answer) is counted in
 * {@code ManagedSourceReportsDropped}; the loss is recoverable because later checkpoints re-derive
 * the report.
 *
 * <p>Ordering against the reader's other coordinator-bound commands (assignment acks, split
 * requests), which keep the {@link CommandSender}'s per-target FIFO, is not kept: a report may
 * overtake an earlier assignment ack. That is safe because the tracker treats the ack as flow
 * control only and counts a late ack of an included assignment as a duplicate.
 */
public final class CheckpointReportBatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointReportBatcher.class);

    /** Floor of Hazelcast's call timeout, as in {@link CommandSender}. */
    private static final long MIN_CALL_TIMEOUT_MILLIS = 1000;

    /** Why a group was flushed. */
    public enum FlushCause {
        ALL_REPORTED,
        WINDOW,
        COUNT_BOUND
    }

    /** The sender thread's executor and timers; a manual one in tests. */
    interface Timers {
        void execute(Runnable task);

        Future<?> schedule(Runnable task, long delayMillis);
    }

    private final FrameInvoker<Address> invoker;
    private final Timers timers;
    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final LongToIntFunction localReaders;
    private final RetryPolicy retryPolicy;
    private final long windowMillis;
    private final int maxReports;
    private final int maxQueued;

    /** Sender thread only. */
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
     * @param invoker moves one encoded batch and returns the encoded batch answer ({@link
     *     DeliverCommandBatchOperation} in Zeta)
     * @param scheduler the single-thread scheduler of the member's {@link CommandSender}
     * @param localReaders the number of readers of a source runtime registered on this member
     * @param clockMillis the clock deadlines and the window are measured on
     */
    public CheckpointReportBatcher(
            FrameInvoker<Address> invoker,
            ScheduledExecutorService scheduler,
            ManagedSourceRuntimeSettings settings,
            TransportMetrics metrics,
            LongToIntFunction localReaders,
            LongSupplier clockMillis) {
        this(invoker, on(scheduler), settings, metrics, localReaders, clockMillis);
    }

    CheckpointReportBatcher(
            FrameInvoker<Address> invoker,
            Timers timers,
            ManagedSourceRuntimeSettings settings,
            TransportMetrics metrics,
            LongToIntFunction localReaders,
            LongSupplier clockMillis) {
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.localReaders = Objects.requireNonNull(localReaders, "localReaders");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.retryPolicy = settings.retryPolicy();
        this.windowMillis = settings.reportBatchWindowMillis();
        this.maxReports = settings.reportBatchMaxReports();
        this.maxQueued = settings.maxQueuedPerTarget();
    }

    private static Timers on(ScheduledExecutorService scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        return new Timers() {
            @Override
            public void execute(Runnable task) {
                scheduler.execute(task);
            }

            @Override
            public Future<?> schedule(Runnable task, long delayMillis) {
                return scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            }
        };
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
            Address coordinator, SourceCommandEnvelope env, long deadlineMillis) {
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
        int flushCount =
                Math.min(maxReports, Math.max(1, localReaders.applyAsInt(key.sourceRuntimeId)));
        if (queued >= flushCount || windowMillis <= 0) {
            execute(drainTask, r);
        } else if (queued == 1) {
            // The drain that takes r cancels this timer: any report that counted on it is
            // taken by the same drain.
            r.inboxTimer = schedule(drainTask, windowMillis);
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
        FlushCause cause = null;
        if (g.waiting.size() >= maxReports) {
            cause = FlushCause.COUNT_BOUND;
        } else if (distinctSubtasks(g) >= localReaders.applyAsInt(g.key.sourceRuntimeId)) {
            cause = FlushCause.ALL_REPORTED;
        } else if (clockMillis.getAsLong() - g.oldestMillis >= windowMillis) {
            cause = FlushCause.WINDOW;
        }
        if (cause == null) {
            if (g.windowTimer == null) {
                long delay = Math.max(0, g.oldestMillis + windowMillis - clockMillis.getAsLong());
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

    private void flush(Group g, FlushCause cause) {
        cancel(g.windowTimer);
        g.windowTimer = null;
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
        Batch b = new Batch(reports, retryPolicy.newBackoff());
        g.inFlight = b;
        attempt(g, b);
    }

    private void attempt(Group g, Batch b) {
        b.retryTimer = null;
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
        int attemptNo = ++b.attempts;
        long callTimeout = Math.max(MIN_CALL_TIMEOUT_MILLIS, earliestDeadline - now);
        CompletableFuture<byte[]> response;
        try {
            response =
                    invoker.invokeBatch(
                            g.key.coordinator, CommandBatchCodec.encode(frames), callTimeout);
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
        if (b.finished || attemptNo != b.attempts) {
            return;
        }
        if (failure != null) {
            metrics.transportFailures.incrementAndGet();
            b.lastFailure = unwrap(failure);
            b.lastWasFailure = true;
            LOG.debug(
                    "Transport failure sending {} checkpoint reports to {} (attempt {}); retrying",
                    b.reports.size(),
                    g.key,
                    attemptNo,
                    b.lastFailure);
            retryOrEnd(g, b, 0);
            return;
        }
        CommandBatchCodec.AckResult decoded =
                CommandBatchCodec.decodeAcks(bytes, CommandBatchCodec.MAX_ENTRIES);
        if (!decoded.isSuccess()
                || (decoded.opened() && decoded.acks().size() != b.reports.size())) {
            metrics.ackDecodeFailures.incrementAndGet();
            IllegalStateException e =
                    new IllegalStateException(
                            "undecodable or mismatched batch answer for "
                                    + b.reports.size()
                                    + " checkpoint reports to "
                                    + g.key
                                    + ": "
                                    + decoded);
            for (Report r : b.reports) {
                drop(r, e);
            }
            endBatch(g, b);
            return;
        }
        if (!decoded.opened()) {
            // Refused as a whole: final for every entry, as each would have been alone.
            AdmissionAck refusal =
                    AdmissionAck.rejected(
                            decoded.batchStatus(),
                            SourceCommandTransportAdapter.UNKNOWN_ATTEMPT,
                            decoded.reasonCode());
            for (Report r : b.reports) {
                completeFinal(r, refusal);
            }
            endBatch(g, b);
            return;
        }
        List<AdmissionAck> acks = decoded.acks();
        List<Report> again = new ArrayList<>();
        long hint = 0;
        for (int i = 0; i < acks.size(); i++) {
            Report r = b.reports.get(i);
            AdmissionAck ack = acks.get(i);
            if (ack.status() == AdmissionStatus.RETRY_LATER) {
                r.lastAck = ack;
                hint = Math.max(hint, ack.retryAfterMillis());
                again.add(r);
            } else {
                completeFinal(r, ack);
            }
        }
        b.reports = again;
        b.lastWasFailure = false;
        if (again.isEmpty()) {
            endBatch(g, b);
        } else {
            retryOrEnd(g, b, hint);
        }
    }

    private void retryOrEnd(Group g, Batch b, long hintMillis) {
        long next = b.backoff.next(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            if (b.backoff.attempts() > 1) {
                metrics.retriesExhausted.incrementAndGet();
            }
            for (Report r : b.reports) {
                if (b.lastWasFailure || r.lastAck == null) {
                    drop(r, b.lastFailure);
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
        b.retryTimer = schedule(() -> attempt(g, b), delay);
    }

    private void endBatch(Group g, Batch b) {
        b.finished = true;
        cancel(b.retryTimer);
        b.retryTimer = null;
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

    private Future<?> schedule(Runnable task, long delayMillis) {
        try {
            return timers.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            // The member is shutting down; close() fails what is left.
            return null;
        }
    }

    private static void cancel(Future<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }

    private static CommandTimeoutException timeoutOf(Report r, Batch b) {
        return new CommandTimeoutException(
                "no final admission for "
                        + r.env.commandKind()
                        + " to "
                        + r.key
                        + " before its deadline after "
                        + b.attempts
                        + " batch attempt(s); last answer: "
                        + (r.lastAck == null ? "none" : r.lastAck),
                b.attempts,
                r.lastAck,
                b.lastFailure);
    }

    private static RejectedExecutionException closedException() {
        return new RejectedExecutionException(
                "checkpoint report batcher closed (member shutting down)");
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
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
        volatile Future<?> inboxTimer;
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
        final RetryPolicy.Backoff backoff;
        int attempts;
        boolean finished;
        boolean lastWasFailure;
        Throwable lastFailure;
        Future<?> retryTimer;

        Batch(List<Report> reports, RetryPolicy.Backoff backoff) {
            this.reports = reports;
            this.backoff = backoff;
        }
    }

    /** The reports waiting for one coordinator of one source. Threading: sender thread only. */
    private static final class Group {
        final GroupKey key;
        final ArrayDeque<Report> waiting = new ArrayDeque<>();
        long oldestMillis;
        Batch inFlight;
        Future<?> windowTimer;

        Group(GroupKey key) {
            this.key = key;
        }
    }

    private static final class GroupKey {
        final Address coordinator;
        final long sourceRuntimeId;

        GroupKey(Address coordinator, long sourceRuntimeId) {
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
