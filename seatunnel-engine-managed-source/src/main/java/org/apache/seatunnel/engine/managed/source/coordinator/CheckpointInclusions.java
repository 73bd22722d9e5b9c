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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;

/**
 * Proofs that in-flight assignments are in a reader's checkpointed state: an assignment becomes
 * {@code CHECKPOINT_INCLUDED} at the earliest checkpoint that proves it, and is collected when that
 * checkpoint completes (at once if it already has).
 *
 * <p>Threading: owned by its {@link SourceAssignmentTracker}, so confined to the coordinator loop.
 * Entries are listed once per inclusion and skipped lazily when they were handed back or included
 * again later, so no removal walks the lists.
 */
final class CheckpointInclusions {
    private final InFlightAssignments inFlight;
    private final CoordinatorMetrics metrics;
    private final TreeMap<Long, List<TrackedAssignment>> byCheckpoint = new TreeMap<>();
    private long lastCompleted = AssignmentEntry.NONE;

    CheckpointInclusions(InFlightAssignments inFlight, CoordinatorMetrics metrics) {
        this.inFlight = inFlight;
        this.metrics = metrics;
    }

    /**
     * A CHECKPOINT report of the current attempt: the assignments of its subtask it proves are
     * included at its checkpoint. Returns how many became included.
     */
    int include(ReaderInclusionReport r) {
        List<TrackedAssignment> proven =
                inFlight.select(
                        r.subtask(),
                        a ->
                                a.attempt() == r.attemptId()
                                        && a.state() != AssignmentState.CHECKPOINT_INCLUDED
                                        && r.proves(a.epoch(), a.sequence()));
        for (TrackedAssignment a : proven) {
            include(a, r.checkpointId());
        }
        return proven.size();
    }

    /** Checkpoint {@code checkpointId} proves {@code a}: it is included at the earliest proof. */
    void include(TrackedAssignment a, long checkpointId) {
        if (a.state() != AssignmentState.CHECKPOINT_INCLUDED) {
            a.moveTo(AssignmentState.CHECKPOINT_INCLUDED);
            metrics.add(Counter.ASSIGNMENTS_INCLUDED, a.liveCount());
        } else if (a.includedCheckpointId() <= checkpointId) {
            return;
        }
        a.includedAt(checkpointId);
        if (checkpointId <= lastCompleted) {
            inFlight.collect(a);
        } else {
            await(a);
        }
    }

    /** Lists {@code a}, included at its checkpoint, until that checkpoint completes. */
    void await(TrackedAssignment a) {
        byCheckpoint.computeIfAbsent(a.includedCheckpointId(), k -> new ArrayList<>()).add(a);
    }

    /**
     * Checkpoint {@code id} completed: collects the assignments still included at it or an earlier
     * one. Returns how many were collected.
     */
    int complete(long id) {
        if (id > lastCompleted) {
            lastCompleted = id;
        }
        List<TrackedAssignment> durable = new ArrayList<>();
        NavigableMap<Long, List<TrackedAssignment>> done = byCheckpoint.headMap(id, true);
        for (Iterator<Map.Entry<Long, List<TrackedAssignment>>> it = done.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Long, List<TrackedAssignment>> m = it.next();
            for (TrackedAssignment a : m.getValue()) {
                // Skip assignments returned or re-included since they were listed.
                if (a.state() == AssignmentState.CHECKPOINT_INCLUDED
                        && a.includedCheckpointId() == m.getKey()) {
                    durable.add(a);
                }
            }
            it.remove();
        }
        inFlight.collectAll(durable);
        return durable.size();
    }

    long lastCompleted() {
        return lastCompleted;
    }

    /** Restores the last completed checkpoint (before any inclusion is listed). */
    void restoreLastCompleted(long id) {
        lastCompleted = id;
    }
}
