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

import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.apache.seatunnel.engine.managed.source.transport.MemberMetric;

/**
 * Runs coordinators' slow work (discovery, planning) on executors of its own, one per {@link
 * WorkerClass}, never on the threads that run coordinator loops, so a slow discovery cannot delay
 * any coordinator's commands or snapshots.
 *
 * <p>Bounded twice. Member-wide: each worker class's executor has its own threads and its own
 * bounded queue ({@code async-worker.*}; the member service builds them); a task it refuses is
 * rejected. Per coordinator: each coordinator takes a {@link CoordinatorShare} with its job's
 * bounds — at most {@code coordinator.async-max-concurrency} of its tasks are handed to the
 * executors at a time and at most {@code coordinator.async-queue-capacity} more wait in the share —
 * so one busy source cannot take the member's workers. A refused submission never queues without
 * bound: the scheduler hands its result handler a {@link RejectedExecutionException} (counted as
 * {@code CoordinatorAsyncRejected} per coordinator and {@code ManagedSourceAsyncRejected} per
 * member). A share is released with its coordinator ({@link CoordinatorShare#close()}).
 *
 * <p>Threading: thread-safe; one instance per member, shared by every coordinator on it. Shares are
 * created and submitted to on coordinator loops; a finished task hands its slot on from the worker
 * thread. A share's fields are guarded by the share's monitor, held only for a few field updates
 * (never while running a task or calling an executor); the member counters are atomics.
 */
public final class SourceAsyncWorkerPool {
    public static final String RUNNING = "ManagedSourceAsyncRunning";
    public static final String QUEUED = "ManagedSourceAsyncQueued";
    public static final String REJECTED = "ManagedSourceAsyncRejected";
    public static final String LANES = "ManagedSourceAsyncCoordinators";

    /** A unit of pool work: run on a worker, or told that it never will. */
    interface PoolTask extends Runnable {
        void rejected(RejectedExecutionException cause);
    }

    private final Map<WorkerClass, Executor> executors;
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicInteger openShares = new AtomicInteger();

    /** One executor for every worker class (tests, benchmarks). */
    public SourceAsyncWorkerPool(Executor executor) {
        this(sameForAll(executor));
    }

    /**
     * @param executors one per worker class, each bounded (threads and queue) and refusing with
     *     {@link RejectedExecutionException} when full
     */
    public SourceAsyncWorkerPool(Map<WorkerClass, ? extends Executor> executors) {
        this.executors = new EnumMap<>(WorkerClass.class);
        for (WorkerClass wc : WorkerClass.values()) {
            this.executors.put(wc, Objects.requireNonNull(executors.get(wc), "executor for " + wc));
        }
    }

    private static Map<WorkerClass, Executor> sameForAll(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        Map<WorkerClass, Executor> m = new EnumMap<>(WorkerClass.class);
        for (WorkerClass wc : WorkerClass.values()) {
            m.put(wc, executor);
        }
        return m;
    }

    /**
     * A new share for one coordinator: at most {@code maxConcurrency} of its tasks run at a time
     * and at most {@code queueCapacity} more wait.
     */
    public CoordinatorShare newShare(int maxConcurrency, int queueCapacity) {
        if (maxConcurrency <= 0 || queueCapacity < 0) {
            throw new IllegalArgumentException(
                    "share bounds: max concurrency "
                            + maxConcurrency
                            + " must be positive, queue "
                            + queueCapacity
                            + " must not be negative");
        }
        openShares.incrementAndGet();
        return new CoordinatorShare(maxConcurrency, queueCapacity);
    }

    /** Submissions refused member-wide and by shares, since the member started. */
    public long rejected() {
        return rejected.get();
    }

    /** Shares not yet closed: coordinators holding a share of the pool. */
    public int openShares() {
        return openShares.get();
    }

    /**
     * The member's metrics: {@code ManagedSourceAsyncRunning{Class}} and {@code
     * ManagedSourceAsyncQueued{Class}} (gauges, from executors that report them), {@code
     * ManagedSourceAsyncRejected} and {@code ManagedSourceAsyncCoordinators}.
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (MemberMetric<SourceAsyncWorkerPool> d : METRICS) {
            m.put(d.name(), d.value(this));
        }
        return m;
    }

    /** The declaration of every metric of {@link #snapshot()}: name, kind and help. */
    public static java.util.List<MemberMetric<SourceAsyncWorkerPool>> metrics() {
        return METRICS;
    }

    private static final java.util.List<MemberMetric<SourceAsyncWorkerPool>> METRICS = declare();

