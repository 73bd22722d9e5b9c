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

package org.apache.seatunnel.managed.testkit.conformance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;

/**
 * A coordinator scheduler that runs nothing by itself: the test decides when the next timer fires
 * ({@link #runNextTimer()}, which moves a virtual clock to its due time) and when which
 * asynchronous call completes ({@link #completeAsync(int)}, callable and result handler on the
 * calling thread). Keys behave as documented for {@link CoordinatorScheduler}: one pending schedule
 * per key, a new one coalesces into it, a key of the other kind throws.
 *
 * <p>Threading: not thread-safe; the test thread that plays the coordinator loop calls everything,
 * and so do the tasks and handlers it runs.
 */
public final class DeterministicScheduler implements CoordinatorScheduler {
    /** Bounds what a runaway enumerator can queue here before the test fails. */
    static final int MAX_PENDING = 10_000;

    private final List<Timer> timers = new ArrayList<>();
    private final List<Async<?>> asyncs = new ArrayList<>();
    private long nowNanos;
    private long sequence;
    private boolean closed;

    @Override
    public <T> Cancellable callAsync(
            AsyncTaskKey key,
            Callable<T> callable,
            BiConsumer<T, Throwable> resultHandler,
            AsyncTaskOptions options) {
        checkOpen();
        Async<T> a = new Async<>(key, callable, resultHandler);
        asyncs.add(a);
        return a;
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

    private Cancellable schedule(AsyncTaskKey key, Duration delay, Runnable task, boolean repeat) {
        checkOpen();
        for (Timer t : timers) {
            if (t.key.equals(key)) {
                if (t.repeat != repeat) {
                    throw new IllegalStateException(
                            "key " + key + " has a pending schedule of the other kind");
                }
                t.task = task;
                return t;
            }
        }
        Timer t = new Timer(key, nowNanos + delay.toNanos(), delay.toNanos(), repeat, task);
        timers.add(t);
        return t;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the scheduler's context was closed");
        }
        if (timers.size() + asyncs.size() >= MAX_PENDING) {
            throw new IllegalStateException(
                    "more than " + MAX_PENDING + " scheduled tasks and calls pending");
        }
    }

    /** Fires the earliest due timer (ties in scheduling order); false if none is pending. */
    public boolean runNextTimer() {
        Timer next = null;
        for (Timer t : timers) {
            if (next == null || t.due < next.due || (t.due == next.due && t.seq < next.seq)) {
                next = t;
            }
        }
        if (next == null) {
            return false;
        }
        nowNanos = Math.max(nowNanos, next.due);
        if (!next.repeat) {
            // The key is free once the task starts: it may schedule itself anew.
            timers.remove(next);
            next.started = true;
        }
        next.task.run();
        if (next.repeat && !next.cancelled) {
            next.due = nowNanos + Math.max(1, next.delay);
            next.seq = ++sequence;
        }
        return true;
    }

    /** Pending asynchronous calls, oldest first. */
    public int pendingAsync() {
        return asyncs.size();
    }

    /** Pending timers (one-shot and repeating). */
    public int pendingTimers() {
        return timers.size();
    }

    /**
     * Runs the callable of pending call {@code index} (0 = oldest) and hands its result or failure
     * to its handler.
     */
    public void completeAsync(int index) {
        Async<?> a = asyncs.remove(index);
        a.complete();
    }

    /** The virtual clock: the due time of the last timer fired. */
    public long nowNanos() {
        return nowNanos;
    }

    /** Cancels everything; later calls throw. */
    void close() {
        closed = true;
        for (Timer t : timers) {
            t.cancelled = true;
        }
        for (Async<?> a : asyncs) {
            a.cancelled = true;
        }
        timers.clear();
        asyncs.clear();
    }

    /** A pending schedule. Threading: as the scheduler. */
    private final class Timer implements Cancellable {
        final AsyncTaskKey key;
        final long delay;
        final boolean repeat;
        long due;
        long seq;
        Runnable task;
        boolean cancelled;
        boolean started;

        Timer(AsyncTaskKey key, long due, long delay, boolean repeat, Runnable task) {
            this.key = key;
            this.due = due;
            this.delay = delay;
            this.repeat = repeat;
            this.task = task;
            this.seq = ++sequence;
        }

        @Override
        public boolean cancel() {
            if (cancelled || started) {
                return false;
            }
            cancelled = true;
            timers.remove(this);
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    /** A pending asynchronous call. Threading: as the scheduler. */
    private final class Async<T> implements Cancellable {
        final AsyncTaskKey key;
        final Callable<T> callable;
        final BiConsumer<T, Throwable> handler;
        boolean cancelled;
        boolean done;

        Async(AsyncTaskKey key, Callable<T> callable, BiConsumer<T, Throwable> handler) {
            this.key = key;
            this.callable = callable;
            this.handler = handler;
        }

        void complete() {
            if (cancelled) {
                return;
            }
            done = true;
            T result = null;
            Throwable failure = null;
            try {
                result = callable.call();
            } catch (Exception e) {
                failure = e;
            }
            handler.accept(result, failure);
        }

        @Override
        public boolean cancel() {
            if (cancelled || done) {
                return false;
            }
            cancelled = true;
            asyncs.remove(this);
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public String toString() {
            return "async " + key;
        }
    }
}
