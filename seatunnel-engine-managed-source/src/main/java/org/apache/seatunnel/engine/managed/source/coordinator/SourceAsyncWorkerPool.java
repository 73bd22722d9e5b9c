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
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;

/**
 * Threading: thread-safe; one instance per member, shared by every coordinator on it. Shares are
 * created by coordinator loops; {@link CoordinatorShare#submit} is called on a loop, task
 * completion releases on a worker thread. All counters are guarded by this pool's monitor, held
 * only for a few field updates (never while running a task or calling an executor).
 *
 * <p>Runs slow enumerator work (discovery, planning) on injected executors, one per {@link
 * WorkerClass}. Bounded twice: at most {@code maxConcurrencyPerCoordinator} tasks of one
 * coordinator run at a time (so one slow source cannot take the member's workers), and at most
 * {@code queueCapacity} tasks wait member-wide; beyond that a submission is refused, never queued
 * without bound.
 */
public final class SourceAsyncWorkerPool {
    public static final int DEFAULT_MAX_CONCURRENCY_PER_COORDINATOR = 4;
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;

    /** A unit of pool work: run on a worker, or told that it never will. */
    interface PoolTask extends Runnable {
        void rejected(RejectedExecutionException cause);
    }

    private final Map<WorkerClass, Executor> executors;
    private final int queueCapacity;
    private final int maxConcurrencyPerCoordinator;

    private int queued;

    /** One executor for every worker class, default bounds. */
    public SourceAsyncWorkerPool(Executor executor) {
        this(executor, DEFAULT_QUEUE_CAPACITY, DEFAULT_MAX_CONCURRENCY_PER_COORDINATOR);
    }

    public SourceAsyncWorkerPool(
            Executor executor, int queueCapacity, int maxConcurrencyPerCoordinator) {
        this(sameForAll(executor), queueCapacity, maxConcurrencyPerCoordinator);
    }

    public SourceAsyncWorkerPool(
            Map<WorkerClass, Executor> executors,
            int queueCapacity,
            int maxConcurrencyPerCoordinator) {
        if (queueCapacity < 0 || maxConcurrencyPerCoordinator <= 0) {
            throw new IllegalArgumentException("pool bounds must be positive");
        }
        this.executors = new EnumMap<>(WorkerClass.class);
        for (WorkerClass wc : WorkerClass.values()) {
            this.executors.put(wc, Objects.requireNonNull(executors.get(wc), "executor for " + wc));
        }
        this.queueCapacity = queueCapacity;
        this.maxConcurrencyPerCoordinator = maxConcurrencyPerCoordinator;
    }

    private static Map<WorkerClass, Executor> sameForAll(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        Map<WorkerClass, Executor> m = new EnumMap<>(WorkerClass.class);
        for (WorkerClass wc : WorkerClass.values()) {
            m.put(wc, executor);
        }
        return m;
    }

    /** A new share for one coordinator. */
    public CoordinatorShare newShare() {
        return new CoordinatorShare();
    }

    public int maxConcurrencyPerCoordinator() {
        return maxConcurrencyPerCoordinator;
    }

    /** Tasks waiting member-wide (approximate under concurrency; exact when quiescent). */
    public synchronized int queuedTasks() {
        return queued;
    }

    /** One coordinator's share of the pool. Threading: as the pool. */
    public final class CoordinatorShare {
        private final ArrayDeque<PoolTask> waiting = new ArrayDeque<>();
        private final ArrayDeque<WorkerClass> waitingClasses = new ArrayDeque<>();
        private int running;

        private CoordinatorShare() {}

        /**
         * Runs {@code task} now or queues it. Returns false, without calling the task, when the
         * member-wide queue is full or the executor refused.
         */
        boolean submit(PoolTask task, WorkerClass workerClass) {
            synchronized (SourceAsyncWorkerPool.this) {
                if (running >= maxConcurrencyPerCoordinator) {
                    if (queued >= queueCapacity) {
                        return false;
                    }
                    waiting.addLast(task);
                    waitingClasses.addLast(workerClass);
                    queued++;
                    return true;
                }
                running++;
            }
            return execute(task, workerClass);
        }

        /** Tasks of this share currently running. */
        public int running() {
            synchronized (SourceAsyncWorkerPool.this) {
                return running;
            }
        }

        private boolean execute(PoolTask task, WorkerClass workerClass) {
            try {
                executors.get(workerClass).execute(() -> runAndRelease(task));
                return true;
            } catch (RejectedExecutionException e) {
                synchronized (SourceAsyncWorkerPool.this) {
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
                synchronized (SourceAsyncWorkerPool.this) {
                    next = waiting.pollFirst();
                    wc = waitingClasses.pollFirst();
                    if (next == null) {
                        running--;
                        return;
                    }
                    queued--;
                }
                // The slot passes to `next` without being released in between.
                if (execute(next, wc)) {
                    return;
                }
                next.rejected(new RejectedExecutionException("worker executor refused the task"));
                synchronized (SourceAsyncWorkerPool.this) {
                    // execute() released the slot on refusal; take it back to try the next one.
                    running++;
                }
            }
        }
    }
}
