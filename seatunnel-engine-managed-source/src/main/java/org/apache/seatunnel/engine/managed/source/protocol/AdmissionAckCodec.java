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

/**
 * Binary codec for {@link AdmissionAck}, protocol major version 1.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Layout (big-endian):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53 0x54 0x43 0x41 ("STCA")
 *      4     2  u16 protocol major (1)
 *      6     2  u16 protocol minor
 *      8     2  u16 body length B = offset of the frame CRC (37 in v1.0)
 *     10     1  u8  AdmissionStatus wire code
 *     11     2  u16 ReasonCode wire code
 *     13     8  i64 targetAttemptId
 *     21     8  i64 mailboxSequence
 *     29     8  i64 retryAfterMillis
 *     37        [minor > 0 only: appended fields, up to B]
 *      B     4  u32 CRC-32C over bytes [0, B)
 * }</pre>
 *
 * <p>As for commands, a minor version may only append fields before the CRC and raise B; a reader
 * skips what it does not know. An unknown status or reason code is rejected rather than guessed, so
 * adding a code is a protocol change that needs a homogeneous cluster (STIP-31 "Compatibility and
 * upgrades"). {@link #decode} never throws.
 */
public final class AdmissionAckCodec {
    public static final int MAGIC = 0x53544341;
    public static final int SUPPORTED_MAJOR = 1;

    static final int OFF_BODY_LENGTH = 8;
    static final int OFF_STATUS = 10;
    static final int OFF_REASON = 11;
    static final int OFF_TARGET_ATTEMPT_ID = 13;
    static final int OFF_MAILBOX_SEQUENCE = 21;
    static final int OFF_RETRY_AFTER_MILLIS = 29;
    static final int BASE_BODY_LENGTH = 37;
    static final int CRC_BYTES = 4;

    /** Every v1.0 acknowledgement is exactly this long. */
    public static final int FRAME_LENGTH = BASE_BODY_LENGTH + CRC_BYTES;

    private static final FrameFormat FORMAT =
            FrameFormat.named("admission ack")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, SUPPORTED_MAJOR, SUPPORTED_MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(FRAME_LENGTH)
                    .build();

    private AdmissionAckCodec() {}

    public static byte[] encode(AdmissionAck ack) {
        Objects.requireNonNull(ack, "ack");
        return FORMAT.writerOfSize(SUPPORTED_MAJOR, ProtocolVersion.MINOR, FRAME_LENGTH)
                .putU16(BASE_BODY_LENGTH)
                .putU8(ack.status().wireCode())
                .putU16(ack.reasonCode().wireCode())
                .putI64(ack.targetAttemptId())
                .putI64(ack.mailboxSequence())
                .putI64(ack.retryAfterMillis())
                .finish();
    }

    public static DecodeResult decode(byte[] frame) {
        return decode(frame, 0, frame == null ? 0 : frame.length);
    }

    /**
     * Decodes exactly {@code length} bytes at {@code offset}. Never throws. Check order: minimum
     * length, magic, major, body length, exact frame length, CRC, status and reason codes.
     */
    public static DecodeResult decode(byte[] frame, int offset, int length) {
        try {
            FrameReader in = FORMAT.open(frame, offset, length);
            int bodyLength = in.u16At(OFF_BODY_LENGTH);
            if (bodyLength < BASE_BODY_LENGTH) {
                return DecodeResult.failure(
                        ReasonCode.BAD_HEADER_FIELD,
                        "body length " + bodyLength + " < " + BASE_BODY_LENGTH);
            }
            in.expectLength(bodyLength + CRC_BYTES);
            in.verifyChecksum();
            int statusCode = in.u8At(OFF_STATUS);
            AdmissionStatus status = AdmissionStatus.fromWireCode(statusCode);
            if (status == null) {
                return DecodeResult.failure(
                        ReasonCode.BAD_HEADER_FIELD, "unknown status code " + statusCode);
            }
            int reasonCode = in.u16At(OFF_REASON);
            ReasonCode reason = ReasonCode.fromWireCode(reasonCode);
            if (reason == null) {
                return DecodeResult.failure(
                        ReasonCode.BAD_HEADER_FIELD, "unknown reason code " + reasonCode);
            }
            return DecodeResult.success(
                    new AdmissionAck(
                            status,
                            in.i64At(OFF_TARGET_ATTEMPT_ID),
                            in.i64At(OFF_MAILBOX_SEQUENCE),
                            in.i64At(OFF_RETRY_AFTER_MILLIS),
                            reason));
        } catch (FrameException e) {
            return DecodeResult.failure(SourceCommandCodec.reasonOf(e), e.detail());
        }
    }

    /**
     * The outcome of {@link #decode}: an acknowledgement, or a failure reason with an
     * operator-readable detail.
     *
     * <p>Threading: immutable, any thread.
     */
    public static final class DecodeResult {
        private final AdmissionAck ack;
        private final ReasonCode reasonCode;
        private final String detail;

        private DecodeResult(AdmissionAck ack, ReasonCode reasonCode, String detail) {
            this.ack = ack;
            this.reasonCode = reasonCode;
            this.detail = detail;
        }

        static DecodeResult success(AdmissionAck ack) {
            return new DecodeResult(ack, ReasonCode.NONE, "");
        }

        static DecodeResult failure(ReasonCode reason, String detail) {
            return new DecodeResult(null, reason, detail);
        }

        public boolean isSuccess() {
            return ack != null;
        }

        /**
         * @throws IllegalStateException if decoding failed
         */
        public AdmissionAck ack() {
            if (ack == null) {
                throw new IllegalStateException("decode failed: " + this);
            }
            return ack;
        }

        /** Why decoding failed; {@link ReasonCode#NONE} on success. */
        public ReasonCode reasonCode() {
            return reasonCode;
        }

        public String detail() {
            return detail;
        }

        @Override
        public String toString() {
            return ack != null
                    ? "DecodeResult{" + ack + '}'
                    : "DecodeResult{" + reasonCode + ", " + detail + '}';
        }
    }
}
