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

import java.util.Arrays;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Stamps every outbound command with the coordinator's identity: epoch (also the sender attempt
 * id), a command id unique across epochs ({@code epoch << 40 | counter}), a sender sequence
 * contiguous per target subtask within the epoch, and the coordinator cut (the id of the last
 * enumerator snapshot taken in this epoch, 0 before any).
 *
 * <p>Threading: loop-owned, not thread-safe.
 */
final class EnvelopeFactory {
    static final int SPLIT_PAYLOAD_VERSION = AssignmentPayload.VERSION;
    static final int CONTROL_PAYLOAD_VERSION = 1;
    private static final long COUNTER_MASK = (1L << 40) - 1;

    private final long jobId;
    private final long sourceRuntimeId;
    private final long epoch;
    private long commandCounter;
    private long cutId;
    private long[] lastSequence = new long[8];

    EnvelopeFactory(long jobId, long sourceRuntimeId, long epoch) {
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.epoch = epoch;
    }

    long epoch() {
        return epoch;
    }

    long cutId() {
        return cutId;
    }

    /**
     * The enumerator snapshot of checkpoint {@code id} was taken: later commands belong after it.
     */
    void cutTaken(long id) {
        cutId = id;
    }

    long nextCommandId() {
        long n = ++commandCounter;
        if (n > COUNTER_MASK) {
            throw new IllegalStateException("command id space of this epoch is exhausted");
        }
        return (epoch << 40) | n;
    }

    long nextSequence(int subtask) {
        ensure(subtask);
        return ++lastSequence[subtask];
    }

    /**
     * A new reader attempt continues right after the watermark it restored (0 = none), so its
     * sequence has no hole it cannot explain. Safe because reconciliation removed every entry of
     * this subtask above that watermark before this is called.
     */
    void resumeSequence(int subtask, long restoredWatermark) {
        ensure(subtask);
        lastSequence[subtask] = Math.max(0, restoredWatermark);
    }

    /** The envelope of a command just dispatched: every split it carries, in order. */
    SourceCommandEnvelope assignment(TrackedAssignment a) {
        return base(CommandKind.SPLIT_ASSIGNMENT, a.subtask(), a.attempt())
                .coordinatorEpoch(a.epoch())
                .senderAttemptId(a.epoch())
                .senderSequence(a.sequence())
                .commandId(a.commandId())
                .coordinatorCutId(a.cutId())
                .payloadVersion(SPLIT_PAYLOAD_VERSION)
                .payload(a.payload())
                .build();
    }

    SourceCommandEnvelope control(
            CommandKind kind,
            int subtask,
            long attempt,
            long seq,
            long commandId,
            long cut,
            byte[] payload) {
        return base(kind, subtask, attempt)
                .senderSequence(seq)
                .commandId(commandId)
                .coordinatorCutId(cut)
                .payloadVersion(CONTROL_PAYLOAD_VERSION)
                .payload(payload)
                .build();
    }

    private SourceCommandEnvelope.Builder base(CommandKind kind, int subtask, long attempt) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(jobId)
                .sourceRuntimeId(sourceRuntimeId)
                .targetSubtask(subtask)
                .coordinatorEpoch(epoch)
                .senderAttemptId(epoch)
                .targetAttemptId(attempt);
    }

    private void ensure(int subtask) {
        if (subtask >= lastSequence.length) {
            lastSequence =
                    Arrays.copyOf(lastSequence, Math.max(subtask + 1, lastSequence.length * 2));
        }
    }
}
