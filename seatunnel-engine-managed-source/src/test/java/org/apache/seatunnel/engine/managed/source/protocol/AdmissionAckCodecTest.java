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

import static org.apache.seatunnel.engine.managed.source.protocol.FrameBytes.putShort;
import static org.apache.seatunnel.engine.managed.source.protocol.FrameBytes.reseal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AdmissionAckCodecTest {
    private static final int MAJOR_AT = 4;
    private static final int MINOR_AT = 6;
    private static final int BODY_LENGTH_AT = 8;
    private static final int STATUS_AT = 10;
    private static final int REASON_AT = 11;

    /**
     * Computed independently with python3 from the layout in the {@link AdmissionAckCodec} javadoc:
     * {@code body = b"STCA" + struct.pack(">HHHBHqqq", 1, 0, 37, 3, 13, 0x42, -1, 250)}, followed
     * by the bitwise CRC-32C of {@code body} as u32.
     */
    private static final String GOLDEN_V1_0 =
            "53544341" // magic
                    + "0001" // major
                    + "0000" // minor
                    + "0025" // body length 37
                    + "03" // RETRY_LATER
                    + "000d" // MAILBOX_BYTES_FULL
                    + "0000000000000042" // targetAttemptId
                    + "ffffffffffffffff" // mailboxSequence NO_SEQUENCE
                    + "00000000000000fa" // retryAfterMillis 250
                    + "ee1134fa"; // CRC-32C

    private static final AdmissionAck GOLDEN_ACK =
            AdmissionAck.retryLater(0x42, 250, ReasonCode.MAILBOX_BYTES_FULL);

    private static void assertFailure(ReasonCode expected, AdmissionAckCodec.DecodeResult r) {
        assertFalse(r.isSuccess(), r::toString);
        assertEquals(expected, r.reasonCode(), r::toString);
        assertFalse(r.detail().isEmpty());
        assertThrows(IllegalStateException.class, r::ack);
    }

    @Test
    void encodeProducesPinnedVersion1Bytes() {
        assertEquals(GOLDEN_V1_0, HexFormat.of().formatHex(AdmissionAckCodec.encode(GOLDEN_ACK)));
    }

    @Test
    void pinnedVersion1BytesDecode() {
        AdmissionAckCodec.DecodeResult r =
                AdmissionAckCodec.decode(HexFormat.of().parseHex(GOLDEN_V1_0));
        assertTrue(r.isSuccess(), r::toString);
        assertEquals(GOLDEN_ACK, r.ack());
        assertEquals(ReasonCode.NONE, r.reasonCode());
    }

    @ParameterizedTest
    @EnumSource(AdmissionStatus.class)
    void everyStatusRoundTrips(AdmissionStatus status) {
        AdmissionAck ack = new AdmissionAck(status, -3, 77, 1_000, ReasonCode.WRONG_TARGET);
        assertEquals(ack, AdmissionAckCodec.decode(AdmissionAckCodec.encode(ack)).ack());
    }

    @ParameterizedTest
    @EnumSource(ReasonCode.class)
    void everyReasonRoundTrips(ReasonCode reason) {
        AdmissionAck ack = AdmissionAck.rejected(AdmissionStatus.INVALID_PAYLOAD, 9, reason);
        assertEquals(ack, AdmissionAckCodec.decode(AdmissionAckCodec.encode(ack)).ack());
    }

    @Test
    void newerMinorWithAppendedFieldsDecodes() {
        byte[] v10 = AdmissionAckCodec.encode(GOLDEN_ACK);
        byte[] v11 = Arrays.copyOf(v10, v10.length + 6);
        putShort(v11, MINOR_AT, ProtocolVersion.MINOR + 1);
        putShort(v11, BODY_LENGTH_AT, 37 + 6);
        Arrays.fill(v11, 37, 43, (byte) 0x11);
        reseal(v11);
        assertEquals(GOLDEN_ACK, AdmissionAckCodec.decode(v11).ack());
    }

    @Test
    void decodesAtAnOffset() {
        byte[] ack = AdmissionAckCodec.encode(GOLDEN_ACK);
        byte[] buffer = new byte[ack.length + 5];
        System.arraycopy(ack, 0, buffer, 3, ack.length);
        assertEquals(GOLDEN_ACK, AdmissionAckCodec.decode(buffer, 3, ack.length).ack());
    }

    @Test
    void badMagic() {
        byte[] b = AdmissionAckCodec.encode(GOLDEN_ACK);
        b[3] ^= 1;
        assertFailure(ReasonCode.BAD_MAGIC, AdmissionAckCodec.decode(reseal(b)));
    }

    @Test
    void unsupportedMajor() {
        byte[] b = reseal(putShort(AdmissionAckCodec.encode(GOLDEN_ACK), MAJOR_AT, 2));
        assertFailure(ReasonCode.UNSUPPORTED_MAJOR_VERSION, AdmissionAckCodec.decode(b));
    }

    @Test
    void checksumMismatch() {
        byte[] b = AdmissionAckCodec.encode(GOLDEN_ACK);
        b[20] ^= 0x40;
        assertFailure(ReasonCode.FRAME_CHECKSUM_MISMATCH, AdmissionAckCodec.decode(b));
    }

    @Test
    void truncated() {
        byte[] b = AdmissionAckCodec.encode(GOLDEN_ACK);
        assertFailure(
                ReasonCode.TRUNCATED, AdmissionAckCodec.decode(Arrays.copyOf(b, b.length - 1)));
        assertFailure(ReasonCode.TRUNCATED, AdmissionAckCodec.decode(null));
        assertFailure(ReasonCode.TRUNCATED, AdmissionAckCodec.decode(b, 1, b.length));
        assertFailure(ReasonCode.TRUNCATED, AdmissionAckCodec.decode(b, -1, 10));
        byte[] longBody =
                reseal(putShort(AdmissionAckCodec.encode(GOLDEN_ACK), BODY_LENGTH_AT, 40));
        assertFailure(ReasonCode.TRUNCATED, AdmissionAckCodec.decode(longBody));
    }

    @Test
    void trailingBytes() {
        byte[] b = AdmissionAckCodec.encode(GOLDEN_ACK);
        assertFailure(
                ReasonCode.TRAILING_BYTES,
                AdmissionAckCodec.decode(Arrays.copyOf(b, b.length + 2)));
    }

    @Test
    void badHeaderFieldForShortBodyUnknownStatusAndUnknownReason() {
        byte[] shortBody =
                reseal(putShort(AdmissionAckCodec.encode(GOLDEN_ACK), BODY_LENGTH_AT, 36));
        assertFailure(ReasonCode.BAD_HEADER_FIELD, AdmissionAckCodec.decode(shortBody));

        byte[] status = AdmissionAckCodec.encode(GOLDEN_ACK);
        status[STATUS_AT] = 0;
        assertFailure(ReasonCode.BAD_HEADER_FIELD, AdmissionAckCodec.decode(reseal(status)));

        byte[] reason = reseal(putShort(AdmissionAckCodec.encode(GOLDEN_ACK), REASON_AT, 999));
        assertFailure(ReasonCode.BAD_HEADER_FIELD, AdmissionAckCodec.decode(reason));
    }

    @Test
    void checksumIsCheckedBeforeCodes() {
        byte[] b = AdmissionAckCodec.encode(GOLDEN_ACK);
        b[STATUS_AT] = 0; // not resealed
        assertFailure(ReasonCode.FRAME_CHECKSUM_MISMATCH, AdmissionAckCodec.decode(b));
    }
}
