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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Every transition of the schema-change sub-state machine, and every refusal with its reason: the
 * table in {@link SchemaChangePhase}, the events of {@link SchemaChangeGate} that drive it, stale
 * and repeated callbacks (ignored and counted), and the failures STIP-31 makes fatal.
 */
class SchemaChangeGateTest {
    private static final ReaderIdentity ID = new ReaderIdentity("Test", 7, "job", 0);
    private final ManualClock clock = new ManualClock();
    private final ReaderLoopMetrics metrics = new ReaderLoopMetrics();
    private final SchemaChangeGate gate = new SchemaChangeGate(ID, clock, metrics, 60_000_000_000L);

    @Test
    void theTransitionTableIsExactlyTheStipCycleAndFencing() {
        Set<String> legal = new java.util.TreeSet<>();
        for (SchemaChangePhase from : SchemaChangePhase.values()) {
            for (SchemaChangePhase to : SchemaChangePhase.values()) {
                if (from.canTransitionTo(to)) {
                    legal.add(from + "->" + to);
                }
            }
        }
        Set<String> expected =
                new java.util.TreeSet<>(
                        java.util.Arrays.asList(
                                "IDLE->QUIESCING",
                                "QUIESCING->TRIGGER_REQUESTED",
                                "TRIGGER_REQUESTED->WAITING_END",
                                "WAITING_END->IDLE",
                                "IDLE->FENCED",
                                "QUIESCING->FENCED",
                                "TRIGGER_REQUESTED->FENCED",
                                "WAITING_END->FENCED"));
        assertEquals(expected, legal);
        Set<SchemaChangePhase> polling = EnumSet.noneOf(SchemaChangePhase.class);
        for (SchemaChangePhase p : SchemaChangePhase.values()) {
            if (p.allowsPolling()) {
                polling.add(p);
            }
        }
        assertEquals(EnumSet.of(SchemaChangePhase.IDLE), polling, "no turn during a change");
    }

    @Test
    void aFullCycleBindsTheFirstBarrierAndEndsAtItsCompletion() {
        assertEquals(SchemaChangePhase.IDLE, gate.phase());
        gate.barrierTaken(1); // a barrier with no change in progress changes nothing
        CompletableFuture<Void> f = gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        assertEquals(SchemaChangePhase.QUIESCING, gate.phase());
        assertEquals(1, gate.epoch());
        assertEquals(1, gate.turnEnded());
        assertEquals(SchemaChangePhase.TRIGGER_REQUESTED, gate.phase());
        gate.barrierTaken(5);
        assertEquals(SchemaChangePhase.WAITING_END, gate.phase());
        assertEquals(5, gate.boundCheckpoint());
        gate.barrierTaken(6); // later barriers carry the same cut and do not rebind
        assertEquals(5, gate.boundCheckpoint());
        assertFalse(f.isDone());
        assertTrue(gate.checkpointCompleted(5));
        assertEquals(SchemaChangePhase.IDLE, gate.phase());
        assertTrue(f.isDone() && !f.isCancelled());
        assertEquals(1, metrics.schemaChangesRequested());
        assertEquals(1, metrics.schemaChangesCompleted());

        // A second change gets the next epoch and binds afresh.
        gate.request(SchemaChangeMark.AFTER_CHECKPOINT);
        assertEquals(2, gate.turnEnded());
        gate.barrierTaken(9);
        assertTrue(gate.checkpointCompleted(9));
        assertEquals(SchemaChangeMark.AFTER_CHECKPOINT, gate.mark());
    }

    @Test
    void staleAndRepeatedCompletionsAreIgnoredAndCounted() {
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        assertFalse(gate.checkpointCompleted(3), "cut before the mark");
        gate.turnEnded();
        assertFalse(gate.checkpointCompleted(3), "still cut before the mark");
        gate.barrierTaken(4);
        assertFalse(gate.checkpointCompleted(3), "older than the bound checkpoint");
        assertEquals(SchemaChangePhase.WAITING_END, gate.phase());
        assertTrue(gate.checkpointCompleted(4));
        assertFalse(gate.checkpointCompleted(4), "a repeat (Zeta repeats after restore)");
        assertEquals(4, metrics.schemaChangeIgnoredCallbacks());
        assertFalse(gate.checkpointCompleted(8), "an ordinary completion while idle");
        assertEquals(4, metrics.schemaChangeIgnoredCallbacks(), "not a schema callback");
    }

