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

import static org.apache.seatunnel.engine.managed.source.protocol.FrameBytes.putInt;
import static org.apache.seatunnel.engine.managed.source.protocol.FrameBytes.putShort;
import static org.apache.seatunnel.engine.managed.source.protocol.FrameBytes.reseal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SourceCommandCodecTest {
    private static final int MAX = 4096;

    /** Offsets from the layout table; the tests do not read the codec's constants. */
    private static final int MAJOR_AT = 4;

    private static final int MINOR_AT = 6;
    private static final int HEADER_LENGTH_AT = 8;
    private static final int KIND_AT = 78;
    private static final int DURABILITY_AT = 80;
    private static final int PAYLOAD_LENGTH_AT = 90;
    private static final int PAYLOAD_AT = 94;

    private static SourceCommandEnvelope populated(CommandKind kind) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(Long.MIN_VALUE)
                .sourceRuntimeId(Long.MAX_VALUE)
                .targetSubtask(-1)
                .coordinatorEpoch(17)
                .senderAttemptId(0xCAFEL)
                .targetAttemptId(0xBEEFL)
                .senderSequence(123_456_789_012L)
                .commandId(-42)
                .coordinatorCutId(9)
                .payloadVersion(Integer.MIN_VALUE)
                .payload(("payload of " + kind).getBytes(StandardCharsets.UTF_8))
                .build();
    }

    private static byte[] frame() {
        return SourceCommandCodec.encode(populated(CommandKind.SPLIT_ASSIGNMENT));
    }

    private static void assertInvalid(ReasonCode expected, SourceCommandCodec.DecodeResult r) {
        assertFalse(r.isSuccess(), r::toString);
        assertEquals(expected, r.reasonCode(), r::toString);
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, r.failureStatus(), r::toString);
        assertFalse(r.detail().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(CommandKind.class)
    void everyKindRoundTripsWithAllFields(CommandKind kind) {
        SourceCommandEnvelope original = populated(kind);
        byte[] frame = SourceCommandCodec.encode(original);
        SourceCommandCodec.DecodeResult r = SourceCommandCodec.decode(frame, MAX);
        assertTrue(r.isSuccess(), r::toString);
        SourceCommandEnvelope decoded = r.envelope();
        assertEquals(original, decoded);
        // equals() is the contract, but pin the fields it compares so a weakened equals shows up.
        assertEquals(kind, decoded.commandKind());
        assertEquals(kind.durability(), decoded.durability());
        assertEquals(Long.MIN_VALUE, decoded.jobId());
        assertEquals(Long.MAX_VALUE, decoded.sourceRuntimeId());
        assertEquals(-1, decoded.targetSubtask());
        assertEquals(17, decoded.coordinatorEpoch());
        assertEquals(0xCAFEL, decoded.senderAttemptId());
        assertEquals(0xBEEFL, decoded.targetAttemptId());
        assertEquals(123_456_789_012L, decoded.senderSequence());
        assertEquals(-42, decoded.commandId());
        assertEquals(9, decoded.coordinatorCutId());
        assertEquals(Integer.MIN_VALUE, decoded.payloadVersion());
        assertEquals(original.payloadChecksum(), decoded.payloadChecksum());
        assertArrayEquals(original.copyPayload(), decoded.copyPayload());
        assertEquals(ProtocolVersion.MAJOR, decoded.protocolMajor());
        assertEquals(ProtocolVersion.MINOR, decoded.protocolMinor());
        assertEquals(ReasonCode.NONE, r.reasonCode());
        assertThrows(IllegalStateException.class, r::failureStatus);
    }

    @Test
    void emptyPayloadRoundTrips() {
        SourceCommandEnvelope e = SourceCommandEnvelope.builder(CommandKind.NO_MORE_SPLITS).build();
        byte[] frame = SourceCommandCodec.encode(e);
        assertEquals(SourceCommandCodec.MIN_FRAME_LENGTH, frame.length);
        assertEquals(e, SourceCommandCodec.decode(frame, 0).envelope());
    }

    @Test
    void decodesAFrameEmbeddedAtAnOffset() {
        byte[] frame = frame();
        byte[] buffer = new byte[frame.length + 13];
        Arrays.fill(buffer, (byte) 0x5A);
        System.arraycopy(frame, 0, buffer, 7, frame.length);
        SourceCommandCodec.DecodeResult r = SourceCommandCodec.decode(buffer, 7, frame.length, MAX);
        assertTrue(r.isSuccess(), r::toString);
        assertEquals(populated(CommandKind.SPLIT_ASSIGNMENT), r.envelope());
    }

    @Test
    void newerMinorWithAppendedHeaderFieldsDecodes() {
        byte[] v10 = frame();
        int appended = 12;
        byte[] v11 = new byte[v10.length + appended];
        System.arraycopy(v10, 0, v11, 0, PAYLOAD_LENGTH_AT);
        Arrays.fill(v11, PAYLOAD_LENGTH_AT, PAYLOAD_LENGTH_AT + appended, (byte) 0x77);
        System.arraycopy(
                v10,
                PAYLOAD_LENGTH_AT,
                v11,
                PAYLOAD_LENGTH_AT + appended,
                v10.length - PAYLOAD_LENGTH_AT);
        putShort(v11, MINOR_AT, ProtocolVersion.MINOR + 1);
        putShort(v11, HEADER_LENGTH_AT, PAYLOAD_LENGTH_AT + appended);
        reseal(v11);

        SourceCommandCodec.DecodeResult r = SourceCommandCodec.decode(v11, MAX);

        assertTrue(r.isSuccess(), r::toString);
        SourceCommandEnvelope expected =
                populated(CommandKind.SPLIT_ASSIGNMENT).toBuilder()
                        .protocolVersion(ProtocolVersion.MAJOR, ProtocolVersion.MINOR + 1)
                        .build();
        assertEquals(expected, r.envelope());
    }

    @Test
    void failureConvertsToRejectionAck() {
        byte[] frame = putShort(frame(), MAJOR_AT, 9);
        AdmissionAck ack = SourceCommandCodec.decode(frame, MAX).toRejection(5);
        assertEquals(
                AdmissionAck.rejected(
                        AdmissionStatus.UNSUPPORTED_PROTOCOL,
                        5,
                        ReasonCode.UNSUPPORTED_MAJOR_VERSION),
                ack);
    }

    // ---- one test per reason the decoder can return ----

    @Test
    void badMagic() {
        byte[] frame = reseal(putInt(frame(), 0, 0x5354434E));
        assertInvalid(ReasonCode.BAD_MAGIC, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void unsupportedMajorVersionIsUnsupportedProtocol() {
        byte[] frame = reseal(putShort(frame(), MAJOR_AT, 2));
        SourceCommandCodec.DecodeResult r = SourceCommandCodec.decode(frame, MAX);
        assertFalse(r.isSuccess());
        assertEquals(ReasonCode.UNSUPPORTED_MAJOR_VERSION, r.reasonCode());
        assertEquals(AdmissionStatus.UNSUPPORTED_PROTOCOL, r.failureStatus());
        assertTrue(r.detail().contains("2"), r.detail());
    }

    @Test
    void frameChecksumMismatchOnAnyFlippedHeaderBit() {
        byte[] frame = frame();
        frame[40] ^= 0x10; // inside senderAttemptId, covered only by the frame CRC
        assertInvalid(ReasonCode.FRAME_CHECKSUM_MISMATCH, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void payloadChecksumMismatchWhenFrameCrcWasRecomputedOverATamperedPayload() {
        byte[] frame = frame();
        frame[PAYLOAD_AT] ^= 0x01;
        reseal(frame);
        assertInvalid(ReasonCode.PAYLOAD_CHECKSUM_MISMATCH, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void truncatedBelowFixedHeader() {
        byte[] frame = Arrays.copyOf(frame(), SourceCommandCodec.MIN_FRAME_LENGTH - 1);
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void truncatedInsidePayload() {
        byte[] full = frame();
        byte[] frame = Arrays.copyOf(full, full.length - 1);
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void truncatedWhenHeaderLengthPointsPastTheFrame() {
        byte[] frame = reseal(putShort(frame(), HEADER_LENGTH_AT, 0xFFFF));
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void outOfRangeArgumentsAndNullAreTruncatedNotExceptions() {
        byte[] frame = frame();
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(null, MAX));
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(null, 0, 200, MAX));
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, -1, 100, MAX));
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, 0, -5, MAX));
        assertInvalid(ReasonCode.TRUNCATED, SourceCommandCodec.decode(frame, 1, frame.length, MAX));
        assertInvalid(
                ReasonCode.TRUNCATED,
                SourceCommandCodec.decode(frame, Integer.MAX_VALUE, Integer.MAX_VALUE, MAX));
    }

    @Test
    void oversizeAgainstCallerLimit() {
        byte[] frame = frame();
        int payloadLength = ByteBuffer.wrap(frame).getInt(PAYLOAD_LENGTH_AT);
        assertTrue(SourceCommandCodec.decode(frame, payloadLength).isSuccess());
        assertInvalid(ReasonCode.OVERSIZE, SourceCommandCodec.decode(frame, payloadLength - 1));
    }

    @Test
    void oversizeForUnsignedLengthAboveIntRange() {
        byte[] frame = reseal(putInt(frame(), PAYLOAD_LENGTH_AT, 0xFFFFFFFF));
        assertInvalid(ReasonCode.OVERSIZE, SourceCommandCodec.decode(frame, Integer.MAX_VALUE));
    }

    @Test
    void unknownKind() {
        byte[] frame = reseal(putShort(frame(), KIND_AT, 0x7FFF));
        assertInvalid(ReasonCode.UNKNOWN_KIND, SourceCommandCodec.decode(frame, MAX));
        byte[] zero = reseal(putShort(frame(), KIND_AT, 0));
        assertInvalid(ReasonCode.UNKNOWN_KIND, SourceCommandCodec.decode(zero, MAX));
    }

    @Test
    void unknownDurability() {
        byte[] frame = reseal(putShort(frame(), DURABILITY_AT, 99));
        assertInvalid(ReasonCode.UNKNOWN_DURABILITY, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void kindDurabilityMismatch() {
        byte[] frame = reseal(putShort(frame(), DURABILITY_AT, Durability.EPHEMERAL.wireCode()));
        assertInvalid(ReasonCode.KIND_DURABILITY_MISMATCH, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void badHeaderFieldWhenHeaderLengthIsBelowVersion1Layout() {
        byte[] frame = reseal(putShort(frame(), HEADER_LENGTH_AT, PAYLOAD_LENGTH_AT - 1));
        assertInvalid(ReasonCode.BAD_HEADER_FIELD, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void trailingBytes() {
        byte[] full = frame();
        byte[] frame = Arrays.copyOf(full, full.length + 1);
        assertInvalid(ReasonCode.TRAILING_BYTES, SourceCommandCodec.decode(frame, MAX));
    }

    // ---- check order ----

    @Test
    void magicIsCheckedBeforeVersionAndChecksum() {
        byte[] frame = putShort(putInt(frame(), 0, 0), MAJOR_AT, 7);
        assertInvalid(ReasonCode.BAD_MAGIC, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void majorIsCheckedBeforeLengthsAndChecksum() {
        byte[] full = putShort(frame(), MAJOR_AT, 7);
        byte[] frame = Arrays.copyOf(full, full.length + 3); // trailing bytes, broken CRC
        assertEquals(
                ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                SourceCommandCodec.decode(frame, MAX).reasonCode());
    }

    @Test
    void oversizeIsReportedBeforeTheChecksumIsComputed() {
        byte[] frame = putInt(frame(), PAYLOAD_LENGTH_AT, 1 << 20); // CRC now wrong as well
        assertInvalid(ReasonCode.OVERSIZE, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void frameChecksumIsCheckedBeforeKindAndDurability() {
        byte[] frame = putShort(frame(), KIND_AT, 0x7FFF); // not resealed
        assertInvalid(ReasonCode.FRAME_CHECKSUM_MISMATCH, SourceCommandCodec.decode(frame, MAX));
    }

    @Test
    void kindIsCheckedBeforePayloadChecksum() {
        byte[] frame = putShort(frame(), KIND_AT, 0x7FFF);
        frame[PAYLOAD_AT] ^= 0x01;
        reseal(frame);
        assertInvalid(ReasonCode.UNKNOWN_KIND, SourceCommandCodec.decode(frame, MAX));
    }

    // ---- encoder preconditions ----

    @Test
    void encodeRejectsAnotherMajor() {
        SourceCommandEnvelope e =
                populated(CommandKind.SPLIT_ASSIGNMENT).toBuilder().protocolVersion(2, 0).build();
        assertThrows(IllegalArgumentException.class, () -> SourceCommandCodec.encode(e));
    }

    @Test
    void encodeRejectsMinorOutsideU16() {
        SourceCommandEnvelope e =
                populated(CommandKind.SPLIT_ASSIGNMENT).toBuilder()
                        .protocolVersion(1, 0x10000)
                        .build();
        assertThrows(IllegalArgumentException.class, () -> SourceCommandCodec.encode(e));
    }

    @Test
    void encodeRejectsDurabilityThatDecoderWouldRefuse() {
        SourceCommandEnvelope e =
                populated(CommandKind.SPLIT_ASSIGNMENT).toBuilder()
                        .durability(Durability.EPHEMERAL)
                        .build();
        assertThrows(IllegalArgumentException.class, () -> SourceCommandCodec.encode(e));
    }
}
