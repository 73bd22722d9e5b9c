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
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;

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

    private static final FrameFormat FORMAT =
            FrameFormat.named("source command frame")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, SUPPORTED_MAJOR, SUPPORTED_MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(MIN_FRAME_LENGTH)
                    .build();

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
        return FORMAT.writerOfSize(
                        SUPPORTED_MAJOR,
                        envelope.protocolMinor(),
                        MIN_FRAME_LENGTH + payload.length)
                .putU16(BASE_HEADER_LENGTH)
                .putI64(envelope.jobId())
                .putI64(envelope.sourceRuntimeId())
                .putI32(envelope.targetSubtask())
                .putI64(envelope.coordinatorEpoch())
                .putI64(envelope.senderAttemptId())
                .putI64(envelope.targetAttemptId())
                .putI64(envelope.senderSequence())
                .putI64(envelope.commandId())
                .putI64(envelope.coordinatorCutId())
                .putU16(envelope.commandKind().wireCode())
                .putU16(envelope.durability().wireCode())
                .putI32(envelope.payloadVersion())
                .putI32(envelope.payloadChecksum())
                .putBlob(payload)
                .finish();
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
        try {
            FrameReader in = FORMAT.open(frame, offset, length);
            int headerLength = in.u16At(OFF_HEADER_LENGTH);
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
            long payloadLength = in.i32At(headerLength) & 0xFFFFFFFFL;
            if (payloadLength > maxPayloadBytes) {
                return DecodeResult.invalid(
                        ReasonCode.OVERSIZE,
                        "payload " + payloadLength + " bytes > limit " + maxPayloadBytes);
            }
            in.expectLength(fixedEnd + payloadLength);
            in.verifyChecksum();
            int kindCode = in.u16At(OFF_COMMAND_KIND);
            CommandKind kind = CommandKind.fromWireCode(kindCode);
            if (kind == null) {
                return DecodeResult.invalid(ReasonCode.UNKNOWN_KIND, "kind code " + kindCode);
            }
            int durabilityCode = in.u16At(OFF_DURABILITY);
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
            if (Crc32c.of(frame, payloadOffset, payloadLen) != in.i32At(OFF_PAYLOAD_CHECKSUM)) {
                return DecodeResult.invalid(
                        ReasonCode.PAYLOAD_CHECKSUM_MISMATCH, "payload CRC-32C");
            }
            in.seek(headerLength + PAYLOAD_LENGTH_BYTES);
            byte[] payload = in.bytes(payloadLen);
            SourceCommandEnvelope envelope =
                    SourceCommandEnvelope.builder(kind)
                            .protocolVersion(in.version(), in.minor())
                            .jobId(in.i64At(OFF_JOB_ID))
                            .sourceRuntimeId(in.i64At(OFF_SOURCE_RUNTIME_ID))
                            .targetSubtask(in.i32At(OFF_TARGET_SUBTASK))
                            .coordinatorEpoch(in.i64At(OFF_COORDINATOR_EPOCH))
                            .senderAttemptId(in.i64At(OFF_SENDER_ATTEMPT_ID))
                            .targetAttemptId(in.i64At(OFF_TARGET_ATTEMPT_ID))
                            .senderSequence(in.i64At(OFF_SENDER_SEQUENCE))
                            .commandId(in.i64At(OFF_COMMAND_ID))
                            .coordinatorCutId(in.i64At(OFF_COORDINATOR_CUT_ID))
                            .durability(durability)
                            .payloadVersion(in.i32At(OFF_PAYLOAD_VERSION))
                            .payload(payload)
                            .build();
            return DecodeResult.success(envelope);
        } catch (FrameException e) {
            return DecodeResult.failure(statusOf(e), reasonOf(e), e.detail());
        }
    }

    /** The admission answer to a frame the frame codec refused. */
    static AdmissionStatus statusOf(FrameException e) {
        return e.reason() == FrameRefusal.UNSUPPORTED_VERSION
                ? AdmissionStatus.UNSUPPORTED_PROTOCOL
                : AdmissionStatus.INVALID_PAYLOAD;
    }

    /** The wire reason of a frame the frame codec refused. */
    static ReasonCode reasonOf(FrameException e) {
        switch (e.reason()) {
            case BAD_MAGIC:
                return ReasonCode.BAD_MAGIC;
            case UNSUPPORTED_VERSION:
                return ReasonCode.UNSUPPORTED_MAJOR_VERSION;
            case TRUNCATED:
                return ReasonCode.TRUNCATED;
            case OVERSIZE:
                return ReasonCode.OVERSIZE;
            case TRAILING_BYTES:
                return ReasonCode.TRAILING_BYTES;
            case CHECKSUM_MISMATCH:
                return ReasonCode.FRAME_CHECKSUM_MISMATCH;
            default:
                return ReasonCode.BAD_HEADER_FIELD;
        }
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
