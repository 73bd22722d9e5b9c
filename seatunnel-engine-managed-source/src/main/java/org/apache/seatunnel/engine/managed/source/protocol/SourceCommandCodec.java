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

import java.util.Objects;

/**
 * Binary frame codec for {@link SourceCommandEnvelope}, protocol major version 1.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Layout of a major-1 frame (all integers big-endian; "u" = unsigned):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53 0x54 0x43 0x4D ("STCM")
 *      4     2  u16 protocol major (1)
 *      6     2  u16 protocol minor
 *      8     2  u16 header length H = offset of the payload-length field (90 in v1.0)
 *     10     8  i64 jobId
 *     18     8  i64 sourceRuntimeId
 *     26     4  i32 targetSubtask
 *     30     8  i64 coordinatorEpoch
 *     38     8  i64 senderAttemptId
 *     46     8  i64 targetAttemptId
 *     54     8  i64 senderSequence
 *     62     8  i64 commandId
 *     70     8  i64 coordinatorCutId
 *     78     2  u16 commandKind wire code
 *     80     2  u16 durability wire code
 *     82     4  i32 payloadVersion
 *     86     4  i32 payloadChecksum (CRC-32C of the payload bytes)
 *     90        [minor > 0 only: appended header fields, up to H]
 *      H     4  u32 payload length P
 *    H+4     P  payload
 *  H+4+P     4  u32 frame CRC-32C over bytes [0, H+4+P), i.e. header and payload
 * }</pre>
 *
 * <p>Evolution rule: a minor version may only append header fields between offset 90 and H and must
 * raise H accordingly. Because H says where the payload length lives, a reader of an older minor
 * skips fields it does not know, and a reader of a newer minor that sees a smaller H (but at least
 * 90) treats the missing appended fields as their defaults. Anything else (moving a field, changing
 * a width, reinterpreting a code) needs a new major, which every major-1 reader rejects with {@link
 * AdmissionStatus#UNSUPPORTED_PROTOCOL}.
 *
 * <p>{@link #decode} never throws: every read is preceded by a bounds check, so arbitrary bytes
 * (truncated, oversized, hostile) yield a {@link DecodeResult} failure, never an exception on the
 * operation thread that admits commands.
 */
public final class SourceCommandCodec {
    public static final int MAGIC = 0x5354434D;
    public static final int SUPPORTED_MAJOR = 1;

    static final int OFF_MAGIC = 0;
    static final int OFF_MAJOR = 4;
    static final int OFF_MINOR = 6;
    static final int OFF_HEADER_LENGTH = 8;
    static final int OFF_JOB_ID = 10;
    static final int OFF_SOURCE_RUNTIME_ID = 18;
    static final int OFF_TARGET_SUBTASK = 26;
    static final int OFF_COORDINATOR_EPOCH = 30;
    static final int OFF_SENDER_ATTEMPT_ID = 38;
    static final int OFF_TARGET_ATTEMPT_ID = 46;
    static final int OFF_SENDER_SEQUENCE = 54;
    static final int OFF_COMMAND_ID = 62;
    static final int OFF_COORDINATOR_CUT_ID = 70;
    static final int OFF_COMMAND_KIND = 78;
    static final int OFF_DURABILITY = 80;
    static final int OFF_PAYLOAD_VERSION = 82;
    static final int OFF_PAYLOAD_CHECKSUM = 86;

    /** Header length written by this codec and the smallest any major-1 frame may declare. */
    static final int BASE_HEADER_LENGTH = 90;

    static final int PAYLOAD_LENGTH_BYTES = 4;
    static final int FRAME_CRC_BYTES = 4;

    /** The smallest possible frame: base header, payload length, empty payload, frame CRC. */
    public static final int MIN_FRAME_LENGTH =
            BASE_HEADER_LENGTH + PAYLOAD_LENGTH_BYTES + FRAME_CRC_BYTES;

    private SourceCommandCodec() {}

