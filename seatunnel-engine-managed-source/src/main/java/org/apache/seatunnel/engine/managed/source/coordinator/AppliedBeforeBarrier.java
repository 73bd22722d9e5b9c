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

import java.util.HashMap;
import java.util.Map;

/**
 * What each reader attempt applied before a barrier, from its apply acknowledgements: one says the
 * attempt applied every command of a coordinator epoch up to its watermark before it took any
 * barrier after the one it names. The reader's own state at a later barrier {@code N} then holds
 * those commands' splits (or their rows came before {@code N}), exactly what its checkpoint report
 * at {@code N} would prove, only earlier: the snapshot of checkpoint {@code N} leaves such
 * assignments out, and a restore from {@code N} gets them from the reader's state, as it would from
 * a reconciliation of the tracker with that report. The coordinator still holds every assignment
 * until a completed checkpoint proves it, as before; only what a checkpoint stores shrinks. In a
 * split storm the first checkpoint then carries the commands in flight, not every split assigned
 * since the job started, and a bounded job's final checkpoint carries next to nothing.
 *
 * <p>Why the barrier and not the arrival order: an engine may deliver a barrier to a reader before
 * the coordinator's snapshot of the same checkpoint (Zeta does not: its enumerator task snapshots
 * first), and a state taken after the reader's barrier {@code N} proves nothing about {@code N}.
 *
 * <p>Threading: confined to the coordinator loop. One entry per reader subtask, the latest proof of
 * its latest attempt, so it is bounded by the parallelism.
 */
final class AppliedBeforeBarrier {
    /** The latest applied state of one reader attempt. Immutable. */
    private static final class Proof {
        final long attempt;
        final long epoch;
        final long watermark;
        final long lastBarrier;

        Proof(long attempt, long epoch, long watermark, long lastBarrier) {
            this.attempt = attempt;
            this.epoch = epoch;
            this.watermark = watermark;
            this.lastBarrier = lastBarrier;
        }
    }

    private final Map<Integer, Proof> bySubtask = new HashMap<>();

    /**
     * Reader {@code subtask}'s attempt {@code attempt} applied every command of coordinator epoch
     * {@code epoch} up to {@code watermark} before any barrier after {@code lastBarrier}. A proof
     * of another attempt or epoch replaces the old one; of the same, a higher watermark does.
     */
    void record(int subtask, long attempt, long epoch, long watermark, long lastBarrier) {
        Proof old = bySubtask.get(subtask);
        if (old != null
                && old.attempt == attempt
                && old.epoch == epoch
                && old.watermark >= watermark) {
            // An older or repeated state: the one held covers at least as much, as early.
            return;
        }
        bySubtask.put(subtask, new Proof(attempt, epoch, watermark, lastBarrier));
    }

    /**
     * Whether the snapshot of checkpoint {@code checkpointId} may leave {@code a} out: its target
     * attempt applied it before that checkpoint's barrier. The caller checks that the attempt is
     * still the reader's current one.
     */
    boolean appliedBefore(TrackedAssignment a, long checkpointId) {
        Proof p = bySubtask.get(a.subtask());
        return p != null
                && p.attempt == a.attempt()
                && p.epoch == a.epoch()
                && a.sequence() <= p.watermark
                && p.lastBarrier < checkpointId;
    }
}
