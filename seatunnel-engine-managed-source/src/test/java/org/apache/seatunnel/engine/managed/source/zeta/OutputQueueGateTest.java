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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.junit.jupiter.api.Test;

/**
 * The in-flight bound toward the next task: credit is the bound less what is queued; the bound
 * starts at the queue's capacity less the slack and, once the next task's drain rate is learnt from
 * backlogged samples, becomes that rate times the target (never under {@link
 * OutputQueueGate#MIN_LIMIT}); samples of an emptied queue only raise the rate; output-blocked time
 * runs from a look that found no room to one that found some. Driven with a stepped clock.
 */
class OutputQueueGateTest {
    private static final long MS = 1_000_000L;

    private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(2048);
    private final long[] now = {1_000 * MS};
    private final NanoClock clock = () -> now[0];
    private final BackpressureMetrics metrics = new BackpressureMetrics();
    private final OutputQueueGate gate =
            new OutputQueueGate(Collections.singletonList(queue), 2048, 50 * MS, clock, metrics);
    private long emitted;

    private void emit(int rows) {
        for (int i = 0; i < rows; i++) {
            queue.add(Boolean.TRUE);
        }
        emitted += rows;
    }

    private void drain(int rows) {
        for (int i = 0; i < rows; i++) {
            queue.remove();
        }
    }

    @Test
    void creditIsTheBoundLessWhatIsQueuedAndStartsBelowTheCapacity() {
        assertEquals(2048 - 256, gate.limit());
        assertEquals(2048 - 256, gate.credit(0));
        emit(1000);
        assertEquals(2048 - 256 - 1000, gate.credit(emitted));
        assertEquals(2048 - 256, metrics.outputInFlightLimit());
    }

    @Test
    void theBoundBecomesTheDrainRateTimesTheTarget() {
        gate.credit(0);
        emit(1792);
        // The next task drains 2 rows per ms (2,000 rows/s) while the queue stays backlogged.
        for (int i = 0; i < 40; i++) {
            now[0] += 10 * MS;
            drain(20);
            gate.credit(emitted);
        }
        // 2,000 rows/s x 50 ms = 100 rows.
        assertEquals(100, gate.limit());
        assertEquals(100, metrics.outputInFlightLimit());
        assertTrue(gate.credit(emitted) <= 0, "far more than 100 rows are still queued");
        assertTrue(gate.isBlocked());
    }

    @Test
    void aSlowNextTaskGetsTheMinimumBound() {
        gate.credit(0);
        emit(500);
        for (int i = 0; i < 40; i++) {
            now[0] += 100 * MS;
            drain(1);
            gate.credit(emitted);
        }
        assertEquals(OutputQueueGate.MIN_LIMIT, gate.limit());
    }

    @Test
    void aQueueThatRanDryDoublesTheRateAndAnEmptyOneOnlyRaisesIt() {
        gate.credit(0);
        emit(820);
        // 2 rows per ms while backlogged: 100 rows at a 50 ms target.
        for (int i = 0; i < 40; i++) {
            now[0] += 10 * MS;
            drain(20);
            gate.credit(emitted);
        }
        assertEquals(20, queue.size());
        assertEquals(100, gate.limit());
        // Ran dry: the next task waited for rows, so it could take more than the estimate.
        now[0] += 10 * MS;
        drain(20);
        gate.credit(emitted);
        assertEquals(200, gate.limit());
        // Empty at both ends: a low sample says nothing about what the next task could take.
        now[0] += 10 * MS;
        emit(5);
        drain(5);
        gate.credit(emitted);
        assertEquals(200, gate.limit());
        // A refill drained at once at more than the estimate raises it to what was seen.
        now[0] += 10 * MS;
        emit(100);
        drain(100);
        gate.credit(emitted);
        // 10 rows/ms x 50 ms (rounded up from a floating-point rate).
        assertTrue(gate.limit() >= 500 && gate.limit() <= 501, "limit " + gate.limit());
    }

