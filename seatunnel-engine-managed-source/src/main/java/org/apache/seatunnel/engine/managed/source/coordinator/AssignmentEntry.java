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
 * What the tracker knows about one split, as of when it was asked: its id, its serialized bytes,
 * the reader subtask it is meant for, and the state and command identity of the assignment carrying
 * it (the {@code NONE} marker while unassigned). A copy for reconciliation, restore, the
 * fault-injection world and tests; the tracker itself keeps splits compactly ({@link PendingSplit},
 * {@link TrackedAssignment}) and never hands out its own objects.
 *
 * <p>Threading: immutable; any thread.
 */
public final class AssignmentEntry {
    /** Marker for "not yet" in the id fields. */
    public static final long NONE = -1L;

    private final String splitId;
    private final byte[] splitBytes;
    private final int targetSubtask;
    private final AssignmentState state;
    private final long epoch;
    private final long attemptId;
    private final long senderSequence;
    private final long commandId;
    private final long cutId;
    private final long includedCheckpointId;

    AssignmentEntry(
            String splitId,
            byte[] splitBytes,
            int targetSubtask,
            AssignmentState state,
            long epoch,
            long attemptId,
            long senderSequence,
            long commandId,
            long cutId,
            long includedCheckpointId) {
        this.splitId = splitId;
        this.splitBytes = splitBytes;
        this.targetSubtask = targetSubtask;
        this.state = state;
        this.epoch = epoch;
        this.attemptId = attemptId;
        this.senderSequence = senderSequence;
        this.commandId = commandId;
        this.cutId = cutId;
        this.includedCheckpointId = includedCheckpointId;
    }

    /** An unassigned split. */
    static AssignmentEntry unassigned(String splitId, byte[] splitBytes, int targetSubtask) {
        return new AssignmentEntry(
                splitId,
                splitBytes,
                targetSubtask,
                AssignmentState.UNASSIGNED,
                NONE,
                NONE,
                NONE,
                NONE,
                0,
                NONE);
    }

    /** The split under the cursor of {@code a}, in {@code state}. */
    static AssignmentEntry of(
            TrackedAssignment a, TrackedAssignment.Cursor c, AssignmentState state) {
        return new AssignmentEntry(
                c.splitId(),
                c.splitBytes(),
                a.subtask(),
                state,
                a.epoch(),
                a.attempt(),
                a.sequence(),
                a.commandId(),
                a.cutId(),
                a.includedCheckpointId());
    }

    public String splitId() {
        return splitId;
    }

    /** The connector's serialized split (a copy the caller owns). */
    byte[] splitBytes() {
        return splitBytes;
    }

    public int splitLength() {
        return splitBytes.length;
    }

    public int targetSubtask() {
        return targetSubtask;
    }

    public AssignmentState state() {
        return state;
    }

    public long epoch() {
        return epoch;
    }

    public long attemptId() {
        return attemptId;
    }

    public long senderSequence() {
        return senderSequence;
    }

    public long commandId() {
        return commandId;
    }

    public long cutId() {
        return cutId;
    }

    public long includedCheckpointId() {
        return includedCheckpointId;
    }

    /** Ids and sizes only; the split id is user data and never logged by this package. */
    @Override
    public String toString() {
        return "AssignmentEntry{"
                + state
                + ", subtask="
                + targetSubtask
                + ", epoch="
                + epoch
                + ", attempt="
                + attemptId
                + ", seq="
                + senderSequence
                + ", cmd="
                + commandId
                + ", cut="
                + cutId
                + ", included="
                + includedCheckpointId
                + ", bytes="
                + splitBytes.length
                + '}';
    }
}
