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

package org.apache.seatunnel.engine.managed.source.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a body of queued work one drain at a time, on a shared executor or on a caller that takes
 * the work over: the serial core of an event loop, without the loop's work itself.
 *
 * <p>Threading: {@link #schedule} and {@link #runOnCaller} may be called from any thread. Whoever
 * wins the drain claim (an executor task or a caller) is the only thread running the body until it
 * releases the claim, and is the {@link #owner()} meanwhile; each release happens-before the next
 * claim (the claim is a compare-and-set on one atomic). The body must not block.
 *
 * <p>Why a caller may take the work over: a thread that needs one answer from the loop (an engine
 * checkpoint asking for a snapshot) spares two thread hops by draining itself when no drain runs; a
 * drain scheduled but not started is claimed from under the executor, whose task then finds the
 * work taken and returns. A caller that cannot claim registers as the {@link #handoffWaiter} and is
 * unparked when the running drain releases.
 */
public final class SerialExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);
    private static final int IDLE = 0;
    private static final int SCHEDULED = 1;
    private static final int RUNNING = 2;

    /** The work a drain runs. Called only by the thread that holds the claim. */
    public interface Body {
        /**
         * Runs at most {@code budget} units of queued work. A caller's drain passes its answer
         * ({@code until}, else null) and deadline: the body stops between units once either is
         * reached.
         */
        void drain(int budget, CompletableFuture<?> until, long deadlineNanos);

        /** Whether work is left after a drain released the claim: then another is scheduled. */
        boolean hasWork();
    }

    private final String name;
    private final Executor executor;
    private final int batch;
    private final ClassLoader contextClassLoader;
    private final Body body;
    private final OwnerThread owner;
    // IDLE, SCHEDULED (a drain task is queued on the executor) or RUNNING (someone holds the
    // claim).
    private final AtomicInteger drainState = new AtomicInteger(IDLE);
    private final Runnable drainTask = this::runDrainTask;
    private final AtomicReference<Thread> handoffWaiter = new AtomicReference<>();

    /**
     * @param name what runs here, for logs and owner-thread errors
     * @param batch the units an executor drain runs before it yields the executor
     * @param contextClassLoader set on the draining thread for the body, restored after
     */
    public SerialExecutor(
            String name, Executor executor, int batch, ClassLoader contextClassLoader, Body body) {
        this.name = name;
        this.executor = executor;
        this.batch = batch;
        this.contextClassLoader = contextClassLoader;
        this.body = body;
        this.owner = new OwnerThread(name);
    }

    /** The thread holding the claim while a drain runs; unbound between drains. */
    public OwnerThread owner() {
        return owner;
    }

    /**
     * Queues a drain task unless one is queued or running. Invariant: while the state is SCHEDULED
     * at least one drain task is queued on the executor (a caller that claims a SCHEDULED executor
     * leaves an extra task behind, which later finds the work taken or idle and is harmless).
     */
    public void schedule() {
        if (drainState.compareAndSet(IDLE, SCHEDULED)) {
            try {
                executor.execute(drainTask);
            } catch (RejectedExecutionException e) {
                drainState.compareAndSet(SCHEDULED, IDLE);
                if (executor instanceof ExecutorService
                        && ((ExecutorService) executor).isShutdown()) {
                    // The member is shutting down and closed what ran here first (or gave up
                    // after its close timeout), so there is nothing left to run.
                    LOG.debug("{}: executor shut down", name);
                } else {
                    LOG.error("{}: the executor refused the drain task", name, e);
                }
            }
        }
    }

    /**
     * Drains on the calling thread until {@code until} is done or {@code deadlineNanos} passes, if
     * the claim is free.
     *
     * @return false when another thread holds the claim (nothing ran)
     */
    public boolean runOnCaller(CompletableFuture<?> until, long deadlineNanos) {
        if (!tryClaim()) {
            return false;
        }
        drainClaimed(Integer.MAX_VALUE, until, deadlineNanos);
        return true;
    }

    /**
     * Makes {@code waiter} the thread unparked when a drain releases the claim.
     *
     * @return false when another thread waits already (then poll instead of parking)
     */
    public boolean registerHandoffWaiter(Thread waiter) {
        return handoffWaiter.compareAndSet(null, waiter);
    }

    /** Ends {@code waiter}'s registration. */
    public void clearHandoffWaiter(Thread waiter) {
        handoffWaiter.compareAndSet(waiter, null);
    }

    private boolean tryClaim() {
        for (; ; ) {
            int s = drainState.get();
            if (s == RUNNING) {
                return false;
            }
            if (drainState.compareAndSet(s, RUNNING)) {
                return true;
            }
        }
    }

    /** The executor's task: a stale one (its drain was claimed by a caller) may find no work. */
    private void runDrainTask() {
        if (tryClaim()) {
            drainClaimed(batch, null, 0);
        }
    }

    /**
     * One bounded pass by the claiming thread; if work is left, reschedules instead of looping so
     * others on a shared executor get their turn.
     */
    private void drainClaimed(int budget, CompletableFuture<?> until, long deadlineNanos) {
        Thread t = Thread.currentThread();
        owner.bind();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(contextClassLoader);
        try {
            body.drain(budget, until, deadlineNanos);
        } finally {
            t.setContextClassLoader(previous);
            owner.unbind();
            drainState.set(IDLE);
        }
        Thread waiting = handoffWaiter.get();
        if (waiting != null && waiting != t) {
            LockSupport.unpark(waiting);
        }
        if (body.hasWork()) {
            schedule();
        }
    }
}