    /**
     * Encodes an envelope as a v{@value #SUPPORTED_MAJOR} frame carrying the envelope's own minor.
     *
     * @throws IllegalArgumentException if the envelope could not be decoded by a major-1 reader:
     *     another major, a minor outside u16, or a durability that differs from its kind's (the
     *     decoder would reject it, so the sender learns now rather than from a remote rejection)
     */
    public static byte[] encode(SourceCommandEnvelope envelope) {
        Objects.requireNonNull(envelope, "envelope");
        if (envelope.protocolMajor() != SUPPORTED_MAJOR) {
            throw new IllegalArgumentException(
                    "this codec writes protocol major "
                            + SUPPORTED_MAJOR
                            + " only, envelope has "
                            + envelope.protocolMajor());
        }
        if (envelope.protocolMinor() < 0 || envelope.protocolMinor() > 0xFFFF) {
            throw new IllegalArgumentException(
                    "protocol minor out of u16 range: " + envelope.protocolMinor());
        }
        if (envelope.durability() != envelope.commandKind().durability()) {
            throw new IllegalArgumentException(
                    "durability "
                            + envelope.durability()
                            + " does not match "
                            + envelope.commandKind()
                            + " ("
                            + envelope.commandKind().durability()
                            + ")");
        }
        byte[] payload = envelope.payloadArray();
        if (payload.length > Integer.MAX_VALUE - MIN_FRAME_LENGTH) {
            throw new IllegalArgumentException("payload too large: " + payload.length);
        }
        byte[] frame = new byte[MIN_FRAME_LENGTH + payload.length];
        putInt(frame, OFF_MAGIC, MAGIC);
        putShort(frame, OFF_MAJOR, SUPPORTED_MAJOR);
        putShort(frame, OFF_MINOR, envelope.protocolMinor());
        putShort(frame, OFF_HEADER_LENGTH, BASE_HEADER_LENGTH);
        putLong(frame, OFF_JOB_ID, envelope.jobId());
        putLong(frame, OFF_SOURCE_RUNTIME_ID, envelope.sourceRuntimeId());
        putInt(frame, OFF_TARGET_SUBTASK, envelope.targetSubtask());
        putLong(frame, OFF_COORDINATOR_EPOCH, envelope.coordinatorEpoch());
        putLong(frame, OFF_SENDER_ATTEMPT_ID, envelope.senderAttemptId());
        putLong(frame, OFF_TARGET_ATTEMPT_ID, envelope.targetAttemptId());
        putLong(frame, OFF_SENDER_SEQUENCE, envelope.senderSequence());
        putLong(frame, OFF_COMMAND_ID, envelope.commandId());
        putLong(frame, OFF_COORDINATOR_CUT_ID, envelope.coordinatorCutId());
        putShort(frame, OFF_COMMAND_KIND, envelope.commandKind().wireCode());
        putShort(frame, OFF_DURABILITY, envelope.durability().wireCode());
        putInt(frame, OFF_PAYLOAD_VERSION, envelope.payloadVersion());
        putInt(frame, OFF_PAYLOAD_CHECKSUM, envelope.payloadChecksum());
        putInt(frame, BASE_HEADER_LENGTH, payload.length);
        System.arraycopy(
                payload, 0, frame, BASE_HEADER_LENGTH + PAYLOAD_LENGTH_BYTES, payload.length);
        int crcOffset = frame.length - FRAME_CRC_BYTES;
        putInt(frame, crcOffset, Crc32c.of(frame, 0, crcOffset));
        return frame;
    }

    /** Decodes a whole array as one frame; see {@link #decode(byte[], int, int, int)}. */
    public static DecodeResult decode(byte[] frame, int maxPayloadBytes) {
        return decode(frame, 0, frame == null ? 0 : frame.length, maxPayloadBytes);
    }

