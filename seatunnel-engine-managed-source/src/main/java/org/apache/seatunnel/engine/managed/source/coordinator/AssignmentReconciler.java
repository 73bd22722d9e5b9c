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

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;

/**
 * Settles in-flight assignments after a failover: an assignment the restored reader's state proves
 * is the reader's (included at that checkpoint); any other is removed and its splits are returned
 * for the enumerator to hand out again, so a split is neither lost nor owned twice.
 *
 * <p>Threading: owned by its {@link SourceAssignmentTracker}, so confined to the coordinator loop.
 */
final class AssignmentReconciler {
    private final InFlightAssignments inFlight;
    private final CheckpointInclusions inclusions;
    private final CoordinatorMetrics metrics;

    AssignmentReconciler(
            InFlightAssignments inFlight,
            CheckpointInclusions inclusions,
            CoordinatorMetrics metrics) {
        this.inFlight = inFlight;
        this.inclusions = inclusions;
        this.metrics = metrics;
    }

    /**
     * Reader failover: reconciles the assignments of {@code subtask} sent in {@code epoch} to an
     * attempt other than {@code newAttempt}. Proven by {@code restored} (what the new attempt
     * restored and keeps, or null when it keeps nothing) → the reader owns them; otherwise they are
     * removed and their splits returned, for the caller to give back to the enumerator.
     */
    List<AssignmentEntry> reconcileAttempt(
            int subtask, long epoch, long newAttempt, ReaderInclusionReport restored) {
        List<TrackedAssignment> old =
                inFlight.select(subtask, a -> a.epoch() == epoch && a.attempt() != newAttempt);
        // Commands of a replaced attempt are never applied now: nothing waits for their acks.
        inFlight.forgetUnapplied(subtask);
        return reconcile(old, restored);
    }

    /**
     * Coordinator failover: reconciles the assignments of owner {@code subtask} restored from an
     * epoch before {@code currentEpoch}, against the metadata of that owner's state in the restored
     * checkpoint (which proves even splits the reader finished before the barrier).
     */
    List<AssignmentEntry> reconcileRestoredOwner(
            int subtask, long currentEpoch, ReaderInclusionReport restored) {
        return reconcile(inFlight.select(subtask, a -> a.epoch() < currentEpoch), restored);
    }

    private List<AssignmentEntry> reconcile(
            List<TrackedAssignment> old, ReaderInclusionReport restored) {
        List<AssignmentEntry> back = new ArrayList<>();
        for (TrackedAssignment a : old) {
            if (restored != null && restored.proves(a.epoch(), a.sequence())) {
                inclusions.include(a, restored.checkpointId());
            } else {
                TrackedAssignment.Cursor c = a.cursor();
                while (c.next()) {
                    if (!a.isReleased(c.index)) {
                        back.add(AssignmentEntry.of(a, c, AssignmentState.UNASSIGNED));
                    }
                }
                a.moveTo(AssignmentState.UNASSIGNED);
                inFlight.remove(a);
            }
        }
        metrics.add(Counter.ASSIGNMENTS_RETURNED, back.size());
        return back;
    }
}
