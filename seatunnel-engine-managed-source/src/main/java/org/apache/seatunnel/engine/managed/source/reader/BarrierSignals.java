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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The barrier signals of one reader attempt, kept beside its {@link ReaderMailbox} rather than in
 * it: the announcement that a barrier is on its way, the highest barrier taken, the {@link
 * BarrierCohort} the reader belongs to and whether its driver waits in the barrier handoff. None of
 * them is a queued command; they let a running turn yield and the driver step aside so the engine's
 * barrier thread gets the reader's lock at once.
 *
 * <p>Threading: {@link #announce}, the reads and {@link #wakeDriverInHandoff} may be called from
 * any thread and never block; {@link #markTaken} by the one thread that takes barriers, holding the
 * reader's lock; {@link #handoffWaiting} and {@link #withdraw} by the driving thread (and the
 * barrier thread through {@link #markTaken}). Every field is atomic or volatile, written with the
 * orderings the methods describe.
 */
public final class BarrierSignals {
    private final ReaderMailbox mailbox;
    private final LoopSignal signal;

    // The highest checkpoint announced and the highest taken; the flag tells a running turn to
    // yield and is raised again by a newer announcement racing with its withdrawal.
    private final AtomicLong announced = new AtomicLong();
    private volatile long taken;
    private volatile boolean yieldRequested;
    // The cohort of the newest announcement that came with one (see BarrierCohort).
    private final AtomicReference<BarrierCohort> cohort = new AtomicReference<>();
    // The driver waits in the barrier handoff (see handoffWaiting).
    private volatile boolean handoffWaiting;

    BarrierSignals(ReaderMailbox mailbox, LoopSignal signal) {
        this.mailbox = mailbox;
        this.signal = signal;
    }

    /**
     * Tells the reader that barrier {@code checkpointId} is on its way (the coordinator snapshotted
     * it) before the engine's barrier thread blocks on the lock the reader holds during a turn: a
     * running turn yields, and the host steps aside instead of re-entering the lock. Advisory only;
     * an announcement of a barrier already taken or older than another one is ignored. Any thread,
     * never blocks.
     */
    public void announce(long checkpointId) {
        announce(checkpointId, null);
    }

    /**
     * {@link #announce(long)} as a member of {@code c}, the readers of this source on this member
     * announced the same checkpoint. A barrier taken before the announcement counts as taken for
     * the cohort at once. The cohort is published before the taken barrier is read, and {@link
     * #markTaken} writes the taken barrier before it reads the cohort, so a barrier taken while
     * this runs is counted by one of the two (or both: counting is idempotent).
     */
    public void announce(long checkpointId, BarrierCohort c) {
        if (c != null) {
            cohort.accumulateAndGet(
                    c,
                    (old, now) ->
                            old == null || now.checkpointId() > old.checkpointId() ? now : old);
        }
        if (checkpointId <= taken) {
            if (c != null) {
                c.took(mailbox);
            }
            return;
        }
        for (; ; ) {
            long a = announced.get();
            if (checkpointId <= a) {
                return;
            }
            if (announced.compareAndSet(a, checkpointId)) {
                break;
            }
        }
        // The flag alone: a turn reads it through shouldYield and the driver before it takes the
        // lock again. A driver waiting (idle, or for output room) does not hold the lock, so waking
        // it would only make it wait again, and on a member whose readers all wait that is one
        // wake-up per reader competing with the thread that delivers their barriers.
        yieldRequested = true;
    }

    /**
     * The cohort of checkpoint {@code checkpointId} this reader belongs to, or null. Any thread.
     */
    public BarrierCohort cohort(long checkpointId) {
        BarrierCohort c = cohort.get();
        return c != null && c.checkpointId() == checkpointId ? c : null;
    }

    /**
     * The driver begins ({@code true}) or ends a wait in the barrier handoff, the only wait a
     * completed cohort wakes. Driving thread only; set before it looks at the cohort.
     */
    public void handoffWaiting(boolean waiting) {
        handoffWaiting = waiting;
    }

    /** Wakes the driver if it waits in the barrier handoff (a cohort completed). Any thread. */
    void wakeDriverInHandoff() {
        if (handoffWaiting) {
            signal.signal();
        }
    }

    /** The highest announced checkpoint, 0 if none. Any thread. */
    public long announced() {
        return announced.get();
    }

    /** The highest checkpoint whose barrier the host reported taken. Any thread. */
    public long taken() {
        return taken;
    }

    /** True while an announcement asks running turns to yield. Any thread; approximate. */
    public boolean isAnnounced() {
        return yieldRequested;
    }

    /**
     * The host took barrier {@code checkpointId} (or gave up on it): announcements up to it are
     * answered. Called by the one thread that takes barriers, holding the reader's lock.
     *
     * @return true if the barrier belongs to a cohort, which wakes this reader's driver, if it
     *     waits in the barrier handoff, when its last member took its barrier (now, or later)
     */
    public boolean markTaken(long checkpointId) {
        if (checkpointId > taken) {
            taken = checkpointId;
        }
        BarrierCohort c = cohort(checkpointId);
        if (c != null) {
            c.took(mailbox);
        }
        withdraw(checkpointId);
        return c != null;
    }

    /**
     * Lowers the yield flag if no announcement newer than {@code upTo} is pending. An announcement
     * racing with this call either is seen by the re-check or raises the flag after it.
     */
    public void withdraw(long upTo) {
        if (announced.get() <= upTo) {
            yieldRequested = false;
            if (announced.get() > upTo) {
                yieldRequested = true;
            }
        }
    }
}