    /**
     * Decodes exactly {@code length} bytes starting at {@code offset} as one frame. Never throws.
     *
     * <p>Checks run cheapest-first and in a fixed order so that the reported reason is
     * deterministic: minimum length, magic, major version, header length, declared payload length
     * against {@code maxPayloadBytes} and against the available bytes, frame CRC, kind and
     * durability codes, payload CRC. The payload is copied only after every check has passed.
     *
     * @param maxPayloadBytes the largest payload the caller will admit; larger frames are rejected
     *     with {@link ReasonCode#OVERSIZE} before their CRC is computed
     */
    public static DecodeResult decode(byte[] frame, int offset, int length, int maxPayloadBytes) {
        if (frame == null
                || offset < 0
                || length < 0
                || (long) offset + length > frame.length
                || length < MIN_FRAME_LENGTH) {
            return DecodeResult.invalid(ReasonCode.TRUNCATED, "frame shorter than header");
        }
        if (getInt(frame, offset + OFF_MAGIC) != MAGIC) {
            return DecodeResult.invalid(ReasonCode.BAD_MAGIC, "not a source command frame");
        }
        int major = getUnsignedShort(frame, offset + OFF_MAJOR);
        if (major != SUPPORTED_MAJOR) {
            return DecodeResult.failure(
                    AdmissionStatus.UNSUPPORTED_PROTOCOL,
                    ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                    "protocol major " + major + ", supported " + SUPPORTED_MAJOR);
        }
        int headerLength = getUnsignedShort(frame, offset + OFF_HEADER_LENGTH);
        if (headerLength < BASE_HEADER_LENGTH) {
            return DecodeResult.invalid(
                    ReasonCode.BAD_HEADER_FIELD,
                    "header length " + headerLength + " < " + BASE_HEADER_LENGTH);
        }
        // headerLength <= 0xFFFF, so this sum cannot overflow an int.
        int fixedEnd = headerLength + PAYLOAD_LENGTH_BYTES + FRAME_CRC_BYTES;
        if (fixedEnd > length) {
            return DecodeResult.invalid(ReasonCode.TRUNCATED, "frame shorter than header");
        }
        long payloadLength = getInt(frame, offset + headerLength) & 0xFFFFFFFFL;
        if (payloadLength > maxPayloadBytes) {
            return DecodeResult.invalid(
                    ReasonCode.OVERSIZE,
                    "payload " + payloadLength + " bytes > limit " + maxPayloadBytes);
        }
        long declaredLength = fixedEnd + payloadLength;
        if (declaredLength > length) {
            return DecodeResult.invalid(ReasonCode.TRUNCATED, "frame shorter than payload");
        }
        if (declaredLength < length) {
            return DecodeResult.invalid(
                    ReasonCode.TRAILING_BYTES,
                    (length - declaredLength) + " bytes after the frame checksum");
        }
        int crcOffset = offset + length - FRAME_CRC_BYTES;
        if (Crc32c.of(frame, offset, length - FRAME_CRC_BYTES) != getInt(frame, crcOffset)) {
            return DecodeResult.invalid(ReasonCode.FRAME_CHECKSUM_MISMATCH, "frame CRC-32C");
        }
        int kindCode = getUnsignedShort(frame, offset + OFF_COMMAND_KIND);
        CommandKind kind = CommandKind.fromWireCode(kindCode);
        if (kind == null) {
            return DecodeResult.invalid(ReasonCode.UNKNOWN_KIND, "kind code " + kindCode);
        }
        int durabilityCode = getUnsignedShort(frame, offset + OFF_DURABILITY);
        Durability durability = Durability.fromWireCode(durabilityCode);
        if (durability == null) {
            return DecodeResult.invalid(
                    ReasonCode.UNKNOWN_DURABILITY, "durability code " + durabilityCode);
        }
        if (durability != kind.durability()) {
            return DecodeResult.invalid(
                    ReasonCode.KIND_DURABILITY_MISMATCH, kind + " declared as " + durability);
        }
        int payloadOffset = offset + headerLength + PAYLOAD_LENGTH_BYTES;
        int payloadLen = (int) payloadLength;
        int payloadChecksum = getInt(frame, offset + OFF_PAYLOAD_CHECKSUM);
        if (Crc32c.of(frame, payloadOffset, payloadLen) != payloadChecksum) {
            return DecodeResult.invalid(ReasonCode.PAYLOAD_CHECKSUM_MISMATCH, "payload CRC-32C");
        }
        byte[] payload = new byte[payloadLen];
        System.arraycopy(frame, payloadOffset, payload, 0, payloadLen);
        SourceCommandEnvelope envelope =
                SourceCommandEnvelope.builder(kind)
                        .protocolVersion(major, getUnsignedShort(frame, offset + OFF_MINOR))
                        .jobId(getLong(frame, offset + OFF_JOB_ID))
                        .sourceRuntimeId(getLong(frame, offset + OFF_SOURCE_RUNTIME_ID))
                        .targetSubtask(getInt(frame, offset + OFF_TARGET_SUBTASK))
                        .coordinatorEpoch(getLong(frame, offset + OFF_COORDINATOR_EPOCH))
                        .senderAttemptId(getLong(frame, offset + OFF_SENDER_ATTEMPT_ID))
                        .targetAttemptId(getLong(frame, offset + OFF_TARGET_ATTEMPT_ID))
                        .senderSequence(getLong(frame, offset + OFF_SENDER_SEQUENCE))
                        .commandId(getLong(frame, offset + OFF_COMMAND_ID))
                        .coordinatorCutId(getLong(frame, offset + OFF_COORDINATOR_CUT_ID))
                        .durability(durability)
                        .payloadVersion(getInt(frame, offset + OFF_PAYLOAD_VERSION))
                        .payload(payload)
                        .build();
        return DecodeResult.success(envelope);
    }

