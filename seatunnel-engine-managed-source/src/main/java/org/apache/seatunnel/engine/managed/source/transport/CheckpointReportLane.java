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
    private final ReportBatchSender<M> batches;

    /** Sender thread only; no lock. */
    private final Map<ReportGroup.Key, ReportGroup> groups = new HashMap<>();

    /** Every report not yet finished, so close() can fail even those the scheduler dropped. */
    private final Set<ReportGroup.Report> live = ConcurrentHashMap.newKeySet();

    /**
     * Submitted, not yet taken by the sender thread: drained at the latest one window after a
     * report enters it, and holding at most about {@code maxQueued} reports (submit refuses more).
     */
    private final ConcurrentLinkedQueue<ReportGroup.Report> inbox = new ConcurrentLinkedQueue<>();

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
        this.batches =
                new ReportBatchSender<>(
                        invoker,
                        timers,
                        metrics,
                        clockMillis,
                        new ReportBatchSender.Ends() {
                            @Override
                            public boolean drop(ReportGroup.Report r, Throwable cause) {
                                return CheckpointReportLane.this.drop(r, cause);
                            }

                            @Override
                            public void finishQuietly(ReportGroup.Report r) {
                                CheckpointReportLane.this.finishQuietly(r);
                            }

                            @Override
                            public void endBatch(ReportGroup g, ReportGroup.Batch b) {
                                CheckpointReportLane.this.endBatch(g, b);
                            }
                        });
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
        ReportGroup.Key key = new ReportGroup.Key(coordinator, env.sourceRuntimeId());
        ReportGroup.Report r = new ReportGroup.Report(key, env, frame, deadlineMillis, future);
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
        for (ReportGroup.Report r : live) {
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
        timers.checkSenderThread("CheckpointReportLane.drainInbox");
        // Every report first, then the flush decisions: a group whose window has passed is sent
        // with all the reports that waited for it, not with the first one drained.
        List<ReportGroup> touched = new ArrayList<>(2);
        ReportGroup.Report r;
        while ((r = inbox.poll()) != null) {
            inboxCount.decrementAndGet();
            cancel(r.inboxTimer);
            ReportGroup g = enqueue(r);
            if (g != null && !touched.contains(g)) {
                touched.add(g);
            }
        }
        for (ReportGroup g : touched) {
            evaluate(g);
        }
    }

    /** Adds {@code r} to its group's waiting reports; returns the group, or null if dropped. */
    private ReportGroup enqueue(ReportGroup.Report r) {
        if (closed || r.future.isDone()) {
            finishQuietly(r);
            return null;
        }
        ReportGroup g = groups.get(r.key);
        if (g == null) {
            g = new ReportGroup(r.key);
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
    private void evaluate(ReportGroup g) {
        if (g.inFlight != null || g.waiting.isEmpty()) {
            // Re-evaluated when the batch in flight ends.
            return;
        }
        long now = clockMillis.getAsLong();
        ReportGrouping.FlushCause cause =
                grouping.causeToFlush(
                        g.key.sourceRuntimeId,
                        g.waiting.size(),
                        g.distinctSubtasks(),
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

    private void onWindow(ReportGroup g) {
        g.windowTimer = null;
        if (groups.get(g.key) == g) {
            evaluate(g);
        }
    }

    private void flush(ReportGroup g, ReportGrouping.FlushCause cause) {
        cancel(g.windowTimer);
        g.windowTimer = null;
        int maxReports = grouping.maxReports();
        List<ReportGroup.Report> reports = new ArrayList<>(Math.min(maxReports, g.waiting.size()));
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
        ReportGroup.Batch b = new ReportGroup.Batch(reports, new RetryState(retryPolicy));
        g.inFlight = b;
        batches.attempt(g, b);
    }

    private void endBatch(ReportGroup g, ReportGroup.Batch b) {
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

    // ------------------------------------------------------------------ helpers

    /** Fails {@code r} and counts it as dropped if this completed it. */
    private boolean drop(ReportGroup.Report r, Throwable cause) {
        boolean mine =
                r.future.completeExceptionally(
                        cause != null ? cause : new IllegalStateException("report not delivered"));
        if (mine) {
            metrics.reportsDropped.incrementAndGet();
        }
        live.remove(r);
        return mine;
    }

    private void finishQuietly(ReportGroup.Report r) {
        live.remove(r);
    }

    private void execute(Runnable task, ReportGroup.Report r) {
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

    private static RejectedExecutionException closedException() {
        return new RejectedExecutionException(
                "checkpoint report batcher closed (member shutting down)");
    }
}
