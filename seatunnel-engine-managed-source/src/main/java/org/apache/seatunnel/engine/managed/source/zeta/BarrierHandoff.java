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

package org.apache.seatunnel.engine.managed.source.zeta;

import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.BarrierCohort;
import org.apache.seatunnel.engine.managed.source.reader.BarrierSignals;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * Hands the engine's checkpoint lock to an announced barrier instead of racing it for the lock.
 *
 * <p>Threading: {@link #awaitAnnouncedBarrier()} only on the task thread T, never holding the
 * checkpoint lock; the announcement arrives on any thread through {@link BarrierSignals#announce},
 * and the barrier thread reports it taken through {@link BarrierSignals#markTaken}, after which T
 * is woken through the loop's signal (a member of a cohort: once the cohort completed).
 *
 * <p>Why: Zeta's barrier thread must take the checkpoint lock before it calls {@code
 * snapshotState}, so the barrier reaches the mailbox only once the lock is free, and a Java monitor
 * is unfair: a task thread that re-takes it between turns usually wins, and the barrier waits for
 * the whole engine call. The coordinator snapshots each checkpoint before the engine sends its
 * barrier to the readers, and announces it to them then ({@code BarrierAnnouncer}); the running
 * turn yields (the announcement counts as a pending control), and T waits here, lock released,
 * until the barrier was taken, so the barrier thread gets the lock at once. The wait is bounded by
 * {@code reader.barrier-handoff-timeout}: an announced barrier may never come (a failed or declined
 * checkpoint), and then T goes on and the announcement is dropped.
 *
 * <p>Only a reader that runs turns back to back steps aside: one whose last turn left work for the
 * next. A reader that last waited for data takes the lock for one turn that ends with its data, so
 * the barrier waits at most that turn anyway; holding it instead only moves its turn (and its rows'
 * way through the next task) to the moment the barriers are through, where the engine's
 * acknowledgements and the next tasks' barrier work need the cores. For such a reader the
 * announcement is withdrawn, so that turn does not yield to it either. Measured with 16 paced
 * readers at 80,000 rows/s in all, stepping aside made each checkpoint about 0.7 ms longer.
 *
 * <p>Once its own barrier is taken, T goes on waiting, under the same bound, until every reader of
 * the source on this member that was announced the checkpoint took its barrier too ({@link
 * BarrierCohort}): the engine delivers the readers' barriers on threads of its own pool, and on a
 * member whose cores the job keeps busy, readers that resumed at once would compete with those
 * threads and stretch the checkpoint.
 */
final class BarrierHandoff {
    private final ReaderMailbox mailbox;
    private final BarrierSignals barriers;
    private final LoopSignal signal;
    private final long timeoutNanos;
    private final BackpressureMetrics metrics;

    // T only: the announcement T is waiting for, since when, and the highest it gave up on.
    private long waitingFor;
    private long waitingSince;
    private long expiredUpTo;
    // T only: the last turn left work for the next (see the class comment); until the host says
    // otherwise a reader is taken to run turns back to back.
    private boolean backToBack = true;

    BarrierHandoff(
            ReaderMailbox mailbox, LoopSignal signal, long timeoutNanos, BackpressureMetrics m) {
        this.mailbox = mailbox;
        this.barriers = mailbox.barriers();
        this.signal = signal;
        this.timeoutNanos = timeoutNanos;
        this.metrics = m;
    }

    /** The turn that just ended left work for the next one ({@code leftWork}) or not. */
    void turnEnded(boolean leftWork) {
        backToBack = leftWork;
    }

    /** The reader waited for data (or a command) with nothing to do. */
    void readerIdled() {
        backToBack = false;
    }

    /**
     * If a barrier is announced and not yet taken and the reader runs turns back to back, waits
     * until it is taken and its cohort is complete, the attempt ends, the thread is interrupted or
     * the handoff timeout (counted from the first wait for that announcement) passes. Returns at
     * once otherwise, which is the common case: one volatile read.
     *
     * @return true if it waited
     */
    boolean awaitAnnouncedBarrier() {
        if (!barriers.isAnnounced()) {
            return false;
        }
        long announced = barriers.announced();
        if (timeoutNanos <= 0
                || announced <= barriers.taken()
                || announced <= expiredUpTo
                || !backToBack) {
            // Late, stale or disabled: nothing to hand over; or a reader that last waited for
            // data, whose one turn the barrier may wait for.
            barriers.withdraw(announced);
            return false;
        }
        long start = System.nanoTime();
        if (waitingFor != announced) {
            waitingFor = announced;
            waitingSince = start;
        }
        // Announced before the cohort is looked at: a cohort completing meanwhile wakes it.
        barriers.handoffWaiting(true);
        try {
            awaitTakenAndCohort(announced, start);
        } finally {
            barriers.handoffWaiting(false);
        }
        metrics.barrierHandoffWaitNanos.addAndGet(System.nanoTime() - start);
        return true;
    }

    /**
     * The wait of {@link #awaitAnnouncedBarrier()}: until barrier {@code announced} is taken and
     * its cohort complete, or the attempt ends, the thread is interrupted or the timeout passes.
     */
    private void awaitTakenAndCohort(long announced, long start) {
        long now = start;
        boolean taken = false;
        boolean held = false;
        boolean slept = false;
        for (; ; ) {
            if (!taken && barriers.taken() >= announced) {
                taken = true;
                metrics.barrierHandoffs.incrementAndGet();
            }
            if (taken) {
                BarrierCohort cohort = barriers.cohort(announced);
                if (cohort == null) {
                    break;
                }
                if (cohort.complete()) {
                    // A cohort member is woken only when the cohort completes, so a wait that
                    // began before its own barrier was taken, not the cohort's last one, was held
                    // by the cohort too.
                    if (!held && slept && !cohort.completedBy(mailbox)) {
                        metrics.barrierCohortWaits.incrementAndGet();
                    }
                    break;
                }
                if (!held) {
                    held = true;
                    metrics.barrierCohortWaits.incrementAndGet();
                }
            }
            long left = waitingSince + timeoutNanos - now;
            if (left <= 0) {
                expiredUpTo = announced;
                if (taken) {
                    metrics.barrierCohortTimeouts.incrementAndGet();
                } else {
                    barriers.withdraw(announced);
                    metrics.barrierHandoffTimeouts.incrementAndGet();
                }
                break;
            }
            if (mailbox.terminalSignal() != null || Thread.currentThread().isInterrupted()) {
                break;
            }
            signal.await(left);
            slept = true;
            now = System.nanoTime();
        }
    }
}
