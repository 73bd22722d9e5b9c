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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Pins the bytes of the one-long payload (checkpoint barriers, completions and aborts). If this
 * fails, readers and coordinators of different builds disagree on checkpoint ids: the change needs
 * a new payload version, not a new golden string.
 */
class LongPayloadGoldenTest {

    @Test
    void encodesBigEndianEightBytes() {
        assertEquals("0102030405060708", hex(LongPayload.encode(0x0102030405060708L)));
        assertEquals("fffffffffffffffe", hex(LongPayload.encode(-2)));
        assertEquals("0000000000000000", hex(LongPayload.encode(0)));
        assertEquals("7fffffffffffffff", hex(LongPayload.encode(Long.MAX_VALUE)));
        assertEquals("8000000000000000", hex(LongPayload.encode(Long.MIN_VALUE)));
    }

    @Test
    void decodesTheGoldenBytesOfEveryKindThatCarriesALong() {
        byte[] golden = HexFormat.of().parseHex("00000000000003e9");
        for (CommandKind kind :
                new CommandKind[] {
                    CommandKind.CHECKPOINT_BARRIER,
                    CommandKind.CHECKPOINT_COMPLETE,
                    CommandKind.CHECKPOINT_ABORTED
                }) {
            SourceCommandEnvelope env = envelope(kind, golden);
            assertEquals(1001L, LongPayload.decode(env), kind.name());
            // Through the wire codec too: the frame carries the payload unchanged.
            SourceCommandEnvelope back =
                    SourceCommandCodec.decode(SourceCommandCodec.encode(env), 64).envelope();
            assertEquals(1001L, LongPayload.decode(back), kind.name());
            assertArrayEquals(golden, back.copyPayload(), kind.name());
        }
    }

    @Test
    void readsFromThePositionWithoutConsumingIt() {
        ByteBuffer b = ByteBuffer.wrap(HexFormat.of().parseHex("aa0102030405060708"));
        b.get();
        assertEquals(0x0102030405060708L, LongPayload.decode(b));
        assertEquals(1, b.position());
    }

    @Test
    void refusesAPayloadThatIsNotExactlyOneLong() {
        assertThrows(
                IllegalArgumentException.class,
                () -> LongPayload.decode(envelope(CommandKind.CHECKPOINT_BARRIER, new byte[7])));
        assertThrows(
                IllegalArgumentException.class,
                () -> LongPayload.decode(envelope(CommandKind.CHECKPOINT_BARRIER, new byte[9])));
        assertEquals(
                -1L, LongPayload.decodeOr(envelope(CommandKind.GRACEFUL_CLOSE, new byte[0]), -1L));
        assertEquals(
                5L,
                LongPayload.decodeOr(
                        envelope(CommandKind.CHECKPOINT_ABORTED, LongPayload.encode(5)), -1L));
    }

    private static SourceCommandEnvelope envelope(CommandKind kind, byte[] payload) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(1)
                .sourceRuntimeId(2)
                .targetSubtask(0)
                .targetAttemptId(3)
                .senderAttemptId(3)
                .commandId(-1)
                .payloadVersion(1)
                .payload(payload)
                .build();
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
