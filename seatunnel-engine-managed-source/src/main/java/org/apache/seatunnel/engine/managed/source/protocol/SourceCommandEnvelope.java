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

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * One ordered command, as STIP-31 "Versioned command protocol" lists its fields. Immutable.
 *
 * <p>The payload is opaque to the transport and is decoded only by the target's event loop (never
 * on a Hazelcast operation thread). The payload array is owned by the envelope: the builder takes
 * it without a copy to keep admission allocation-free, so a caller must not touch the array after
 * {@link Builder#payload(byte[])}.
 *
 * <p>{@code coordinatorCutId} is the id of the last coordinator snapshot taken before the command
 * was created (0 before any): a reader must not apply a command whose cut id is at least N before
 * it has taken its own barrier N. This closes the coordinator-first cut (docs/en/architecture.md
 * hazard 1).
 */
public final class SourceCommandEnvelope {
    private static final byte[] EMPTY = new byte[0];

    private final int protocolMajor;
    private final int protocolMinor;
    private final long jobId;
    private final long sourceRuntimeId;
    private final int targetSubtask;
    private final long coordinatorEpoch;
    private final long senderAttemptId;
    private final long targetAttemptId;
    private final long senderSequence;
    private final long commandId;
    private final long coordinatorCutId;
    private final CommandKind commandKind;
    private final Durability durability;
    private final int payloadVersion;
    private final int payloadChecksum;
    private final byte[] payload;

    private SourceCommandEnvelope(Builder b) {
        this.protocolMajor = b.protocolMajor;
        this.protocolMinor = b.protocolMinor;
        this.jobId = b.jobId;
        this.sourceRuntimeId = b.sourceRuntimeId;
        this.targetSubtask = b.targetSubtask;
        this.coordinatorEpoch = b.coordinatorEpoch;
        this.senderAttemptId = b.senderAttemptId;
        this.targetAttemptId = b.targetAttemptId;
        this.senderSequence = b.senderSequence;
        this.commandId = b.commandId;
        this.coordinatorCutId = b.coordinatorCutId;
        this.commandKind = Objects.requireNonNull(b.commandKind, "commandKind");
        this.durability = b.durability == null ? b.commandKind.durability() : b.durability;
        this.payloadVersion = b.payloadVersion;
        this.payload = b.payload;
        this.payloadChecksum = Crc32c.of(payload);
    }

    public static Builder builder(CommandKind kind) {
        return new Builder(kind);
    }

    /** A builder pre-filled with every field of this envelope, for retries and re-targeting. */
    public Builder toBuilder() {
        Builder b = new Builder(commandKind);
        b.protocolMajor = protocolMajor;
        b.protocolMinor = protocolMinor;
        b.jobId = jobId;
        b.sourceRuntimeId = sourceRuntimeId;
        b.targetSubtask = targetSubtask;
        b.coordinatorEpoch = coordinatorEpoch;
        b.senderAttemptId = senderAttemptId;
        b.targetAttemptId = targetAttemptId;
        b.senderSequence = senderSequence;
        b.commandId = commandId;
        b.coordinatorCutId = coordinatorCutId;
        b.durability = durability;
        b.payloadVersion = payloadVersion;
        b.payload = payload;
        return b;
    }

    public int protocolMajor() {
        return protocolMajor;
    }

    public int protocolMinor() {
        return protocolMinor;
    }

    public long jobId() {
        return jobId;
    }

    public long sourceRuntimeId() {
        return sourceRuntimeId;
    }

    public int targetSubtask() {
        return targetSubtask;
    }

    public long coordinatorEpoch() {
        return coordinatorEpoch;
    }

    public long senderAttemptId() {
        return senderAttemptId;
    }

    public long targetAttemptId() {
        return targetAttemptId;
    }

    public long senderSequence() {
        return senderSequence;
    }

    public long commandId() {
        return commandId;
    }

    public long coordinatorCutId() {
        return coordinatorCutId;
    }

    public CommandKind commandKind() {
        return commandKind;
    }

    public Durability durability() {
        return durability;
    }

    public int payloadVersion() {
        return payloadVersion;
    }

    /** CRC-32C of the payload, computed when the envelope was built. */
    public int payloadChecksum() {
        return payloadChecksum;
    }

    public int payloadLength() {
        return payload.length;
    }

    /** A read-only view of the payload. */
    public ByteBuffer payload() {
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /** A copy of the payload, for decoders that need an array. */
    public byte[] copyPayload() {
        return payload.clone();
    }

    byte[] payloadArray() {
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SourceCommandEnvelope)) {
            return false;
        }
        SourceCommandEnvelope e = (SourceCommandEnvelope) o;
        return protocolMajor == e.protocolMajor
                && protocolMinor == e.protocolMinor
                && jobId == e.jobId
                && sourceRuntimeId == e.sourceRuntimeId
                && targetSubtask == e.targetSubtask
                && coordinatorEpoch == e.coordinatorEpoch
                && senderAttemptId == e.senderAttemptId
                && targetAttemptId == e.targetAttemptId
                && senderSequence == e.senderSequence
                && commandId == e.commandId
                && coordinatorCutId == e.coordinatorCutId
                && commandKind == e.commandKind
                && durability == e.durability
                && payloadVersion == e.payloadVersion
                && payloadChecksum == e.payloadChecksum
                && Arrays.equals(payload, e.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, sourceRuntimeId, commandId, commandKind, payloadChecksum);
    }

    /** Ids and sizes only: payloads never reach logs. */
    @Override
    public String toString() {
        return "SourceCommandEnvelope{"
                + commandKind
                + ", v"
                + protocolMajor
                + '.'
                + protocolMinor
                + ", job="
                + jobId
                + ", source="
                + sourceRuntimeId
                + ", subtask="
                + targetSubtask
                + ", epoch="
                + coordinatorEpoch
                + ", sender="
                + senderAttemptId
                + ", target="
                + targetAttemptId
                + ", senderSeq="
                + senderSequence
                + ", cmd="
                + commandId
                + ", cut="
                + coordinatorCutId
                + ", payloadBytes="
                + payload.length
                + '}';
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private int protocolMajor = ProtocolVersion.MAJOR;
        private int protocolMinor = ProtocolVersion.MINOR;
        private long jobId;
        private long sourceRuntimeId;
        private int targetSubtask;
        private long coordinatorEpoch;
        private long senderAttemptId;
        private long targetAttemptId;
        private long senderSequence;
        private long commandId;
        private long coordinatorCutId;
        private final CommandKind commandKind;
        private Durability durability;
        private int payloadVersion;
        private byte[] payload = EMPTY;

        private Builder(CommandKind kind) {
            this.commandKind = Objects.requireNonNull(kind, "kind");
        }

        public Builder protocolVersion(int major, int minor) {
            this.protocolMajor = major;
            this.protocolMinor = minor;
            return this;
        }

        public Builder jobId(long v) {
            this.jobId = v;
            return this;
        }

        public Builder sourceRuntimeId(long v) {
            this.sourceRuntimeId = v;
            return this;
        }

        public Builder targetSubtask(int v) {
            this.targetSubtask = v;
            return this;
        }

        public Builder coordinatorEpoch(long v) {
            this.coordinatorEpoch = v;
            return this;
        }

        public Builder senderAttemptId(long v) {
            this.senderAttemptId = v;
            return this;
        }

        public Builder targetAttemptId(long v) {
            this.targetAttemptId = v;
            return this;
        }

        public Builder senderSequence(long v) {
            this.senderSequence = v;
            return this;
        }

        public Builder commandId(long v) {
            this.commandId = v;
            return this;
        }

        public Builder coordinatorCutId(long v) {
            this.coordinatorCutId = v;
            return this;
        }

        /** Overrides the kind's durability; only decoders of foreign frames need this. */
        public Builder durability(Durability d) {
            this.durability = d;
            return this;
        }

        public Builder payloadVersion(int v) {
            this.payloadVersion = v;
            return this;
        }

        /** Takes ownership of {@code bytes} without copying. */
        public Builder payload(byte[] bytes) {
            this.payload = bytes == null ? EMPTY : bytes;
            return this;
        }

        public SourceCommandEnvelope build() {
            return new SourceCommandEnvelope(this);
        }
    }
}