    private static java.util.List<MemberMetric<SourceAsyncWorkerPool>> declare() {
        java.util.List<MemberMetric<SourceAsyncWorkerPool>> l = new java.util.ArrayList<>();
        for (WorkerClass wc : WorkerClass.values()) {
            l.add(
                    MemberMetric.gauge(
                            RUNNING + pascal(wc),
                            "Async tasks running on this member's " + wc.name() + " workers",
                            p -> p.executorFigure(wc, true)));
            l.add(
                    MemberMetric.gauge(
                            QUEUED + pascal(wc),
                            "Async tasks waiting for one of this member's "
                                    + wc.name()
                                    + " workers",
                            p -> p.executorFigure(wc, false)));
        }
        l.add(
                MemberMetric.counter(
                        REJECTED,
                        "Async submissions refused on this member, by a coordinator's bounds or a"
                                + " full worker queue",
                        SourceAsyncWorkerPool::rejected));
        l.add(
                MemberMetric.gauge(
                        LANES,
                        "Coordinators holding a share of this member's async workers",
                        SourceAsyncWorkerPool::openShares));
        return java.util.Collections.unmodifiableList(l);
    }

    /** Running ({@code running}) or queued tasks of a worker class's executor, 0 if unknown. */
    private long executorFigure(WorkerClass wc, boolean running) {
        Executor e = executors.get(wc);
        if (!(e instanceof ThreadPoolExecutor)) {
            return 0;
        }
        ThreadPoolExecutor t = (ThreadPoolExecutor) e;
        return running ? t.getActiveCount() : t.getQueue().size();
    }

    private static String pascal(WorkerClass wc) {
        String n = wc.name();
        return n.charAt(0) + n.substring(1).toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * One coordinator's share of the pool.
     *
     * <p>Threading: {@link #submit} and {@link #close} on the owning coordinator loop; slots are
     * handed on from worker threads. Guarded by this share's monitor.
     */
    public final class CoordinatorShare {
        private final int maxConcurrency;
        private final int queueCapacity;
        private final ArrayDeque<PoolTask> waiting = new ArrayDeque<>();
        private final ArrayDeque<WorkerClass> waitingClasses = new ArrayDeque<>();
        private int running;
        private boolean closed;

        private CoordinatorShare(int maxConcurrency, int queueCapacity) {
            this.maxConcurrency = maxConcurrency;
            this.queueCapacity = queueCapacity;
        }

        /**
         * Runs {@code task} now or queues it. Returns false, without calling the task, when this
         * share's queue is full, the share is closed, or the member's executor refused.
         */
        boolean submit(PoolTask task, WorkerClass workerClass) {
            synchronized (this) {
                if (closed) {
                    rejected.incrementAndGet();
                    return false;
                }
                if (running >= maxConcurrency) {
                    if (waiting.size() >= queueCapacity) {
                        rejected.incrementAndGet();
                        return false;
                    }
                    waiting.addLast(task);
                    waitingClasses.addLast(workerClass);
                    return true;
                }
                running++;
            }
            return execute(task, workerClass);
        }

        /** Tasks of this share handed to the executors and not finished. */
        public synchronized int running() {
            return running;
        }

        /** Tasks of this share waiting for a slot. */
        public synchronized int queued() {
            return waiting.size();
        }

        public int maxConcurrency() {
            return maxConcurrency;
        }

        public int queueCapacity() {
            return queueCapacity;
        }

        /**
         * Releases the share with its coordinator: later submissions are refused and waiting tasks
         * are told they will never run; running ones finish (their results are fenced by the closed
         * scheduler). Idempotent.
         */
        public void close() {
            ArrayDeque<PoolTask> dropped;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                dropped = new ArrayDeque<>(waiting);
                waiting.clear();
                waitingClasses.clear();
            }
            openShares.decrementAndGet();
            for (PoolTask t : dropped) {
                t.rejected(new RejectedExecutionException("coordinator closed"));
            }
        }

        private boolean execute(PoolTask task, WorkerClass workerClass) {
            try {
                executors.get(workerClass).execute(() -> runAndRelease(task));
                return true;
            } catch (RejectedExecutionException e) {
                rejected.incrementAndGet();
                synchronized (this) {
                    running--;
                }
                return false;
            }
        }

        private void runAndRelease(PoolTask task) {
            try {
                task.run();
            } finally {
                startNext();
            }
        }

        /** Hands the finished task's slot to the next waiting task, if any. */
        private void startNext() {
            while (true) {
                PoolTask next;
                WorkerClass wc;
                synchronized (this) {
                    next = waiting.pollFirst();
                    wc = waitingClasses.pollFirst();
                    if (next == null) {
                        running--;
                        return;
                    }
                }
                // The slot passes to `next` without being released in between.
                if (execute(next, wc)) {
                    return;
                }
                next.rejected(new RejectedExecutionException("source async worker pool is full"));
                synchronized (this) {
                    // execute() released the slot on refusal; take it back to try the next one.
                    running++;
                }
            }
        }
    }
}
