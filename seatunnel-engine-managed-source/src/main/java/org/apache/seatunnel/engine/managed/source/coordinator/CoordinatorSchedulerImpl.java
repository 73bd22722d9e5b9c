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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.internal.KeyedCallSlots;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;

/**
 * Overlap per key: {@code COALESCE_ONE} keeps one submission waiting behind the active one; a newer
 * submission replaces the waiting one (its input is fresher; the replaced one is cancelled and
 * counted as {@code CoordinatorAsyncCoalesced}). {@code REJECT} refuses it. Timeouts interrupt the
 * worker when {@link AsyncTaskOptions#cancelOnClose()} allows; a result that arrives after a
 * timeout or cancellation is dropped and counted as {@code CoordinatorCancelledResults}.
 *
 * <p>Threading: {@link #callAsync}, {@link #scheduleInCoordinatorThread} and {@link
 * #scheduleOnceInCoordinatorThread} only on the owning coordinator loop (checked); all bookkeeping
 * is loop-owned. Workers and timers reach it only through {@link LoopPort#postCompletion}. One
 * instance per coordinator epoch: closing it (close or failover) fences every result that arrives
 * later, which is then dropped and counted as {@code CoordinatorStaleResults}.
 *
 * <p>Schedules: one per key, repeating (fixed delay) or one-shot; a timer only posts a {@code
 * SCHEDULER_TICK} completion, and the task runs when the loop applies it, so a tick that arrives
 * after this epoch closed is dropped and counted as stale like a late async result.
 */
public final class CoordinatorSchedulerImpl implements CoordinatorScheduler {

    private final LoopPort loop;
    private final SourceAsyncWorkerPool.CoordinatorShare poolShare;
    private final DelayScheduler timer;
    private final ClassLoader classLoader;
    private final long epoch;
    private final CoordinatorMetrics metrics;

    // Loop only: the active task per key and the one coalesced behind it.
    private final KeyedCallSlots<AsyncTaskKey, AsyncTask<?>> calls = new KeyedCallSlots<>();
    private final Set<AsyncTask<?>> live = new LinkedHashSet<>();
    private final Map<AsyncTaskKey, ScheduledTick> ticks = new HashMap<>();
    private boolean closed;

    CoordinatorSchedulerImpl(
            LoopPort loop,
            SourceAsyncWorkerPool.CoordinatorShare poolShare,
            DelayScheduler timer,
            ClassLoader classLoader,
            long epoch,
            CoordinatorMetrics metrics) {
        this.loop = loop;
        this.poolShare = poolShare;
        this.timer = timer;
        this.classLoader = classLoader;
        this.epoch = epoch;
        this.metrics = metrics;
    }

    @Override
    public <T> Cancellable callAsync(
            AsyncTaskKey key,
            Callable<T> callable,
            BiConsumer<T, Throwable> resultHandler,
            AsyncTaskOptions options) {
        loop.checkOwnerThread("callAsync");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(resultHandler, "resultHandler");
        Objects.requireNonNull(options, "options");
        AsyncTask<T> task =
                new AsyncTask<>(this, key, callable, resultHandler, options, epoch, classLoader);
        if (closed) {
            task.cancel();
            return task;
        }
        switch (calls.admit(key, task, options.overlapPolicy())) {
            case START:
                start(task);
                break;
            case REJECTED:
                metrics.increment(Counter.ASYNC_REJECTED);
                task.rejectNow(new RejectedExecutionException("a task with this key is active"));
                deliverRejection(task);
                break;
            case REPLACED:
                metrics.increment(Counter.ASYNC_COALESCED);
                break;
            default:
                // Waiting behind the active task of its key.
        }
        return task;
    }

    @Override
    public Cancellable scheduleInCoordinatorThread(
            AsyncTaskKey key, Duration delay, Runnable task) {
        loop.checkOwnerThread("scheduleInCoordinatorThread");
        return schedule(key, delay, task, true);
    }

    @Override
    public Cancellable scheduleOnceInCoordinatorThread(
            AsyncTaskKey key, Duration delay, Runnable task) {
        loop.checkOwnerThread("scheduleOnceInCoordinatorThread");
        return schedule(key, delay, task, false);
    }