    @Test
    void aQueueThatRanDryAThousandTimesStillLearnsASlowerNextTask() {
        gate.credit(0);
        // A next task faster than the reader: every look after a refill finds the queue empty,
        // and each doubles the estimate; 1,100 doublings of a double pass infinity.
        for (int i = 0; i < 1_100; i++) {
            now[0] += 2 * MS;
            emit(1);
            gate.credit(emitted);
            now[0] += 2 * MS;
            drain(1);
            gate.credit(emitted);
        }
        assertEquals(2048 - 256, gate.limit());
        // Then the next task slows to 2 rows per ms behind a backlog: the bound follows it down.
        emit(1792);
        for (int i = 0; i < 80; i++) {
            now[0] += 10 * MS;
            drain(20);
            gate.credit(emitted);
        }
        // 2 rows/ms x 50 ms (rounded up from a floating-point rate).
        assertTrue(gate.limit() >= 100 && gate.limit() <= 101, "limit " + gate.limit());
    }

    @Test
    void aFastNextTaskIsWaitedForAtItsOwnRateNotTheRateThatFillsTheBound() {
        gate.credit(0);
        emit(1792);
        // The next task drains 600 rows per ms (600,000 rows/s) behind a backlog the reader
        // keeps topped up: far more than the 36 rows/ms that already give the largest bound.
        for (int i = 0; i < 40; i++) {
            now[0] += 2 * MS;
            drain(1200);
            emit(1200);
            gate.credit(emitted);
        }
        assertEquals(2048 - 256, gate.limit());
        // Down to the refill mark (three quarters of the bound): 448 rows at 600 rows/ms.
        long wait = gate.drainWaitNanos(1792 / 4);
        assertTrue(wait < MS, "waited " + wait + " ns for 448 rows at 600 rows/ms");
        assertTrue(wait >= OutputQueueGate.MIN_WAIT_NANOS);
        // A next task that drains 2 rows per ms is still waited for by its rate, up to the target.
        OutputQueueGate slow =
                new OutputQueueGate(
                        Collections.singletonList(queue), 2048, 50 * MS, clock, metrics);
        queue.clear();
        emitted = 0;
        slow.credit(0);
        emit(1792);
        for (int i = 0; i < 40; i++) {
            now[0] += 10 * MS;
            drain(20);
            slow.credit(emitted);
        }
        long slowWait = slow.drainWaitNanos(50);
        assertTrue(Math.abs(slowWait - 25 * MS) <= 1, "50 rows at 2 rows/ms: " + slowWait + " ns");
        assertEquals(50 * MS, slow.drainWaitNanos(1792), "at most the target");
    }

    @Test
    void outputBlockedTimeRunsFromNoRoomToRoom() {
        // Target 0: the bound stays at its maximum, so room is exactly capacity less slack.
        OutputQueueGate fixed =
                new OutputQueueGate(Collections.singletonList(queue), 2048, 0, clock, metrics);
        emit(1792);
        assertTrue(fixed.credit(emitted) <= 0);
        assertTrue(fixed.isBlocked());
        now[0] += 7 * MS;
        drain(10);
        assertEquals(10, fixed.credit(emitted));
        assertFalse(fixed.isBlocked());
        assertEquals(7 * MS, metrics.outputBlockedNanos());
        assertEquals(2048 - 256, fixed.limit());
    }

    @Test
    void awaitRoomReturnsOnceTheQueueIsDownToThreeQuartersOfTheBoundOrAControlIsPending() {
        LoopSignal signal = new LoopSignal();
        ReaderMailbox mailbox =
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
        emit(1792);
        gate.credit(emitted);
        // Nothing drains and the clock stands still: an announced barrier ends the wait.
        mailbox.barriers().announce(1);
        assertFalse(gate.awaitRoom(signal, mailbox, TimeUnit.HOURS.toNanos(1)));
        mailbox.barriers().markTaken(1);
        // 1,792 - 1,792 / 4 = 1,344 rows is the mark; one row above it is not enough.
        drain(1792 - 1345);
        assertFalse(gate.awaitRoom(signal, mailbox, 0));
        assertTrue(gate.isBlocked());
        drain(1);
        assertTrue(gate.awaitRoom(signal, mailbox, TimeUnit.HOURS.toNanos(1)));
        assertFalse(gate.isBlocked());
    }
}
