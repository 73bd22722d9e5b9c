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

package org.apache.seatunnel.connectors.managed.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.zip.CRC32;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;
import org.junit.jupiter.api.Test;

/** Golden bytes of the discovery state, version 1, and the refusal of bad input with a reason. */
class DiscoveryStateSerializerTest {
    private static final DiscoveryStateSerializer<NumberSplit, Long> S =
            DiscoveringSplitEnumeratorTest.STATE;

    // u8 1 | i32 36 | body | crc32(body)
    // body: u8 1 (finished) | i32 9 | u8 1 i64 12 (cursor) | i32 2
    //       | i32 5 | u8 1 i32 5 | i32 5 | u8 1 i32 7
    static final String V1 =
            "0100000024"
                    + "01"
                    + "00000009"
                    + "01000000000000000c"
                    + "00000002"
                    + "000000050100000005"
                    + "000000050100000007"
                    + "2cd6e232";

    private static DiscoveryState<NumberSplit, Long> state() {
        return new DiscoveryState<>(
                12L, true, Arrays.asList(new NumberSplit(5), new NumberSplit(7)));
    }

    @Test
    void version1() throws IOException {
        assertEquals(V1, HexFormat.of().formatHex(S.serialize(state())));
        DiscoveryState<NumberSplit, Long> back = S.deserialize(HexFormat.of().parseHex(V1));
        assertEquals(12L, back.cursor());
        assertTrue(back.finished());
        assertEquals(5, back.pending().get(0).n);
        assertEquals(7, back.pending().get(1).n);
        DiscoveryState<NumberSplit, Long> fresh =
                S.deserialize(S.serialize(DiscoveryState.<NumberSplit, Long>initial(0L)));
        assertEquals(0L, fresh.cursor());
        assertEquals(Collections.emptyList(), fresh.pending());
    }

    private static String refused(String hex) {
        return assertThrows(IOException.class, () -> S.deserialize(HexFormat.of().parseHex(hex)))
                .getMessage();
    }

    /** {@code body} framed with its length and a correct checksum. */
    private static String framed(String body) {
        byte[] b = HexFormat.of().parseHex(body);
        CRC32 crc = new CRC32();
        crc.update(b);
        return "01"
                + String.format("%08x", b.length)
                + body
                + String.format("%08x", crc.getValue());
    }

    @Test
    void badInputIsRefusedWithAReason() {
        assertTrue(refused("").contains("empty"));
        assertTrue(refused("02" + V1.substring(2)).contains("unknown version 2"));
        assertTrue(refused(V1.substring(0, V1.length() - 6)).contains("truncated"));
        assertTrue(refused(V1 + "00").contains("trailing"));
        String flipped = V1.substring(0, 30) + "ff" + V1.substring(32);
        assertTrue(refused(flipped).contains("checksum"), refused(flipped));
        assertTrue(refused("01" + "7fffffff" + V1.substring(10)).contains("body length"));
        assertTrue(refused(framed("80" + V1.substring(12, V1.length() - 8))).contains("flags"));
        String hugeCount = "01" + "00000009" + "01000000000000000c" + "7fffffff";
        assertTrue(refused(framed(hugeCount)).contains("split count"));
        String badSplitLength = "01" + "00000009" + "01000000000000000c" + "00000001" + "00000063";
        assertTrue(refused(framed(badSplitLength)).contains("split length"));
        String badCursor = "01" + "00000002" + "0900" + "00000000";
        assertTrue(refused(framed(badCursor)).contains("unknown version 9"));
    }
}
