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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * When a reader host yields between turns ({@link TurnYields}): every turn while a checkpoint it
 * cut is in flight or the next one is due (by the last gap between barriers or the job's interval),
 * every fourth turn in between when the job checkpoints, never for a job without checkpoints (the
 * engine yields after each call), and only on a member with more Lane A readers than cores. Driven
 * by a hand-stepped clock.
 */
class TurnYieldsTest {
    private final ManualClock clock = new ManualClock();
    private final TurnYields yields = new TurnYields(clock);

    @Test
    void withoutCheckpointsNoTurnYields() {
        for (int turn = 1; turn <= 64; turn++) {
            assertFalse(yields.yieldAfter(0, false), "turn " + turn);
            clock.advanceMillis(10);
        }
    }

    @Test
    void everyTurnYieldsWhileTheCheckpointOfATakenBarrierIsNotComplete() {
        for (int turn = 1; turn <= 16; turn++) {
            assertTrue(yields.yieldAfter(7, true), "turn " + turn);
        }
        // Heard complete, and the next one not due (one barrier seen, so no gap is known).
        assertFalse(yields.yieldAfter(7, false));
    }

    @Test
    void theLastQuarterOfTheBarrierGapBeforeTheNextBarrierYieldsEveryTurn() {
        // Barriers 1 and 2 one second apart: the gap is learnt.
        yields.yieldAfter(1, true);
        clock.advanceMillis(1000);
        yields.yieldAfter(2, true);
        assertEquals(1_000_000_000L, yields.gapNanos());
        // Complete, early in the next gap: no yield.
        clock.advanceMillis(100);
        assertFalse(yields.yieldAfter(2, false));
        clock.advanceMillis(640);
        assertFalse(yields.yieldAfter(2, false), "740 ms into a 1,000 ms gap");
        clock.advanceMillis(10);
        assertTrue(yields.yieldAfter(2, false), "750 ms: the next checkpoint is due");
        // Late: still every turn until the next barrier comes.
        clock.advanceMillis(2000);
        assertTrue(yields.yieldAfter(2, false));
    }

    @Test
    void aBarrierFirstSeenOnAQuietTurnStillStartsTheGap() {
        yields.yieldAfter(1, false);
        clock.advanceMillis(400);
        assertFalse(yields.yieldAfter(2, false), "the turn that sees barrier 2");
        assertEquals(400_000_000L, yields.gapNanos());
        clock.advanceMillis(299);
        assertFalse(yields.yieldAfter(2, false));
        clock.advanceMillis(1);
        assertTrue(yields.yieldAfter(2, false));
    }

    @Test
    void withTheJobsIntervalTheFirstCheckpointIsDueBeforeAnyBarrier() {
        TurnYields withInterval = new TurnYields(clock, 1_000_000_000L, TurnYields.ALWAYS_CROWDED);
        clock.advanceMillis(749);
        assertFalse(withInterval.yieldAfter(0, false), "749 ms after the start");
        clock.advanceMillis(1);
        assertTrue(withInterval.yieldAfter(0, false), "750 ms: the first checkpoint is due");
        // Without the interval the same reader would not know it before two barriers.
        assertFalse(yields.yieldAfter(0, false));
    }

    @Test
    void aLateCheckpointDoesNotPushTheNextDueTimeBeyondTheInterval() {
        TurnYields withInterval = new TurnYields(clock, 1_000_000_000L, TurnYields.ALWAYS_CROWDED);
        withInterval.yieldAfter(1, true);
        // The engine was starved: the next barrier came 4 s later.
        clock.advanceMillis(4000);
        withInterval.yieldAfter(2, true);
        assertEquals(4_000_000_000L, withInterval.gapNanos());
        clock.advanceMillis(750);
        assertTrue(withInterval.yieldAfter(2, false), "due by the interval, not at 3 s");
        // A job checkpointing more often than it says (a gap of 400 ms) is due by the gap.
        TurnYields often = new TurnYields(clock, 1_000_000_000L, TurnYields.ALWAYS_CROWDED);
        often.yieldAfter(5, false);
        clock.advanceMillis(400);
        often.yieldAfter(6, false);
        clock.advanceMillis(300);
        assertTrue(often.yieldAfter(6, false));
    }

    @Test
    void aMemberWithNoMoreReadersThanCoresNeverYieldsYetKeepsTheGap() {
        AtomicInteger readers = new AtomicInteger(2);
        TurnYields yields =
                new TurnYields(
                        clock,
                        1_000_000_000L,
                        ReaderDriver.crowdedWhenReadersExceed(2, readers::get));
        clock.advanceMillis(800);
        assertFalse(yields.yieldAfter(0, false), "due, but two readers on two cores");
        assertFalse(yields.yieldAfter(1, true), "in flight, but two readers on two cores");
        clock.advanceMillis(400);
        assertFalse(yields.yieldAfter(2, true));
        assertEquals(400_000_000L, yields.gapNanos(), "the gap is learnt all the same");
        // A third reader opens on the member: the rules apply from the next turn.
        readers.set(3);
        assertTrue(yields.yieldAfter(2, true), "in flight, three readers on two cores");
        clock.advanceMillis(100);
        assertFalse(yields.yieldAfter(2, false), "complete and not due yet");
        clock.advanceMillis(200);
        assertTrue(yields.yieldAfter(2, false), "300 ms into a 400 ms gap: due");
        readers.set(2);
        assertFalse(yields.yieldAfter(2, false), "a reader closed: no longer crowded");
    }

    @Test
    void theCrowdedTestIsAskedOnlyWhenARuleWouldYield() {
        AtomicInteger asked = new AtomicInteger();
        TurnYields yields = withOneSecondInterval(asked, true);
        for (int turn = 1; turn <= 3; turn++) {
            assertFalse(yields.yieldAfter(0, false), "turn " + turn);
            clock.advanceMillis(10);
        }
        assertEquals(0, asked.get(), "three quiet turns: the member is not asked");
        assertTrue(yields.yieldAfter(0, false), "the fourth turn");
        assertEquals(1, asked.get());
        assertTrue(yields.yieldAfter(1, true));
        assertEquals(2, asked.get());
    }

    @Test
    void betweenTheWindowsACheckpointingJobsReaderYieldsEveryFourthTurn() {
        TurnYields withInterval = new TurnYields(clock, 1_000_000_000L, TurnYields.ALWAYS_CROWDED);
        assertTrue(withInterval.yieldAfter(1, true), "barrier 1 in flight");
        clock.advanceMillis(50);
        // Complete, 50 to 600 ms into the interval: neither window.
        StringBuilder pattern = new StringBuilder();
        for (int turn = 1; turn <= 12; turn++) {
            pattern.append(withInterval.yieldAfter(1, false) ? 'Y' : '.');
            clock.advanceMillis(50);
        }
        assertEquals("...Y...Y...Y", pattern.toString());
        // The due window (from 750 ms) yields every turn again, and restarts the count.
        clock.advanceMillis(100);
        assertTrue(withInterval.yieldAfter(1, false), "750 ms: due");
        assertTrue(withInterval.yieldAfter(2, true), "barrier 2 in flight");
        assertFalse(withInterval.yieldAfter(2, false), "complete: the count starts again");
    }

    @Test
    void aMemberWithNoMoreReadersThanCoresDoesNotYieldBetweenTheWindowsEither() {
        AtomicInteger asked = new AtomicInteger();
        TurnYields yields = withOneSecondInterval(asked, false);
        for (int turn = 1; turn <= 12; turn++) {
            assertFalse(yields.yieldAfter(0, false), "turn " + turn);
            clock.advanceMillis(10);
        }
        assertEquals(3, asked.get(), "asked on every fourth turn, answered not crowded");
    }

    /** A job checkpointing every second on a member that counts the crowded checks it answers. */
    private TurnYields withOneSecondInterval(AtomicInteger asked, boolean crowded) {
        return new TurnYields(
                clock,
                1_000_000_000L,
                () -> {
                    asked.incrementAndGet();
                    return crowded;
                });
    }
}
