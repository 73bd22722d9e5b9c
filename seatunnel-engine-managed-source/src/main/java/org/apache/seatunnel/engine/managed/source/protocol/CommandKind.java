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

package org.apache.seatunnel.engine.managed.source.protocol;

/**
 * Every command the runtime moves between threads or members. The wire code is fixed forever; new
 * kinds append new codes. Each kind fixes its durability class, its scheduling category, and
 * whether it may use the mailbox's reserved control capacity.
 */
public enum CommandKind {
    SPLIT_ASSIGNMENT(1, Durability.CHECKPOINT_COUPLED, SchedulingCategory.ORDERED_CONTROL, false),
    NO_MORE_SPLITS(2, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, false),
    /** Coordinator to reader source event; never persisted (STIP-31 non-goal 5). */
    SOURCE_EVENT(3, Durability.EPHEMERAL, SchedulingCategory.ORDERED_CONTROL, false),
    READER_REGISTRATION(4, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, false),
    SPLIT_REQUEST(5, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, false),
    /** A local barrier entering the same sequencer as ordered controls. */
    CHECKPOINT_BARRIER(6, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, true),
    CHECKPOINT_COMPLETE(7, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, true),
    CHECKPOINT_ABORTED(8, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, true),
    GRACEFUL_CLOSE(9, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, true),
    ASSIGNMENT_ACK(10, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, true),
    AVAILABILITY(11, Durability.EPHEMERAL, SchedulingCategory.ASYNC_COMPLETION, false),
    DIAGNOSTIC(12, Durability.EPHEMERAL, SchedulingCategory.OBSERVABILITY, false),
    CANCEL(13, Durability.TERMINAL, SchedulingCategory.TERMINAL, false),
    FATAL_FAILURE(14, Durability.TERMINAL, SchedulingCategory.TERMINAL, false),
    /** Reader to coordinator: splits handed back after a failure or rescale. */
    SPLITS_RETURNED(15, Durability.CHECKPOINT_COUPLED, SchedulingCategory.ORDERED_CONTROL, false),
    /** Reader to coordinator source event. */
    READER_EVENT(16, Durability.EPHEMERAL, SchedulingCategory.ORDERED_CONTROL, false),
    /**
     * Reader to coordinator: the reader took barrier N with this runtime metadata (the inclusion
     * proof the assignment tracker waits for before garbage collection).
     */
    READER_CHECKPOINTED(17, Durability.RECONSTRUCTABLE, SchedulingCategory.ORDERED_CONTROL, false);

    private static final CommandKind[] BY_CODE;

    static {
        int max = 0;
        for (CommandKind k : values()) {
            max = Math.max(max, k.wireCode);
        }
        BY_CODE = new CommandKind[max + 1];
        for (CommandKind k : values()) {
            BY_CODE[k.wireCode] = k;
        }
    }

    private final int wireCode;
    private final Durability durability;
    private final SchedulingCategory category;
    private final boolean reservedControl;

    CommandKind(
            int wireCode,
            Durability durability,
            SchedulingCategory category,
            boolean reservedControl) {
        this.wireCode = wireCode;
        this.durability = durability;
        this.category = category;
        this.reservedControl = reservedControl;
    }

    public int wireCode() {
        return wireCode;
    }

    public Durability durability() {
        return durability;
    }

    public SchedulingCategory category() {
        return category;
    }

    /**
     * Checkpoint, graceful-close, checkpoint-callback and assignment-ack controls may use the
     * reserved control capacity once normal capacity is exhausted.
     */
    public boolean usesReservedControlCapacity() {
        return reservedControl;
    }

    /** The kind for a wire code, or null when unknown. */
    public static CommandKind fromWireCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