    static void putShort(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) (v >>> 32));
        putInt(b, off + 4, (int) v);
    }

    static int getUnsignedShort(byte[] b, int off) {
        return ((b[off] & 0xFF) << 8) | (b[off + 1] & 0xFF);
    }

    static int getInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24)
                | ((b[off + 1] & 0xFF) << 16)
                | ((b[off + 2] & 0xFF) << 8)
                | (b[off + 3] & 0xFF);
    }

    static long getLong(byte[] b, int off) {
        return ((long) getInt(b, off) << 32) | (getInt(b, off + 4) & 0xFFFFFFFFL);
    }

    /**
     * The outcome of {@link #decode}: exactly one of an envelope or a failure (status, reason and a
     * short operator-readable detail that never contains payload bytes).
     *
     * <p>Threading: immutable, any thread.
     */
    public static final class DecodeResult {
        private final SourceCommandEnvelope envelope;
        private final AdmissionStatus failureStatus;
        private final ReasonCode reasonCode;
        private final String detail;

        private DecodeResult(
                SourceCommandEnvelope envelope,
                AdmissionStatus failureStatus,
                ReasonCode reasonCode,
                String detail) {
            this.envelope = envelope;
            this.failureStatus = failureStatus;
            this.reasonCode = reasonCode;
            this.detail = detail;
        }

        static DecodeResult success(SourceCommandEnvelope envelope) {
            return new DecodeResult(envelope, null, ReasonCode.NONE, "");
        }

        static DecodeResult invalid(ReasonCode reason, String detail) {
            return failure(AdmissionStatus.INVALID_PAYLOAD, reason, detail);
        }

        static DecodeResult failure(AdmissionStatus status, ReasonCode reason, String detail) {
            return new DecodeResult(null, status, reason, detail);
        }

        public boolean isSuccess() {
            return envelope != null;
        }

        /**
         * @throws IllegalStateException if decoding failed
         */
        public SourceCommandEnvelope envelope() {
            if (envelope == null) {
                throw new IllegalStateException("decode failed: " + this);
            }
            return envelope;
        }

        /**
         * {@link AdmissionStatus#UNSUPPORTED_PROTOCOL} or {@link AdmissionStatus#INVALID_PAYLOAD}.
         *
         * @throws IllegalStateException if decoding succeeded
         */
        public AdmissionStatus failureStatus() {
            if (failureStatus == null) {
                throw new IllegalStateException("decode succeeded");
            }
            return failureStatus;
        }

        /** {@link ReasonCode#NONE} on success. */
        public ReasonCode reasonCode() {
            return reasonCode;
        }

        /** Operator-readable detail of a failure; empty on success. */
        public String detail() {
            return detail;
        }

        /** The acknowledgement an admitting endpoint returns for a frame that failed to decode. */
        public AdmissionAck toRejection(long targetAttemptId) {
            return AdmissionAck.rejected(failureStatus(), targetAttemptId, reasonCode);
        }

        @Override
        public String toString() {
            return envelope != null
                    ? "DecodeResult{" + envelope + '}'
                    : "DecodeResult{" + failureStatus + ", " + reasonCode + ", " + detail + '}';
        }
    }
}
