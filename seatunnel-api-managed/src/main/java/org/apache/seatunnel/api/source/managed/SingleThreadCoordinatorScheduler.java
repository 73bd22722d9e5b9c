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

package org.apache.seatunnel.api.source.managed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import javax.annotation.concurrent.GuardedBy;
import org.apache.seatunnel.api.source.managed.internal.KeyedCallSlots;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lane B {@link CoordinatorScheduler}: one named daemon thread runs callables, result handlers
 * and scheduled tasks, one at a time, in the order they fall due.
 *
 * <p>Threading: every public method may be called from any thread; the bookkeeping maps are guarded
 * by {@code lock}, which is never held while connector code runs. The thread's context classloader
 * is the one of the thread that created the scheduler (the enumerator's, on the engine thread that
 * called {@link ManagedEnumeratorContext#scheduler()}). Life cycle: open until {@link #close()},
 * which cancels everything pending and stops the thread; afterwards every call returns an already
 * cancelled handle.
 *
 * <p>Bounds: the executor's queue holds at most one run per scheduled key and two per async key
 * (the active call and the one coalesced behind it), plus transient rejections, so it is bounded by
 * the enumerator's own set of keys. Each key is a metric-label-like constant, never data.
 */
final class SingleThreadCoordinatorScheduler implements CoordinatorScheduler {
    private static final Logger LOG =
            LoggerFactory.getLogger(SingleThreadCoordinatorScheduler.class);

    /** Threads are named {@code seatunnel-enumerator-scheduler-<n>}. */
    static final String THREAD_NAME_PREFIX = "seatunnel-enumerator-scheduler-";

    private static final AtomicInteger THREAD_IDS = new AtomicInteger();

    private final ScheduledThreadPoolExecutor executor;
    private final String threadName;

    private final Object lock = new Object();

    // guarded by lock: the active call per key and the one coalesced behind it
    @GuardedBy("lock")
    private final KeyedCallSlots<AsyncTaskKey, Call<?>> calls = new KeyedCallSlots<>();

    // guarded by lock: the pending schedule of each key
    private final Map<AsyncTaskKey, Tick> ticks = new HashMap<>();
    // guarded by lock
    private boolean closed;

    SingleThreadCoordinatorScheduler() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        this.threadName = THREAD_NAME_PREFIX + THREAD_IDS.incrementAndGet();
        this.executor =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, threadName);
                            // A forgotten close() must not keep the JVM alive.
                            t.setDaemon(true);
                            t.setContextClassLoader(loader);
                            return t;
                        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /** The name of this scheduler's thread. */
    String threadName() {
        return threadName;
    }

    /** True once closed and the thread has ended. */
    boolean isTerminated() {
        return executor.isTerminated();
    }

    @Override
    public <T> Cancellable callAsync(
            AsyncTaskKey key,
            Callable<T> callable,
            BiConsumer<T, Throwable> resultHandler,
            AsyncTaskOptions options) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(resultHandler, "resultHandler");
        Objects.requireNonNull(options, "options");
        Call<T> call = new Call<>(key, callable, resultHandler, options);
        synchronized (lock) {
            if (closed) {
                call.cancel();
                return call;
            }
            switch (calls.admit(key, call, options.overlapPolicy())) {
                case START:
                    start(call);
                    break;
                case REJECTED:
                    RejectedExecutionException e =
                            new RejectedExecutionException(
                                    "a task with this key is queued or running");
                    executor.execute(() -> deliver(call, null, e));
                    break;
                default:
                    // Waiting behind the active call of its key (replacing an older waiter).
            }
        }
        return call;
    }

    @Override
    public Cancellable scheduleInCoordinatorThread(
            AsyncTaskKey key, Duration delay, Runnable task) {
        return schedule(key, delay, task, true);
    }

    @Override
    public Cancellable scheduleOnceInCoordinatorThread(
            AsyncTaskKey key, Duration delay, Runnable task) {
        return schedule(key, delay, task, false);
    }

    /** Cancels everything pending and stops the thread (interrupting a running task). */
    void close() {
        List<Cancellable> cancel = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            cancel.addAll(calls.clearAndTakeAll());
            cancel.addAll(ticks.values());
            ticks.clear();
        }
        for (Cancellable c : cancel) {
            c.cancel();
        }
        executor.shutdownNow();
    }

    // ------------------------------------------------------------------ calls

    /** Under lock. */
    private void start(Call<?> call) {
        executor.execute(() -> run(call));
    }

    /** Scheduler thread. */
    private <T> void run(Call<T> call) {
        if (call.isCancelled()) {
            release(call);
            return;
        }
        long started = System.nanoTime();
        T result = null;
        Throwable error = null;
        try {
            result = call.callable.call();
        } catch (Throwable t) {
            error = t;
        }
        long tookNanos = System.nanoTime() - started;
        if (error == null && tookNanos > call.options.timeout().toNanos()) {
            // Nothing could interrupt it on time (one thread); the late result is not delivered,
            // as on Lane A, and the handler learns of the timeout.
            result = null;
            error =
                    new TimeoutException(
                            "async task "
                                    + call.key
                                    + " took "
                                    + TimeUnit.NANOSECONDS.toMillis(tookNanos)
                                    + " ms, longer than its timeout "
                                    + call.options.timeout());
        }
        // The key is free before the handler runs, so the handler may submit the key again.
        release(call);
        deliver(call, result, error);
    }

    /** Scheduler thread: frees the key and starts the call coalesced behind it, if any. */
    private void release(Call<?> call) {
        synchronized (lock) {
            Call<?> next = calls.release(call.key, call);
            if (next != null && !closed) {
                start(next);
            }
        }
    }

    /** Scheduler thread. */
    private <T> void deliver(Call<T> call, T result, Throwable error) {
        synchronized (lock) {
            // Marked under the lock: a handler either started before close() or never starts.
            if (closed || !call.markDelivered()) {
                return;
            }
        }
        if (error != null
                && call.options.failurePolicy()
                        == AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR) {
            LOG.error(
                    "Async task {} failed; the stock engine has no coordinator to fail, so the"
                            + " result handler receives the failure",
                    call.key,
                    error);
        }
        try {
            call.handler.accept(result, error);
        } catch (Throwable t) {
            LOG.error("Result handler of async task {} threw", call.key, t);
        }
    }

    // ------------------------------------------------------------------ schedules

    private Tick schedule(AsyncTaskKey key, Duration delay, Runnable task, boolean repeating) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(task, "task");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        synchronized (lock) {
            Tick existing = ticks.get(key);
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
                return existing;
            }
            Tick tick = new Tick(key, delay, task, repeating);
            if (closed) {
                tick.cancel();
                return tick;
            }
            ticks.put(key, tick);
            arm(tick);
            return tick;
        }
    }

    /** Under lock. */
    private void arm(Tick tick) {
        tick.future =
                executor.schedule(() -> fire(tick), tick.delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Scheduler thread. */
    private void fire(Tick tick) {
        Runnable task;
        synchronized (lock) {
            if (closed) {
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
            task = tick.task;
        }
        boolean failed = false;
        try {
            task.run();
        } catch (Throwable t) {
            failed = true;
            LOG.error(
                    "Scheduled task {} threw{}",
                    tick.key,
                    tick.repeating ? "; its repeating schedule is cancelled" : "",
                    t);
        }
        if (!tick.repeating) {
            return;
        }
        synchronized (lock) {
            if (failed) {
                tick.cancel();
            }
            // Fixed delay: the next run is armed only after this one returned.
            if (!closed && tick.isPending()) {
                arm(tick);
            } else {
                ticks.remove(tick.key, tick);
            }
        }
    }

    // ------------------------------------------------------------------ handles

    private static final int PENDING = 0;
    private static final int CANCELLED = 1;
    private static final int DONE = 2;

    /** One asynchronous call. Threading: {@link #cancel} from any thread; state is atomic. */
    private static final class Call<T> implements Cancellable {
        final AsyncTaskKey key;
        final Callable<T> callable;
        final BiConsumer<T, Throwable> handler;
        final AsyncTaskOptions options;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        Call(
                AsyncTaskKey key,
                Callable<T> callable,
                BiConsumer<T, Throwable> handler,
                AsyncTaskOptions options) {
            this.key = key;
            this.callable = callable;
            this.handler = handler;
            this.options = options;
        }

        boolean markDelivered() {
            return state.compareAndSet(PENDING, DONE);
        }

        @Override
        public boolean cancel() {
            return state.compareAndSet(PENDING, CANCELLED);
        }

        @Override
        public boolean isCancelled() {
            return state.get() == CANCELLED;
        }
    }

    /**
     * One schedule. Threading: {@link #cancel} from any thread; {@code task} is replaced under the
     * scheduler's lock (coalescing) and read under it.
     */
    private static final class Tick implements Cancellable {
        final AsyncTaskKey key;
        final Duration delay;
        final boolean repeating;
        volatile Runnable task;
        volatile Future<?> future;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        Tick(AsyncTaskKey key, Duration delay, Runnable task, boolean repeating) {
            this.key = key;
            this.delay = delay;
            this.task = task;
            this.repeating = repeating;
        }

        boolean isPending() {
            return state.get() == PENDING;
        }

        /** One-shot only: claims the single run; false when cancelled first. */
        boolean markFired() {
            return state.compareAndSet(PENDING, DONE);
        }

        @Override
        public boolean cancel() {
            if (!state.compareAndSet(PENDING, CANCELLED)) {
                return false;
            }
            Future<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            return true;
        }

        @Override
        public boolean isCancelled() {
            return state.get() == CANCELLED;
        }
    }
}
