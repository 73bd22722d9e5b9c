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
 * One tracked assignment of one split. The split is kept as its serialized bytes: they are the
 * command payload, the snapshot content, and what goes back to the enumerator if ownership is not
 * proven.
 *
 * <p>Threading: owned by the coordinator loop (through {@link SourceAssignmentTracker}); never
 * published to another thread. Identity equality on purpose: one entry per split id at a time.
 */
public final class AssignmentEntry {
    /** Marker for "not yet" in the id fields. */
    public static final long NONE = -1L;

    private final String splitId;
    private final byte[] splitBytes;
    private final int targetSubtask;
    private final long estimatedBytes;

    private AssignmentState state;
    private long epoch = NONE;
    private long attemptId = NONE;
    private long senderSequence = NONE;
    private long commandId = NONE;
    private long cutId;
    private long includedCheckpointId = NONE;
    private long dispatchedAtMillis;
    private boolean backpressureCounted;
    // whether the tracker indexes this entry by its split id: one field read instead of a lookup
    private boolean tracked;
    private AssignmentCommand command;

    AssignmentEntry(String splitId, byte[] splitBytes, int targetSubtask, AssignmentState state) {
        this.splitId = splitId;
        this.splitBytes = splitBytes;
        this.targetSubtask = targetSubtask;
        this.state = state;
        this.estimatedBytes = SourceAssignmentTracker.estimateBytes(splitId, splitBytes.length);
    }

    /** The only place an entry's state changes; the gate is {@link AssignmentState}'s table. */
    void moveTo(AssignmentState next) {
        AssignmentState.checkTransition(state, next);
        state = next;
    }

    void stampCommand(long epoch, long attemptId, long seq, long commandId, long cutId, long now) {
        this.epoch = epoch;
        this.attemptId = attemptId;
        this.senderSequence = seq;
        this.commandId = commandId;
        this.cutId = cutId;
        this.dispatchedAtMillis = now;
    }

    /** Used by restore only: the fields come from a checksummed snapshot. */
    void restoreFields(
            long epoch, long attemptId, long seq, long commandId, long cutId, long included) {
        this.epoch = epoch;
        this.attemptId = attemptId;
        this.senderSequence = seq;
        this.commandId = commandId;
        this.cutId = cutId;
        this.includedCheckpointId = included;
    }

    void includedAt(long checkpointId) {
        this.includedCheckpointId = checkpointId;
    }

    /** The command that carried this split; null while unassigned. */
    AssignmentCommand command() {
        return command;
    }

    void command(AssignmentCommand c) {
        this.command = c;
    }

    boolean markBackpressureCounted() {
        boolean first = !backpressureCounted;
        backpressureCounted = true;
        return first;
    }

    public String splitId() {
        return splitId;
    }

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

    public long dispatchedAtMillis() {
        return dispatchedAtMillis;
    }

    public long estimatedBytes() {
        return estimatedBytes;
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

    boolean tracked() {
        return tracked;
    }

    void tracked(boolean v) {
        tracked = v;
    }
}
