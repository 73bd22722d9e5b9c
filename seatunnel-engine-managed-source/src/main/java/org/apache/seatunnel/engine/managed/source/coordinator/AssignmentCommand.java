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
 * One {@code SPLIT_ASSIGNMENT} command: the splits of one subtask that left together, under one
 * command id and one sender sequence, so one admission answer, one apply watermark or one inclusion
 * proof covers all of them. Ownership stays per split ({@link AssignmentEntry}); a split handed
 * back on its own leaves the command, which is forgotten once none of its splits is tracked.
 *
 * <p>Threading: owned by the coordinator loop through its {@link SourceAssignmentTracker}.
 */
public final class AssignmentCommand {
    private final long commandId;
    private final int subtask;
    private final long attempt;
    private final long epoch;
    private final long sequence;
    private final AssignmentEntry[] entries;
    private int tracked;

    AssignmentCommand(
            long commandId,
            int subtask,
            long attempt,
            long epoch,
            long sequence,
            AssignmentEntry[] entries) {
        this.commandId = commandId;
        this.subtask = subtask;
        this.attempt = attempt;
        this.epoch = epoch;
        this.sequence = sequence;
        this.entries = entries;
        this.tracked = entries.length;
    }

    public long commandId() {
        return commandId;
    }

    public int subtask() {
        return subtask;
    }

    public long attempt() {
        return attempt;
    }

    public long epoch() {
        return epoch;
    }

    public long sequence() {
        return sequence;
    }

    /** Every split the command carried, in order, including ones no longer tracked. */
    AssignmentEntry[] entries() {
        return entries;
    }

    public int size() {
        return entries.length;
    }

    /** One of its splits left the tracker; returns how many are still tracked. */
    int release() {
        return --tracked;
    }
}
