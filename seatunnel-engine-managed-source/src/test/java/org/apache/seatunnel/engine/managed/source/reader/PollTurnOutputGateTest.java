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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.Collector;
import org.junit.jupiter.api.Test;

/**
 * A poll turn ends where its output gate runs out of room, and yields for an announced barrier: the
 * connector's {@code shouldYield()} turns true so the engine's collector is never entered when it
 * would block, and the turn's lock is released before the barrier thread would have to race for it.
 * The gate is asked before the first record and again each time its answer runs out, with the
 * running emitted total.
 */
class PollTurnOutputGateTest {
    private final LoopHarness h = new LoopHarness();

    /** A gate that grants what its script says, one answer per call, and records the totals. */
    private static final class ScriptedGate implements OutputGate {
        final int[] answers;
        final List<Long> totals = new ArrayList<>();

        ScriptedGate(int... answers) {
            this.answers = answers;
        }

        @Override
        public int credit(long emittedTotal) {
            totals.add(emittedTotal);
            int i = totals.size() - 1;
            return i < answers.length ? answers[i] : 0;
        }
    }

    private PollTurn<Object> turn(int maxRecords) {
        PollBudget budget = LoopHarness.budget(maxRecords, Long.MAX_VALUE, 5);
        return new PollTurn<>(budget, h.clock, h.mailbox, r -> 10, new AtomicLong());
    }

    /** A greedy connector: emits while the turn lets it, as the managed reader base does. */
    private static int greedy(PollTurn<Object> turn, int bound) {
        int[] handedOn = new int[1];
        turn.begin(
                new Collector<Object>() {
                    @Override
                    public void collect(Object record) {
                        handedOn[0]++;
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return this;
                    }
                });
        Object record = new Object();
        while (handedOn[0] < bound && !turn.shouldYield()) {
            turn.collect(record);
        }
        turn.end();
        return handedOn[0];
    }

    @Test
    void aTurnEmitsNothingWhenTheOutputHasNoRoom() {
        PollTurn<Object> turn = turn(1000);
        turn.setOutputGate(new ScriptedGate(0));
        assertEquals(0, greedy(turn, 1000));
    }

    @Test
    void aTurnStopsExactlyWhereTheGrantedRoomRunsOut() {
        PollTurn<Object> turn = turn(1000);
        ScriptedGate gate = new ScriptedGate(5, 0);
        turn.setOutputGate(gate);
        assertEquals(5, greedy(turn, 1000));
        assertEquals(List.of(0L, 5L), gate.totals, "asked at the start and when room ran out");
    }

    @Test
    void theGateIsAskedAgainWhenItsAnswerRunsOutAndSeesTheRunningTotal() {
        PollTurn<Object> turn = turn(1000);
        ScriptedGate gate = new ScriptedGate(3, 20, 7, 0, 4, 0);
        turn.setOutputGate(gate);
        assertEquals(30, greedy(turn, 1000));
        // The next turn starts from the total the first one emitted.
        assertEquals(4, greedy(turn, 1000));
        assertEquals(List.of(0L, 3L, 23L, 30L, 30L, 34L), gate.totals);
    }

    @Test
    void theRecordBudgetStillEndsATurnWithRoomToSpare() {
        PollTurn<Object> turn = turn(50);
        turn.setOutputGate(new ScriptedGate(Integer.MAX_VALUE));
        assertEquals(50, greedy(turn, 1000));
    }

    @Test
    void anAnnouncedBarrierEndsTheTurnUntilItIsTaken() {
        PollTurn<Object> turn = turn(1000);
        h.mailbox.barriers().announce(3);
        assertTrue(h.mailbox.hasPendingControlOrTerminal());
        assertEquals(0, greedy(turn, 1000), "yields at its first look at the mailbox");
        h.mailbox.barriers().markTaken(3);
        assertFalse(h.mailbox.hasPendingControlOrTerminal());
        assertEquals(1000, greedy(turn, 1000));
    }

    @Test
    void announcementsOfTakenOrOlderBarriersAreIgnored() {
        h.mailbox.barriers().markTaken(5);
        h.mailbox.barriers().announce(5);
        h.mailbox.barriers().announce(4);
        assertFalse(h.mailbox.isBarrierAnnounced());
        h.mailbox.barriers().announce(7);
        h.mailbox.barriers().announce(6);
        assertEquals(7, h.mailbox.announcedBarrier());
        // Taking 6 leaves 7 pending.
        h.mailbox.barriers().markTaken(6);
        assertTrue(h.mailbox.isBarrierAnnounced());
        h.mailbox.barriers().markTaken(7);
        assertFalse(h.mailbox.isBarrierAnnounced());
    }
}
