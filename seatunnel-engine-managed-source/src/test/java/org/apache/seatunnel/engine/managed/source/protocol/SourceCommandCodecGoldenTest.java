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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Pins the v1.0 wire bytes. If this fails, the change breaks every peer and every recorded frame:
 * it needs a new protocol version, not a new golden string.
 */
class SourceCommandCodecGoldenTest {

    /**
     * Computed independently of the Java code, with python3 from the layout in the {@link
     * SourceCommandCodec} javadoc and a bitwise CRC-32C:
     *
     * <pre>{@code
     * payload = b"split-0"
     * hdr = b"STCM" + struct.pack(">HHH", 1, 0, 90)
     * hdr += struct.pack(">qqiqqqqqq", 0x0102030405060708, 0x1112131415161718, 7, 3,
     *                    0x21, 0x42, 1001, -2, 12)
     * hdr += struct.pack(">HHiI", 1, 1, 2, crc32c(payload))
     * body = hdr + struct.pack(">I", len(payload)) + payload
     * frame = body + struct.pack(">I", crc32c(body))
     * }</pre>
     */
    static final String GOLDEN_V1_0 =
            "5354434d" // magic
                    + "0001" // major
                    + "0000" // minor
                    + "005a" // header length 90
                    + "0102030405060708" // jobId
                    + "1112131415161718" // sourceRuntimeId
                    + "00000007" // targetSubtask
                    + "0000000000000003" // coordinatorEpoch
                    + "0000000000000021" // senderAttemptId
                    + "0000000000000042" // targetAttemptId
                    + "00000000000003e9" // senderSequence 1001
                    + "fffffffffffffffe" // commandId -2
                    + "000000000000000c" // coordinatorCutId
                    + "0001" // SPLIT_ASSIGNMENT
                    + "0001" // CHECKPOINT_COUPLED
                    + "00000002" // payloadVersion
                    + "8a20c61b" // payload CRC-32C
                    + "00000007" // payload length
                    + "73706c69742d30" // "split-0"
                    + "fa8c316a"; // frame CRC-32C

    static SourceCommandEnvelope goldenEnvelope() {
        return SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                .protocolVersion(1, 0)
                .jobId(0x0102030405060708L)
                .sourceRuntimeId(0x1112131415161718L)
                .targetSubtask(7)
                .coordinatorEpoch(3)
                .senderAttemptId(0x21)
                .targetAttemptId(0x42)
                .senderSequence(1001)
                .commandId(-2)
                .coordinatorCutId(12)
                .payloadVersion(2)
                .payload("split-0".getBytes(StandardCharsets.US_ASCII))
                .build();
    }

    @Test
    void encodeProducesPinnedVersion1Bytes() {
        assertEquals(
                GOLDEN_V1_0, HexFormat.of().formatHex(SourceCommandCodec.encode(goldenEnvelope())));
    }

    @Test
    void pinnedVersion1BytesDecodeToTheEnvelope() {
        SourceCommandCodec.DecodeResult result =
                SourceCommandCodec.decode(HexFormat.of().parseHex(GOLDEN_V1_0), 1024);
        assertTrue(result.isSuccess(), result::toString);
        assertEquals(goldenEnvelope(), result.envelope());
        assertEquals(0x8a20c61b, result.envelope().payloadChecksum());
    }
}
