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
import java.util.Collections;
import java.util.List;

/**
 * Puts a coordinator checkpoint back into a new coordinator's tracker and reader registry before
 * its enumerator is restored: the epoch rule, the tracker's entries, the no-more-splits flags that
 * still hold, and the reader owners whose state must come back before anything is assigned.
 *
 * <p>Threading: stateless; called once on the coordinator loop, at open.
 */
final class CheckpointRestore {
    private CheckpointRestore() {}

    /**
     * Restores {@code tracker} and {@code readers} from {@code blob}.
     *
     * @return the decoded checkpoint, whose enumerator state the caller restores next
     * @throws IllegalStateException if the coordinator does not run in a later epoch than the
     *     checkpoint's
     */
    static CoordinatorSnapshotCodec.Decoded apply(
            byte[] blob,
            CoordinatorConfig config,
            SourceAssignmentTracker tracker,
            ReaderRegistry readers)
            throws Exception {
        CoordinatorSnapshotCodec.Decoded snap = CoordinatorSnapshotCodec.decode(blob);
        if (config.epoch() <= snap.epoch()) {
            // Fencing and restored-owner reconciliation both rely on the new epoch being later
            // than every epoch in the checkpoint (invariant 7).
            throw new IllegalStateException(
                    "a coordinator restored from epoch "
                            + snap.epoch()
                            + " must run in a later epoch, got "
                            + config.epoch());
        }
        AssignmentTrackerCodec.Decoded t = AssignmentTrackerCodec.decode(snap.trackerState());
        List<Integer> nms = new ArrayList<>();
        // After a rescale the enumerator may hold splits meant for subtasks that no longer exist;
        // a no-more-splits recorded for a surviving subtask would then strand them. Only an
        // unchanged parallelism carries the flags over; otherwise the enumerator signals again.
        boolean sameParallelism = snap.parallelism() == config.parallelism();
        for (int s : t.noMoreSplits()) {
            if (sameParallelism && s < config.parallelism()) {
                nms.add(s);
            }
        }
        // Restore happens only from a completed checkpoint: its id is complete by definition.
        tracker.restore(
                t.pending(),
                t.assignments(),
                Math.max(t.lastCompletedCheckpoint(), snap.checkpointId()),
                nms);
        readers.awaitOwners(tracker.inFlightOwners());
        // Every reader subtask of the checkpoint hands its state back (the Zeta host sends a
        // RESTORED report for each): until all have, a returned split could reach the enumerator
        // after no-more-splits went out, so assignment and no-more-splits wait.
        for (int s = 0; s < snap.parallelism(); s++) {
            readers.awaitOwners(Collections.singleton(s));
        }
        return snap;
    }
}
