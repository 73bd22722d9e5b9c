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

import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.ADMITTED;
import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.APPLIED;
import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.CHECKPOINT_INCLUDED;
import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.DISPATCHED;
import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.GC_ELIGIBLE;
import static org.apache.seatunnel.engine.managed.source.coordinator.AssignmentState.UNASSIGNED;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.junit.jupiter.api.Test;

/** The one transition gate: exactly the table, and a refusal names both states. */
class AssignmentStateTest {

    private static final Set<List<AssignmentState>> LEGAL =
            Set.of(
                    List.of(UNASSIGNED, DISPATCHED),
                    List.of(DISPATCHED, ADMITTED),
                    List.of(DISPATCHED, APPLIED),
                    List.of(DISPATCHED, CHECKPOINT_INCLUDED),
                    List.of(ADMITTED, APPLIED),
                    List.of(ADMITTED, CHECKPOINT_INCLUDED),
                    List.of(APPLIED, CHECKPOINT_INCLUDED),
                    List.of(CHECKPOINT_INCLUDED, GC_ELIGIBLE),
                    List.of(APPLIED, GC_ELIGIBLE),
                    List.of(ADMITTED, GC_ELIGIBLE),
                    List.of(DISPATCHED, UNASSIGNED),
                    List.of(ADMITTED, UNASSIGNED),
                    List.of(APPLIED, UNASSIGNED),
                    List.of(CHECKPOINT_INCLUDED, UNASSIGNED));

    @Test
    void exactlyTheTableIsLegal() {
        Set<List<AssignmentState>> seen = new HashSet<>();
        for (AssignmentState from : AssignmentState.values()) {
            for (AssignmentState to : AssignmentState.values()) {
                List<AssignmentState> move = List.of(from, to);
                if (LEGAL.contains(move)) {
                    assertDoesNotThrow(() -> AssignmentState.checkTransition(from, to));
                    seen.add(move);
                } else {
                    IllegalStateException e =
                            assertThrows(
                                    IllegalStateException.class,
                                    () -> AssignmentState.checkTransition(from, to));
                    assertEquals(
                            "Illegal assignment transition " + from + " -> " + to, e.getMessage());
                }
            }
        }
        assertEquals(LEGAL, seen);
    }

    @Test
    void gcEligibleIsTerminalAndNothingSkipsDispatch() {
        for (AssignmentState to : AssignmentState.values()) {
            assertThrows(
                    IllegalStateException.class,
                    () -> AssignmentState.checkTransition(GC_ELIGIBLE, to));
        }
        for (AssignmentState to : EnumSet.of(ADMITTED, APPLIED, CHECKPOINT_INCLUDED, GC_ELIGIBLE)) {
            assertThrows(
                    IllegalStateException.class,
                    () -> AssignmentState.checkTransition(UNASSIGNED, to));
        }
    }

    @Test
    void anAssignmentMovesOnlyThroughTheGate() {
        TrackedAssignment a =
                new TrackedAssignment(
                        1,
                        0,
                        1,
                        1,
                        1,
                        0,
                        0,
                        AssignmentPayload.encode(new byte[][] {{7}}, 1),
                        TrackedAssignment.encodeIds(new byte[][] {{'x'}}, 1),
                        1,
                        DISPATCHED);
        IllegalStateException ex =
                assertThrows(IllegalStateException.class, () -> a.moveTo(GC_ELIGIBLE));
        assertEquals("Illegal assignment transition DISPATCHED -> GC_ELIGIBLE", ex.getMessage());
        assertEquals(DISPATCHED, a.state());
        a.moveTo(ADMITTED);
        assertEquals(ADMITTED, a.state());
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new TrackedAssignment(
                                1, 0, 1, 1, 1, 0, 0, new byte[0], new byte[0], 0, UNASSIGNED),
                "an unassigned split is no assignment");
    }

    @Test
    void wireCodesRoundTrip() {
        for (AssignmentState s : AssignmentState.values()) {
            assertEquals(s, AssignmentState.fromWireCode(s.wireCode()));
        }
        assertEquals(null, AssignmentState.fromWireCode(99));
    }
}
