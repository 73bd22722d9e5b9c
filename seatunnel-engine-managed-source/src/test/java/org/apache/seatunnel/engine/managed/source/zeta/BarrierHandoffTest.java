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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.BarrierCohort;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.junit.jupiter.api.Test;

/**
 * The task thread's side of the barrier handoff: with no announcement it does not wait; with one it
 * waits, lock released, until the barrier thread reports the barrier taken (woken by the loop's
 * signal), or the attempt ends, or the handoff timeout passes, after which that announcement no
 * longer holds turns back; announcements of barriers already taken are dropped without a wait. Only
 * a reader whose last turn left work steps aside; one that last waited for data has the
 * announcement withdrawn instead.
 */
class BarrierHandoffTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final LoopSignal signal = new LoopSignal();
    private final ReaderMailbox mailbox =
            new ReaderMailbox(
                    1,
                    2,
                    0,
                    3,
                    MailboxLimits.defaults(),
                    new WorkerMailboxBudget(64L << 20),
                    NanoClock.SYSTEM,
                    signal,
                    new ReaderMailboxMetrics());
    private final BackpressureMetrics metrics = new BackpressureMetrics();

    private BarrierHandoff handoff(long timeout, TimeUnit unit) {
        return new BarrierHandoff(mailbox, signal, unit.toNanos(timeout), metrics);
    }

    /** What the barrier thread does once it took a barrier, as {@code ReaderAttempt} does. */
    private void takeBarrier(long checkpointId) {
        if (!mailbox.barriers().markTaken(checkpointId)) {
            signal.signal();
        }
    }

    @Test
    void withoutAnAnnouncementNothingWaits() {
        assertFalse(handoff(1, TimeUnit.HOURS).awaitAnnouncedBarrier());
        assertEquals(0, metrics.barrierHandoffs());
    }

    @Test
    void theTaskThreadWaitsUntilTheAnnouncedBarrierIsTaken() throws Exception {
        BarrierHandoff h = handoff(1, TimeUnit.HOURS);
        mailbox.barriers().announce(4);
        CompletableFuture<Boolean> waited = new CompletableFuture<>();
        Thread t = new Thread(() -> waited.complete(h.awaitAnnouncedBarrier()), "task-thread");
        t.start();
        // Parked in the handoff (an hour's bound), and still parked after an unrelated wakeup.
        await().atMost(BOUND).until(() -> t.getState() == Thread.State.TIMED_WAITING);
        signal.signal();
        await().atMost(BOUND).until(() -> t.getState() == Thread.State.TIMED_WAITING);
        assertFalse(waited.isDone());
        takeBarrier(4);
        assertTrue(waited.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        t.join(BOUND.toMillis());
        assertEquals(1, metrics.barrierHandoffs());
        assertEquals(0, metrics.barrierHandoffTimeouts());
        assertTrue(metrics.barrierHandoffWaitNanos() > 0);
        assertFalse(mailbox.isBarrierAnnounced(), "taking the barrier withdrew the announcement");
        assertFalse(h.awaitAnnouncedBarrier(), "nothing left to wait for");
    }

    @Test
    void aBarrierThatNeverComesReleasesTheReaderAfterTheTimeout() {
        BarrierHandoff h = handoff(20, TimeUnit.MILLISECONDS);
        mailbox.barriers().announce(9);
        assertTrue(h.awaitAnnouncedBarrier());
        assertEquals(1, metrics.barrierHandoffTimeouts());
        assertEquals(0, metrics.barrierHandoffs());
        assertFalse(mailbox.isBarrierAnnounced(), "turns are no longer held back");
        // Announcing the same checkpoint again does not make the reader wait a second time.
        mailbox.barriers().announce(9);
        assertFalse(h.awaitAnnouncedBarrier());
        // A newer checkpoint is waited for again.
        mailbox.barriers().announce(10);
        assertTrue(h.awaitAnnouncedBarrier());
        assertEquals(2, metrics.barrierHandoffTimeouts());
    }

    private ReaderMailbox otherReader() {
        return new ReaderMailbox(
                1,
                2,
                1,
                5,
                MailboxLimits.defaults(),
                new WorkerMailboxBudget(64L << 20),
                NanoClock.SYSTEM,
                new LoopSignal(),
                new ReaderMailboxMetrics());
    }

    /**
     * Announces {@code checkpointId} to this reader and {@code other} as one cohort and returns a
     * task thread parked in the handoff for it, whose result completes {@code waited}.
     */
    private Thread waitingInACohort(
            BarrierHandoff h,
            long checkpointId,
            ReaderMailbox other,
            CompletableFuture<Boolean> waited) {
        BarrierCohort cohort = new BarrierCohort(checkpointId, Arrays.asList(mailbox, other));
        mailbox.announceBarrier(checkpointId, cohort);
        other.announceBarrier(checkpointId, cohort);
        Thread t = new Thread(() -> waited.complete(h.awaitAnnouncedBarrier()), "task-thread");
        t.start();
        await().atMost(BOUND).until(() -> t.getState() == Thread.State.TIMED_WAITING);
        return t;
    }

    @Test
    void afterItsBarrierTheTaskThreadWaitsUntilTheOtherReadersOfItsMemberTookTheirs()
            throws Exception {
        ReaderMailbox other = otherReader();
        CompletableFuture<Boolean> waited = new CompletableFuture<>();
        Thread t = waitingInACohort(handoff(1, TimeUnit.HOURS), 4, other, waited);
        takeBarrier(4);
        assertFalse(waited.isDone(), "its own barrier is taken, the other reader's is not");
        other.barriers().markTaken(4);
        assertTrue(waited.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        t.join(BOUND.toMillis());
        assertEquals(1, metrics.barrierCohortWaits(), "held past its own barrier");
        assertEquals(1, metrics.barrierHandoffs());
        assertEquals(0, metrics.barrierCohortTimeouts());
        assertEquals(0, metrics.barrierHandoffTimeouts());
    }

    @Test
    void aCohortThatNeverCompletesHoldsTheReaderOnlyUntilTheHandoffTimeout() {
        CompletableFuture<Boolean> waited = new CompletableFuture<>();
        // Long enough for the test to take the barrier while the task thread waits for it.
        waitingInACohort(handoff(1, TimeUnit.SECONDS), 3, otherReader(), waited);
        // Its own barrier is taken; the other reader's never comes (its checkpoint was declined).
        takeBarrier(3);
        await().atMost(BOUND).until(waited::isDone);
        assertEquals(1, metrics.barrierHandoffs());
        assertEquals(1, metrics.barrierCohortWaits());
        assertEquals(1, metrics.barrierCohortTimeouts(), "ended by reader.barrier-handoff-timeout");
        assertEquals(0, metrics.barrierHandoffTimeouts());
    }

    @Test
    void aTerminatedAttemptStopsWaiting() {
        BarrierHandoff h = handoff(1, TimeUnit.HOURS);
        mailbox.barriers().announce(2);
        mailbox.terminate(TerminalSignal.cancel());
        assertTrue(h.awaitAnnouncedBarrier());
        assertEquals(0, metrics.barrierHandoffs());
        assertEquals(0, metrics.barrierHandoffTimeouts());
    }

    @Test
    void aLateAnnouncementOfATakenBarrierIsDroppedWithoutWaiting() {
        BarrierHandoff h = handoff(1, TimeUnit.HOURS);
        mailbox.barriers().markTaken(6);
        mailbox.barriers().announce(6);
        assertFalse(mailbox.isBarrierAnnounced());
        assertFalse(h.awaitAnnouncedBarrier());
    }

    @Test
    void aReaderThatLastWaitedForDataDoesNotStepAsideAndItsTurnDoesNotYield() {
        // A short bound: a reader that stepped aside would return true once it passed.
        BarrierHandoff h = handoff(50, TimeUnit.MILLISECONDS);
        h.readerIdled();
        mailbox.barriers().announce(3);
        assertFalse(h.awaitAnnouncedBarrier(), "no wait: its one turn ends with its data");
        assertFalse(mailbox.isBarrierAnnounced(), "withdrawn, so that turn does not yield");
        assertEquals(0, metrics.barrierHandoffs());
        assertEquals(0, metrics.barrierHandoffTimeouts());
        // A turn that ended with nothing left is the same.
        h.turnEnded(false);
        mailbox.barriers().announce(4);
        assertFalse(h.awaitAnnouncedBarrier());
        assertFalse(mailbox.isBarrierAnnounced());
    }

    @Test
    void aReaderWhoseLastTurnLeftWorkStepsAsideAgain() {
        BarrierHandoff h = handoff(20, TimeUnit.MILLISECONDS);
        h.readerIdled();
        h.turnEnded(true);
        mailbox.barriers().announce(5);
        // Waits (here until the bound: the barrier never comes).
        assertTrue(h.awaitAnnouncedBarrier());
        assertEquals(1, metrics.barrierHandoffTimeouts());
    }

    @Test
    void aZeroTimeoutTurnsTheHandoffOff() {
        BarrierHandoff h = handoff(0, TimeUnit.MILLISECONDS);
        mailbox.barriers().announce(1);
        assertFalse(h.awaitAnnouncedBarrier());
        assertFalse(mailbox.isBarrierAnnounced());
    }
}
