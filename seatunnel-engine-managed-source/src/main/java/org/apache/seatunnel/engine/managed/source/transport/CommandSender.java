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
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of the command transport: delivers envelopes to a member's {@link
 * SourceCommandTransportAdapter} and resolves each send with the target's final {@link
 * AdmissionAck}.
 *
 * <p>Threading: {@link #send} may be called from any thread and never blocks: it encodes the frame,
 * queues it and returns. Everything after that — invocations, response handling, retry and deadline
 * timers — runs on the single sender thread of {@code scheduler}, which is the only thread that
 * touches a send's progress fields; queues are shared with callers through {@link
 * ConcurrentHashMap#compute} only. Returned futures complete on the sender thread: dependants must
 * not block there (use the {@code *Async} variants with their own executor for real work). Life
 * cycle: created by its engine binding's member runtime; {@link #close()} fails everything still
 * pending.
 *
 * <p>Per target {@code (member address, sourceRuntimeId, targetSubtask)} at most one envelope is in
 * flight; later ones wait behind it in FIFO order (bounded; beyond the bound a send fails at once
 * with {@link RejectedExecutionException}). This keeps the target mailbox's sequence order equal to
 * the send order, which is what ordered controls need, even across retries.
 *
 * <p>Outcomes of one send:
 *
 * <ul>
 *   <li>a final status ({@code ACCEPTED}, {@code DUPLICATE}, {@code STALE_TARGET}, {@code
 *       TERMINAL_REJECTED}, {@code UNSUPPORTED_PROTOCOL}, {@code INVALID_PAYLOAD}) completes the
 *       future normally with that ack;
 *   <li>{@code RETRY_LATER}, or a Hazelcast-level failure (member left, call timeout, connection
 *       loss), is retried by the send's {@link RetryPolicy} (the {@code retry.*} settings unless
 *       the caller passes its own): first the ack's {@code retryAfterMillis} (or {@code
 *       retry.initial-backoff}), doubling up to {@code retry.max-backoff}; timers, never a sleeping
 *       thread;
 *   <li>once the policy's {@code retry.max-attempts} attempts were made, the send ends with its
 *       last outcome: the last {@code RETRY_LATER} ack completes the future normally, the last
 *       transport failure exceptionally. With {@link RetryPolicy#SINGLE_ATTEMPT} that is the first
 *       outcome: the coordinator sends that way because it retries its commands itself;
 *   <li>at the deadline the future fails with {@link CommandTimeoutException} (also for an envelope
 *       whose deadline passed while it waited in the queue);
 *   <li>an ack that does not decode fails the future with {@link IllegalStateException}: a protocol
 *       mismatch that retrying cannot fix.
 * </ul>
 */
public final class CommandSender<M> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandSender.class);

    /** Floor of Hazelcast's call timeout: below it Hazelcast's own detection is not precise. */
    private static final long MIN_CALL_TIMEOUT_MILLIS = 1000;

    private final FrameInvoker<M> invoker;
    private final SenderScheduler scheduler;
    private final TransportMetrics metrics;
    private final LongSupplier clockMillis;
    private final RetryPolicy retryPolicy;
    private final int maxQueuedPerTarget;
    private final ConcurrentMap<TargetKey, TargetQueue> queues = new ConcurrentHashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param scheduler a single-thread scheduler owned by the caller; all progress runs on it
     * @param clockMillis the clock deadlines are expressed in ({@link System#currentTimeMillis})
     */
    public CommandSender(
            FrameInvoker<M> invoker,
            SenderScheduler scheduler,
            RetryPolicy retryPolicy,
            int maxQueuedPerTarget,
            TransportMetrics metrics,
            LongSupplier clockMillis) {
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.maxQueuedPerTarget = maxQueuedPerTarget;
    }

    /**
     * Sends {@code env} to the member at {@code target}. Never blocks.
     *
     * @param deadlineMillis absolute time on this sender's clock ({@link
     *     System#currentTimeMillis()} in Zeta) after which no further attempt is made
     * @return completes with the final ack, or exceptionally with {@link CommandTimeoutException},
     *     {@link RejectedExecutionException} (queue full, sender closed) or {@link
     *     IllegalArgumentException} (the envelope cannot be encoded)
     */
    public CompletableFuture<AdmissionAck> send(
            M target, SourceCommandEnvelope env, long deadlineMillis) {
        return send(target, env, deadlineMillis, retryPolicy);
    }

    /**
     * As {@link #send(Object, SourceCommandEnvelope, long)}, retried by {@code policy} instead of
     * the member's {@code retry.*} settings.
     */
    public CompletableFuture<AdmissionAck> send(
            M target, SourceCommandEnvelope env, long deadlineMillis, RetryPolicy policy) {
        Objects.requireNonNull(policy, "policy");
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
        TargetKey key = new TargetKey(target, env.sourceRuntimeId(), env.targetSubtask());
        Pending p =
                new Pending(target, key, env, frame, deadlineMillis, future, policy.newBackoff());
        queues.compute(
                key,
                (k, queue) -> {
                    TargetQueue l = queue == null ? new TargetQueue() : queue;
                    if (l.inFlight == null) {
                        l.inFlight = p;
                        p.admission = Admission.START;
                    } else if (l.queue.size() >= maxQueuedPerTarget) {
                        p.admission = Admission.FULL;
                    } else {
                        l.queue.addLast(p);
                        p.admission = Admission.QUEUED;
                    }
                    return l;
                });
        if (p.admission == Admission.FULL) {
            metrics.queueFull.incrementAndGet();
            future.completeExceptionally(
                    new RejectedExecutionException(
                            "command queue to "
                                    + key
                                    + " is full ("
                                    + maxQueuedPerTarget
                                    + " envelopes wait behind the one in flight); "
                                    + env.commandKind()
                                    + " not sent"));
        } else {
            pending.incrementAndGet();
            if (p.admission == Admission.START) {
                execute(() -> beginThenAdvance(p), p);
            }
            if (closed) {
                // Raced with close(): it may have cleared the queues before this one was added.
                future.completeExceptionally(closedException());
            }
        }
        return future;
    }

    /** Envelopes in flight or queued, over all queues. Any thread; approximate. */
    public int pendingCount() {
        return pending.get();
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
        for (TargetKey key : queues.keySet()) {
            queues.computeIfPresent(
                    key,
                    (k, l) -> {
                        if (l.inFlight != null) {
                            dropped.add(l.inFlight);
                        }
                        dropped.addAll(l.queue);
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

    private void beginThenAdvance(Pending p) {
        if (!begin(p)) {
            advance(p.key);
        }
    }

    /** Starts the queue's head. Returns false if it finished at once (cancelled or expired). */
    private boolean begin(Pending p) {
        if (p.future.isDone()) {
            // The caller cancelled while it waited; nothing was sent.
            p.finished = true;
            pending.decrementAndGet();
            return false;
        }
        long remaining = p.deadlineMillis - clockMillis.getAsLong();
        if (remaining <= 0) {
            p.finished = true;
            pending.decrementAndGet();
            metrics.timeouts.incrementAndGet();
            p.future.completeExceptionally(timeoutOf(p));
            return false;
        }
        p.deadlineTimer = schedule(() -> onDeadline(p), remaining, p);
        attempt(p);
        return true;
    }

    private void attempt(Pending p) {
        p.retryTimer = null;
        if (p.finished) {
            return;
        }
        if (p.future.isDone()) {
            finish(p);
            return;
        }
        int attemptNo = ++p.attempts;
        metrics.attempts.incrementAndGet();
        long callTimeout =
                Math.max(MIN_CALL_TIMEOUT_MILLIS, p.deadlineMillis - clockMillis.getAsLong());
        CompletableFuture<byte[]> response;
        try {
            response = invoker.invoke(targetOf(p), p.frame, callTimeout);
        } catch (RuntimeException e) {
            // Hop through the scheduler so failure handling never recurses into attempt().
            execute(() -> onResponse(p, attemptNo, null, e), p);
            return;
        }
        // Async on our own thread: a local target completes inline, and handling it here would
        // recurse into the next attempt or the next envelope of the queue.
        response.whenCompleteAsync((r, e) -> onResponse(p, attemptNo, r, e), scheduler);
    }

    private void onResponse(Pending p, int attemptNo, byte[] response, Throwable failure) {
        if (p.finished || attemptNo != p.attempts) {
            return;
        }
        if (failure != null) {
            metrics.transportFailures.incrementAndGet();
            p.lastFailure = unwrap(failure);
            LOG.debug(
                    "Transport failure sending {} to {} (attempt {}); retrying",
                    p.env.commandKind(),
                    p.key,
                    attemptNo,
                    p.lastFailure);
            if (!retryLater(p, 0)) {
                p.future.completeExceptionally(p.lastFailure);
                finish(p);
            }
            return;
        }
        AdmissionAckCodec.DecodeResult decoded = AdmissionAckCodec.decode(response);
        if (!decoded.isSuccess()) {
            metrics.ackDecodeFailures.incrementAndGet();
            p.future.completeExceptionally(
                    new IllegalStateException(
                            "undecodable admission ack for "
                                    + p.env.commandKind()
                                    + " to "
                                    + p.key
                                    + ": "
                                    + decoded));
            finish(p);
            return;
        }
        AdmissionAck ack = decoded.ack();
        if (ack.status() == AdmissionStatus.RETRY_LATER) {
            p.lastAck = ack;
            if (!retryLater(p, ack.retryAfterMillis())) {
                p.future.complete(ack);
                finish(p);
            }
            return;
        }
        metrics.recordFinal(ack.status());
        p.future.complete(ack);
        finish(p);
    }

    /**
     * Schedules the next attempt. False when the policy allows no further attempt: the caller ends
     * the send with its last outcome.
     */
    private boolean retryLater(Pending p, long hintMillis) {
        long next = p.backoff.next(hintMillis);
        if (next == RetryPolicy.EXHAUSTED) {
            if (p.backoff.attempts() > 1) {
                // A single-attempt send hands its outcome back by design; only a cut-off retry
                // sequence counts.
                metrics.retriesExhausted.incrementAndGet();
            }
            return false;
        }
        long remaining = p.deadlineMillis - clockMillis.getAsLong();
        if (next >= remaining) {
            // No attempt fits before the deadline; the deadline timer ends the send.
            return true;
        }
        metrics.retries.incrementAndGet();
        p.retryTimer = schedule(() -> attempt(p), next, p);
        return true;
    }

    private void onDeadline(Pending p) {
        p.deadlineTimer = null;
        if (p.finished) {
            return;
        }
        metrics.timeouts.incrementAndGet();
        p.future.completeExceptionally(timeoutOf(p));
        finish(p);
    }

    /**
     * Ends {@code p} (its future is already complete) and starts the next envelope of its queue.
     */
    private void finish(Pending p) {
        p.finished = true;
        pending.decrementAndGet();
        cancel(p.deadlineTimer);
        cancel(p.retryTimer);
        p.deadlineTimer = null;
        p.retryTimer = null;
        advance(p.key);
    }

    private void advance(TargetKey key) {
        for (Pending next = handOff(key); next != null; next = handOff(key)) {
            if (begin(next)) {
                return;
            }
        }
    }

    /** Pops the next queued envelope into the in-flight slot; removes an idle queue. */
    private Pending handOff(TargetKey key) {
        Pending[] next = new Pending[1];
        queues.computeIfPresent(
                key,
                (k, l) -> {
                    next[0] = l.queue.pollFirst();
                    l.inFlight = next[0];
                    return next[0] == null ? null : l;
                });
        return next[0];
    }

    // ------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    private M targetOf(Pending p) {
        return (M) p.target;
    }

    private void execute(Runnable task, Pending p) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            p.future.completeExceptionally(closedException());
        }
    }

    private Cancellable schedule(Runnable task, long delayMillis, Pending p) {
        try {
            return scheduler.schedule(task, delayMillis);
        } catch (RejectedExecutionException e) {
            p.future.completeExceptionally(closedException());
            return null;
        }
    }

    private static void cancel(Cancellable f) {
        if (f != null) {
            f.cancel();
        }
    }

    private CommandTimeoutException timeoutOf(Pending p) {
        return new CommandTimeoutException(
                "no final admission for "
                        + p.env.commandKind()
                        + " to "
                        + p.key
                        + " before its deadline after "
                        + p.attempts
                        + " attempt(s); last answer: "
                        + (p.lastAck == null ? "none" : p.lastAck),
                p.attempts,
                p.lastAck,
                p.lastFailure);
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

    private enum Admission {
        START,
        QUEUED,
        FULL
    }

    /**
     * One send. Threading: {@code admission} is written inside the queue's {@code compute} by the
     * sending thread and read by it; every other mutable field belongs to the sender thread.
     */
    private static final class Pending {
        final Object target;
        final TargetKey key;
        final SourceCommandEnvelope env;
        final byte[] frame;
        final long deadlineMillis;
        final CompletableFuture<AdmissionAck> future;
        Admission admission;
        final RetryPolicy.Backoff backoff;
        int attempts;
        boolean finished;
        AdmissionAck lastAck;
        Throwable lastFailure;
        Cancellable deadlineTimer;
        Cancellable retryTimer;

        Pending(
                Object target,
                TargetKey key,
                SourceCommandEnvelope env,
                byte[] frame,
                long deadlineMillis,
                CompletableFuture<AdmissionAck> future,
                RetryPolicy.Backoff backoff) {
            this.target = target;
            this.key = key;
            this.backoff = backoff;
            this.env = env;
            this.frame = frame;
            this.deadlineMillis = deadlineMillis;
            this.future = future;
        }
    }

    /**
     * The single-flight queue of one target. Threading: guarded by its bin of {@link #queues}: read
     * and written only inside {@code compute}/{@code computeIfPresent}.
     */
    private static final class TargetQueue {
        final ArrayDeque<Pending> queue = new ArrayDeque<>();
        Pending inFlight;
    }

    private static final class TargetKey {
        final Object target;
        final long sourceRuntimeId;
        final int subtask;

        TargetKey(Object target, long sourceRuntimeId, int subtask) {
            this.target = target;
            this.sourceRuntimeId = sourceRuntimeId;
            this.subtask = subtask;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof TargetKey)) {
                return false;
            }
            TargetKey k = (TargetKey) o;
            return sourceRuntimeId == k.sourceRuntimeId
                    && subtask == k.subtask
                    && target.equals(k.target);
        }

        @Override
        public int hashCode() {
            return (target.hashCode() * 31 + Long.hashCode(sourceRuntimeId)) * 31 + subtask;
        }

        @Override
        public String toString() {
            return target + "/source " + sourceRuntimeId + "/subtask " + subtask;
        }
    }
}