    private Cancellable schedule(
            AsyncTaskKey key, Duration delay, Runnable task, boolean repeating) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(task, "task");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        ScheduledTick existing = ticks.get(key);
        if (existing != null && existing.isPending()) {
            if (existing.repeating != repeating) {
                throw new IllegalStateException(
                        "key "
                                + key
                                + " is pending as a "
                                + (existing.repeating ? "repeating" : "one-shot")
                                + " schedule");
            }
            existing.task = task;
            metrics.increment(Counter.TICKS_COALESCED);
            return existing;
        }
        ScheduledTick tick = new ScheduledTick(key, delay, task, repeating);
        ticks.put(key, tick);
        if (closed) {
            tick.cancel();
        } else {
            arm(tick);
        }
        return tick;
    }

    /** Loop: cancels every live task and tick; later results are fenced as stale. Idempotent. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (AsyncTask<?> t : calls.clearAndTakeWaiting()) {
            t.cancel();
        }
        for (AsyncTask<?> t : new ArrayList<>(live)) {
            if (t.options.cancelOnClose()) {
                t.cancel();
            }
        }
        for (ScheduledTick t : new ArrayList<>(ticks.values())) {
            t.cancel();
        }
        ticks.clear();
        // The coordinator's share of the member's workers goes back with it.
        poolShare.close();
    }

    boolean isClosed() {
        return closed;
    }

    long epoch() {
        return epoch;
    }

    // ------------------------------------------------------------------ async internals (loop)

    private void start(AsyncTask<?> task) {
        live.add(task);
        metrics.increment(Counter.ASYNC_SUBMITTED);
        task.timeoutHandle =
                timer.schedule(
                        task.options.timeout(),
                        () ->
                                loop.postCompletion(
                                        CoordinatorCommandType.ASYNC_TIMEOUT,
                                        () -> onTimeout(task)));
        if (!poolShare.submit(task, task.options.workerClass())) {
            metrics.increment(Counter.ASYNC_REJECTED);
            task.rejectNow(
                    new RejectedExecutionException(
                            "source async worker pool is full: this coordinator already has "
                                    + poolShare.running()
                                    + " task(s) running and "
                                    + poolShare.queued()
                                    + " waiting (coordinator.async-max-concurrency "
                                    + poolShare.maxConcurrency()
                                    + ", coordinator.async-queue-capacity "
                                    + poolShare.queueCapacity()
                                    + "), or the member's async-worker queue is full"));
            onWorkerDone(task);
        }
    }

    /** Worker thread: the task left the worker (ran, skipped or was refused). */
    void workerDone(AsyncTask<?> task) {
        loop.postCompletion(CoordinatorCommandType.ASYNC_RESULT, () -> onWorkerDone(task));
    }

    private <T> void onWorkerDone(AsyncTask<T> task) {
        finish(task);
        if (closed || task.epoch != epoch) {
            metrics.increment(Counter.STALE_RESULTS);
            return;
        }
        if (!task.markDelivered()) {
            metrics.increment(Counter.CANCELLED_RESULTS);
            return;
        }
        deliver(task, task.result(), task.error());
    }

    private <T> void onTimeout(AsyncTask<T> task) {
        if (closed || !task.markTimedOut()) {
            return;
        }
        metrics.increment(Counter.ASYNC_TIMEOUTS);
        // The slot in `active` is released now so the key can run again; the worker's late
        // completion only counts itself.
        releaseKey(task);
        deliver(
                task,
                null,
                new TimeoutException(
                        "async task " + task.key + " timed out after " + task.options.timeout()));
    }

    private <T> void deliverRejection(AsyncTask<T> task) {
        if (task.markDelivered()) {
            deliver(task, null, task.error());
        }
    }

    private <T> void deliver(AsyncTask<T> task, T result, Throwable error) {
        if (error != null) {
            metrics.increment(Counter.ASYNC_FAILURES);
            if (task.options.failurePolicy() == AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR) {
                loop.reportFailure("async task " + task.key, error);
                return;
            }
        }
        try {
            task.handler().accept(result, error);
        } catch (Throwable t) {
            loop.reportFailure("async result handler " + task.key, t);
        }
    }

    private void finish(AsyncTask<?> task) {
        if (task.timeoutHandle != null) {
            task.timeoutHandle.cancel();
        }
        live.remove(task);
        releaseKey(task);
    }

    /** Frees the key held by {@code task} and starts the coalesced successor, if any. */
    private void releaseKey(AsyncTask<?> task) {
        AsyncTask<?> next = calls.release(task.key, task);
        if (next != null && !closed) {
            start(next);
        }
    }

    // ------------------------------------------------------------------ ticks (loop)

    private void arm(ScheduledTick tick) {
        tick.timerHandle =
                timer.schedule(
                        tick.delay,
                        () ->
                                loop.postCompletion(
                                        CoordinatorCommandType.SCHEDULER_TICK, () -> fire(tick)));
    }

    private void fire(ScheduledTick tick) {
        if (closed) {
            metrics.increment(Counter.STALE_RESULTS);
            return;
        }
        boolean runs = tick.repeating ? tick.isPending() : tick.markFired();
        if (!tick.repeating || !runs) {
            // A one-shot frees its key before it runs, so its task may schedule the key anew.
            ticks.remove(tick.key, tick);
        }
        if (!runs) {
            return;
        }
        metrics.increment(Counter.TICKS);
        try {
            tick.task.run();
        } catch (Throwable t) {
            loop.reportFailure("scheduled task " + tick.key, t);
        }
        if (!tick.repeating) {
            return;
        }
        // Fixed delay: the next run is armed only after this one returned, so runs never overlap.
        if (tick.isPending() && !closed) {
            arm(tick);
        } else {
            ticks.remove(tick.key, tick);
        }
    }

    /**
     * One repeating or one-shot schedule. Threading: {@link #cancel} from any thread; {@code task}
     * is replaced on the loop (coalescing) and read on the loop.
     */
    static final class ScheduledTick implements Cancellable {
        private static final int PENDING = 0;
        private static final int CANCELLED = 1;
        private static final int FIRED = 2;

        final AsyncTaskKey key;
        final Duration delay;
        final boolean repeating;
        volatile Runnable task;
        volatile Cancellable timerHandle;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        ScheduledTick(AsyncTaskKey key, Duration delay, Runnable task, boolean repeating) {
            this.key = key;
            this.delay = delay;
            this.task = task;
            this.repeating = repeating;
        }

        boolean isPending() {
            return state.get() == PENDING;
        }

        /** One-shot only: claims its single run; false when it was cancelled first. */
        boolean markFired() {
            return state.compareAndSet(PENDING, FIRED);
        }

        @Override
        public boolean cancel() {
            if (!state.compareAndSet(PENDING, CANCELLED)) {
                return false;
            }
            Cancellable h = timerHandle;
            if (h != null) {
                h.cancel();
            }
            return true;
        }

        @Override
        public boolean isCancelled() {
            return state.get() == CANCELLED;
        }
    }
}