    @Test
    void anOverlappingMarkIsRefusedWithItsReasonInEveryBusyState() {
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        assertRefused(
                () -> gate.request(SchemaChangeMark.AFTER_CHECKPOINT),
                "overlapping schema change: AFTER_CHECKPOINT marked while QUIESCING");
        gate.turnEnded();
        assertRefused(
                () -> gate.request(SchemaChangeMark.BEFORE_CHECKPOINT),
                "marked while TRIGGER_REQUESTED");
        gate.barrierTaken(2);
        assertRefused(
                () -> gate.request(SchemaChangeMark.BEFORE_CHECKPOINT), "marked while WAITING_END");
        assertEquals(SchemaChangePhase.WAITING_END, gate.phase(), "a refusal changes nothing");
    }

    @Test
    void outOfOrderEventsAreIllegalTransitions() {
        assertRefused(
                gate::turnEnded, "illegal schema-change transition IDLE -> TRIGGER_REQUESTED");
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        assertRefused(
                () -> gate.barrierTaken(3),
                "barrier 3 arrived before the turn that marked the change returned");
        gate.turnEnded();
        assertRefused(
                gate::turnEnded,
                "illegal schema-change transition TRIGGER_REQUESTED -> TRIGGER_REQUESTED");
    }

    @Test
    void anAbortOfTheBoundCheckpointFails() {
        gate.request(SchemaChangeMark.AFTER_CHECKPOINT);
        gate.turnEnded();
        gate.checkpointAborted(1); // not bound yet: ignored
        gate.barrierTaken(2);
        gate.checkpointAborted(1); // another checkpoint: ignored
        assertEquals(2, metrics.schemaChangeIgnoredCallbacks());
        assertRefused(
                () -> gate.checkpointAborted(2),
                "the bound schema-change checkpoint 2 was aborted (schema change WAITING_END,"
                        + " epoch 1, bound checkpoint 2)");
    }

    @Test
    void aLaterCompletionBeforeTheBoundOneFails() {
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        gate.turnEnded();
        gate.barrierTaken(2);
        assertRefused(
                () -> gate.checkpointCompleted(3),
                "checkpoint 3 completed before the bound schema-change checkpoint");
    }

    @Test
    void aFailedTriggerFailsOnlyForTheCurrentEpoch() {
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        long epoch = gate.turnEnded();
        gate.triggerFailed(epoch - 1, new RuntimeException("old"));
        assertEquals(1, metrics.schemaChangeIgnoredCallbacks(), "a stale epoch is ignored");
        RuntimeException cause = new RuntimeException("master unreachable");
        SchemaChangeRefusedException e =
                assertThrows(
                        SchemaChangeRefusedException.class, () -> gate.triggerFailed(epoch, cause));
        assertSame(cause, e.getCause());
        assertTrue(e.getMessage().contains("could not be triggered"), e.getMessage());
    }

    @Test
    void aChangeOlderThanTheTimeoutFails() {
        gate.checkTimeout(); // idle: no bound applies
        gate.request(SchemaChangeMark.BEFORE_CHECKPOINT);
        gate.turnEnded();
        clock.advanceMillis(60_000);
        gate.checkTimeout(); // exactly at the bound: still allowed
        clock.advanceMillis(1);
        assertRefused(
                gate::checkTimeout,
                "did not complete within reader.schema-change-timeout (60000 ms)");
    }

    @Test
    void fencingCancelsTheRequestFromEveryStateAndIsTerminal() {
        for (int steps = 0; steps <= 3; steps++) {
            SchemaChangeGate g = new SchemaChangeGate(ID, clock, metrics, 1_000_000_000L);
            CompletableFuture<Void> f = CompletableFuture.completedFuture(null);
            if (steps >= 1) {
                f = g.request(SchemaChangeMark.BEFORE_CHECKPOINT);
            }
            if (steps >= 2) {
                g.turnEnded();
            }
            if (steps >= 3) {
                g.barrierTaken(1);
            }
            g.fence();
            assertEquals(SchemaChangePhase.FENCED, g.phase());
            assertTrue(steps == 0 || f.isCancelled(), "request future cancelled");
            g.fence(); // idempotent
            assertFalse(g.checkpointCompleted(1), "a completion after fencing is ignored");
            assertEquals(SchemaChangePhase.FENCED, g.phase());
            assertRefused(
                    () -> g.request(SchemaChangeMark.AFTER_CHECKPOINT), "marked while FENCED");
        }
    }

    @Test
    void theTimeoutMustBePositive() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new SchemaChangeGate(ID, clock, metrics, 0));
        assertTrue(e.getMessage().contains("reader.schema-change-timeout"), e.getMessage());
    }

    private static void assertRefused(Runnable action, String reason) {
        SchemaChangeRefusedException e =
                assertThrows(SchemaChangeRefusedException.class, action::run);
        assertTrue(e.getMessage().contains(reason), "'" + e.getMessage() + "' names: " + reason);
    }
}
