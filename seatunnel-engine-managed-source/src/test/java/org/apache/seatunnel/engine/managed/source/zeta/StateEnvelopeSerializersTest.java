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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes and rejections of the envelopes that carry Lane A state through Zeta's checkpoints.
 * The expected hex was computed independently with a short Python script from the layouts
 * documented on the serializers (struct.pack big-endian plus a bitwise CRC-32C).
 */
class StateEnvelopeSerializersTest {
    private static final String SPLIT_V1 = "4d53504c000100000100027331000000030102030b4e8505";
    private static final String STATE_V1 =
            "4d454e530001000001203031323334353637383961626364656630313233343536373839616263"
                    + "646566000000000000000700000002090882004ebf";

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void managedSplitVersion1IsPinnedByGoldenBytes() throws IOException {
        ManagedSplitSerializer ser = new ManagedSplitSerializer();
        ManagedSplit split = ManagedSplit.connector("s1", new byte[] {1, 2, 3});
        assertArrayEquals(hex(SPLIT_V1), ser.serialize(split));
        ManagedSplit back = ser.deserialize(hex(SPLIT_V1));
        assertEquals(ManagedSplit.Kind.CONNECTOR, back.kind());
        assertEquals("s1", back.splitId());
        assertArrayEquals(new byte[] {1, 2, 3}, back.bytes());
    }

    @Test
    void enumeratorStateVersion1IsPinnedByGoldenBytes() throws IOException {
        ManagedEnumeratorStateSerializer ser = new ManagedEnumeratorStateSerializer();
        ManagedEnumeratorState s =
                new ManagedEnumeratorState(
                        Lane.A, "0123456789abcdef0123456789abcdef", 7, new byte[] {9, 8});
        assertArrayEquals(hex(STATE_V1), ser.serialize(s));
        ManagedEnumeratorState back = ser.deserialize(hex(STATE_V1));
        assertEquals(Lane.A, back.lane());
        assertEquals(7, back.checkpointId());
        assertArrayEquals(new byte[] {9, 8}, back.coordinatorBlob());
    }

    @Test
    void laneBBytesAreRefusedWithAnOperatorReadableReason() {
        IOException split =
                assertThrows(
                        IOException.class,
                        () -> new ManagedSplitSerializer().deserialize(new byte[] {1, 2, 3, 4, 5}));
        assertTrue(split.getMessage().contains("Lane B"), split.getMessage());
        IllegalStateException state =
                assertThrows(
                        IllegalStateException.class,
                        () -> new ManagedEnumeratorStateSerializer().deserialize(new byte[] {7}));
        assertTrue(state.getMessage().contains("Lane B"), state.getMessage());
    }

    @Test
    void corruptedTruncatedExtendedAndFutureVersionsAreRejected() {
        ManagedSplitSerializer ser = new ManagedSplitSerializer();
        byte[] good = hex(SPLIT_V1);
        byte[] flipped = good.clone();
        flipped[18] ^= 1; // a payload byte: only the checksum can tell
        assertContains(message(ser, flipped), "checksum");
        assertContains(message(ser, Arrays.copyOf(good, 15)), "Truncated");
        assertContains(message(ser, Arrays.copyOf(good, good.length - 3)), "length out of range");
        assertContains(message(ser, Arrays.copyOf(good, good.length + 1)), "Trailing");
        byte[] v2 = good.clone();
        v2[5] = 2;
        assertContains(message(ser, v2), "major version 2");
    }

    private static void assertContains(String message, String part) {
        assertTrue(message.contains(part), message);
    }

    private static String message(ManagedSplitSerializer ser, byte[] bytes) {
        return assertThrows(IOException.class, () -> ser.deserialize(bytes)).getMessage();
    }
}
