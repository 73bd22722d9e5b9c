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

import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;

/**
 * One {@code callAsync} submission of a coordinator: its callable, its options and the single
 * outcome (delivered, cancelled or timed out) handed back to the coordinator loop.
 *
 * <p>Threading: {@link #run} on one worker thread; {@link #cancel} from any thread; the rest on the
 * owning coordinator loop. The phase is the only shared state and moves by CAS, so exactly one of
 * "delivered", "cancelled" or "timed out" wins. The worker writes result and error before its CAS
 * to RESULT_READY and before posting to the loop, which reads them after: both the CAS and the
 * loop's queue order those accesses.
 */
final class AsyncTask<T> implements Cancellable, SourceAsyncWorkerPool.PoolTask {

    /** Life of one submission; a CAS on {@link #phase} is the only way to move. */
    enum Phase {
        QUEUED,
        RUNNING,
        RESULT_READY,
        DELIVERED,
        CANCELLED,
        TIMED_OUT
    }

    final AsyncTaskKey key;
    final AsyncTaskOptions options;
    final long epoch;
    private final Callable<T> callable;
    private final BiConsumer<T, Throwable> handler;
    private final ClassLoader classLoader;
    private final CoordinatorSchedulerImpl owner;
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.QUEUED);

    private T result;
    private Throwable error;

    /**
     * Guarded by this: the worker running the callable, so an interrupt never hits another task.
     */
    private Thread runner;

    private boolean interruptedByUs;

    /** Loop-owned. */
    Cancellable timeoutHandle;

    AsyncTask(
            CoordinatorSchedulerImpl owner,
            AsyncTaskKey key,
            Callable<T> callable,
            BiConsumer<T, Throwable> handler,
            AsyncTaskOptions options,
            long epoch,
            ClassLoader classLoader) {
        this.owner = owner;
        this.key = key;
        this.callable = callable;
        this.handler = handler;
        this.options = options;
        this.epoch = epoch;
        this.classLoader = classLoader;
    }

    @Override
    public void run() {
        if (!phase.compareAndSet(Phase.QUEUED, Phase.RUNNING)) {
            owner.workerDone(this);
            return;
        }
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        synchronized (this) {
            runner = t;
        }
        T r = null;
        Throwable err = null;
        t.setContextClassLoader(classLoader);
        try {
            r = callable.call();
        } catch (Throwable e) {
            err = e;
        } finally {
            t.setContextClassLoader(previous);
            synchronized (this) {
                runner = null;
                if (interruptedByUs) {
                    // The interrupt was meant for this task only; do not leak it to the pool.
                    Thread.interrupted();
                }
            }
        }
        result = r;
        error = err;
        phase.compareAndSet(Phase.RUNNING, Phase.RESULT_READY);
        owner.workerDone(this);
    }

    @Override
    public void rejected(RejectedExecutionException cause) {
        error = cause;
        phase.compareAndSet(Phase.QUEUED, Phase.RESULT_READY);
        owner.workerDone(this);
    }

    /** Loop: the submission was refused synchronously. */
    void rejectNow(RejectedExecutionException cause) {
        error = cause;
        phase.compareAndSet(Phase.QUEUED, Phase.RESULT_READY);
    }

    @Override
    public boolean cancel() {
        while (true) {
            Phase p = phase.get();
            if (p == Phase.DELIVERED || p == Phase.CANCELLED || p == Phase.TIMED_OUT) {
                return false;
            }
            if (phase.compareAndSet(p, Phase.CANCELLED)) {
                if (p == Phase.RUNNING) {
                    interruptIfAllowed();
                }
                return true;
            }
        }
    }

    @Override
    public boolean isCancelled() {
        return phase.get() == Phase.CANCELLED;
    }

    /** Loop: the timeout fired. False if the task already has an outcome. */
    boolean markTimedOut() {
        while (true) {
            Phase p = phase.get();
            if (p == Phase.DELIVERED || p == Phase.CANCELLED || p == Phase.TIMED_OUT) {
                return false;
            }
            if (phase.compareAndSet(p, Phase.TIMED_OUT)) {
                if (p == Phase.RUNNING) {
                    interruptIfAllowed();
                }
                return true;
            }
        }
    }

    /** Loop: claims delivery of a ready result; false when cancelled or timed out first. */
    boolean markDelivered() {
        return phase.compareAndSet(Phase.RESULT_READY, Phase.DELIVERED);
    }

    Phase phase() {
        return phase.get();
    }

    T result() {
        return result;
    }

    Throwable error() {
        return error;
    }

    BiConsumer<T, Throwable> handler() {
        return handler;
    }

    private void interruptIfAllowed() {
        if (!options.cancelOnClose()) {
            return;
        }
        synchronized (this) {
            if (runner != null) {
                interruptedByUs = true;
                runner.interrupt();
            }
        }
    }
}
