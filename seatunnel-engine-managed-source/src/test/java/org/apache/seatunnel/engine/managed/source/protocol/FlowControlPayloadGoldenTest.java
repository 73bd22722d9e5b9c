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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Pins the bytes of the two flow-control payloads a reader sends its coordinator: the registration
 * (credit and split windows, version 3) and the apply acknowledgement (watermark and split backlog,
 * version 3). If this fails, readers and coordinators of different builds disagree on how much a
 * reader may be sent: the change needs a new payload version, not a new golden string.
 */
class FlowControlPayloadGoldenTest {

    @Test
    void registrationCarriesCommandsBytesAndSplits() {
        byte[] b = RegistrationPayload.encode(1024, 4L << 20, 2048);
        assertEquals("00000400" + "0000000000400000" + "00000800", hex(b));
        RegistrationPayload p = RegistrationPayload.decode(ByteBuffer.wrap(b));
        assertEquals(1024, p.windowCommands());
        assertEquals(4L << 20, p.windowBytes());
        assertEquals(2048, p.windowSplits());
        assertEquals(3, RegistrationPayload.VERSION);
        assertEquals(
                RegistrationPayload.NO_SPLIT_WINDOW,
                RegistrationPayload.decode(ByteBuffer.wrap(RegistrationPayload.encode(1, 1, 0)))
                        .windowSplits());
    }

    @Test
    void registrationRefusesWhatIsNotAWindow() {
        assertEquals(ReasonCode.TRUNCATED, RegistrationPayload.check(ByteBuffer.allocate(12)));
        assertEquals(ReasonCode.TRAILING_BYTES, RegistrationPayload.check(ByteBuffer.allocate(17)));
        byte[] negative = HexFormat.of().parseHex("00000001" + "0000000000000001" + "ffffffff");
        assertEquals(
                ReasonCode.MALFORMED_PAYLOAD, RegistrationPayload.check(ByteBuffer.wrap(negative)));
        assertThrows(
                IllegalArgumentException.class,
                () -> RegistrationPayload.decode(ByteBuffer.wrap(negative)));
        assertThrows(IllegalArgumentException.class, () -> RegistrationPayload.encode(1, 1, -1));
    }

    @Test
    void appliedAcknowledgementCarriesWatermarkBacklogAndLastBarrier() {
        byte[] b = AppliedAckPayload.encode(0x0102030405060708L, 512, 0x1112131415161718L);
        assertEquals("0102030405060708" + "00000200" + "1112131415161718", hex(b));
        AppliedAckPayload p = AppliedAckPayload.decode(ByteBuffer.wrap(b));
        assertEquals(0x0102030405060708L, p.watermark());
        assertEquals(512, p.backlog());
        assertEquals(0x1112131415161718L, p.lastBarrier());
        assertEquals(
                "0000000000000003" + "ffffffff" + "0000000000000000",
                hex(AppliedAckPayload.encode(3, AppliedAckPayload.UNKNOWN_BACKLOG, 0)));
        assertEquals(4, AppliedAckPayload.VERSION);
    }

    @Test
    void appliedAcknowledgementRefusesWhatIsNotOne() {
        assertEquals(ReasonCode.TRUNCATED, AppliedAckPayload.check(ByteBuffer.allocate(8)));
        // A version 3 acknowledgement (no barrier) is no longer accepted.
        assertEquals(ReasonCode.TRUNCATED, AppliedAckPayload.check(ByteBuffer.allocate(12)));
        assertEquals(ReasonCode.TRAILING_BYTES, AppliedAckPayload.check(ByteBuffer.allocate(21)));
        byte[] negativeWatermark =
                HexFormat.of().parseHex("ffffffffffffffff" + "00000000" + "0000000000000000");
        assertEquals(
                ReasonCode.MALFORMED_PAYLOAD,
                AppliedAckPayload.check(ByteBuffer.wrap(negativeWatermark)));
        byte[] badBacklog =
                HexFormat.of().parseHex("0000000000000001" + "fffffffe" + "0000000000000000");
        assertEquals(
                ReasonCode.MALFORMED_PAYLOAD, AppliedAckPayload.check(ByteBuffer.wrap(badBacklog)));
        assertThrows(
                IllegalArgumentException.class,
                () -> AppliedAckPayload.decode(ByteBuffer.wrap(badBacklog)));
        byte[] negativeBarrier =
                HexFormat.of().parseHex("0000000000000001" + "00000000" + "ffffffffffffffff");
        assertEquals(
                ReasonCode.MALFORMED_PAYLOAD,
                AppliedAckPayload.check(ByteBuffer.wrap(negativeBarrier)));
        assertThrows(IllegalArgumentException.class, () -> AppliedAckPayload.encode(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> AppliedAckPayload.encode(0, -2, 0));
        assertThrows(IllegalArgumentException.class, () -> AppliedAckPayload.encode(0, 0, -1));
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
