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

/**
 * The life of one split assignment (STIP-31 "Split assignment ownership"). Every legal move is in
 * the one table built in the static block; {@link #checkTransition} is the only gate, used only by
 * {@link TrackedAssignment#moveTo}.
 *
 * <p>Wire codes are stored by {@link AssignmentTrackerCodec} and fixed forever.
 */
public enum AssignmentState {
    /**
     * Handed out by the enumerator but no command created yet: waiting for the target reader to
     * register, for reconciliation after a restore, or for tracker capacity (back-pressure). Still
     * owned by the enumerator side: a restore gives it back to the enumerator. Left by dispatch.
     */
    UNASSIGNED(1),
    /** Command created and handed to the transport; admission not yet proven. Left by an ack. */
    DISPATCHED(2),
    /** The current reader attempt accepted the command (ACCEPTED or DUPLICATE). */
    ADMITTED(3),
    /** The reader applied it ({@code addSplits} ran once). Flow control only, not durability. */
    APPLIED(4),
    /**
     * Reader checkpoint metadata of checkpoint N proves the command was applied before barrier N.
     */
    CHECKPOINT_INCLUDED(5),
    /**
     * Checkpoint N completed (or checkpoints are disabled and it was applied): entry is removed.
     */
    GC_ELIGIBLE(6);

    private static final AssignmentState[] VALUES = values();
    private static final boolean[][] LEGAL = new boolean[VALUES.length][VALUES.length];

    static {
        allow(UNASSIGNED, DISPATCHED);
        allow(DISPATCHED, ADMITTED);
        // Acks travel independently: an apply ack or an inclusion proof may overtake a lost
        // admission
        // ack, and an inclusion proof may overtake a lost apply ack.
        allow(DISPATCHED, APPLIED);
        allow(DISPATCHED, CHECKPOINT_INCLUDED);
        allow(ADMITTED, APPLIED);
        allow(ADMITTED, CHECKPOINT_INCLUDED);
        allow(APPLIED, CHECKPOINT_INCLUDED);
        allow(CHECKPOINT_INCLUDED, GC_ELIGIBLE);
        // Only when checkpoints are disabled (the tracker enforces that mode): there is no cut to
        // reconcile against and a failure restarts the job from scratch, so delivery is all the
        // tracker has to cover; admission proves it, an apply ack (which may be lost) also does.
        allow(ADMITTED, GC_ELIGIBLE);
        allow(APPLIED, GC_ELIGIBLE);
        // Reconciliation (reader failover, restore) gives an unproven assignment back to the
        // enumerator; the entry then leaves the tracker.
        allow(DISPATCHED, UNASSIGNED);
        allow(ADMITTED, UNASSIGNED);
        allow(APPLIED, UNASSIGNED);
        allow(CHECKPOINT_INCLUDED, UNASSIGNED);
    }

    private final int wireCode;

    AssignmentState(int wireCode) {
        this.wireCode = wireCode;
    }

    private static void allow(AssignmentState from, AssignmentState to) {
        LEGAL[from.ordinal()][to.ordinal()] = true;
    }

    public int wireCode() {
        return wireCode;
    }

    public boolean canTransitionTo(AssignmentState next) {
        return LEGAL[ordinal()][next.ordinal()];
    }

    /** The transition gate: throws naming both states when the move is not in the table. */
    public static void checkTransition(AssignmentState from, AssignmentState to) {
        if (!from.canTransitionTo(to)) {
            throw new IllegalStateException("Illegal assignment transition " + from + " -> " + to);
        }
    }

    /** The state for a wire code, or null when unknown. */
    public static AssignmentState fromWireCode(int code) {
        for (AssignmentState s : VALUES) {
            if (s.wireCode == code) {
                return s;
            }
        }
        return null;
    }
}
