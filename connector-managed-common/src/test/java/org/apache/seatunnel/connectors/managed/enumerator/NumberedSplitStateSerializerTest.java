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
import java.util.Collections;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;
import org.junit.jupiter.api.Test;

/** The numbered enumerator's state: golden bytes, and every corrupt form refused with a reason. */
class NumberedSplitStateSerializerTest {
    private final NumberedSplitStateSerializer<NumberSplit> ser =
            new NumberedSplitStateSerializer<>(
                    new DiscoveringSplitEnumeratorTest.NumberSplitSerializer());

    // count 10, owners 2 at cursors 4 and 5, split 1 waiting.
    private static final String GOLDEN =
            "01"
                    + "000000000000000a"
                    + "00000002"
                    + "0000000000000004"
                    + "0000000000000005"
                    + "0000000d"
                    // the waiting list (SplitListSerializer v2): one split, all of it new
                    + "02"
                    + "00000001"
                    + "000005"
                    + "0100000001";

    @Test
    void version1KeepsItsGoldenBytesAndRoundTrips() throws Exception {
        NumberedSplitState<NumberSplit> s =
                new NumberedSplitState<>(
                        10, new long[] {4, 5}, Collections.singletonList(new NumberSplit(1)));
        assertEquals(GOLDEN, hex(ser.serialize(s)));
        NumberedSplitState<NumberSplit> back = ser.deserialize(unhex(GOLDEN));
        assertEquals(10, back.count());
        assertEquals(2, back.owners());
        assertEquals(4, back.next(0));
        assertEquals(5, back.next(1));
        assertEquals(1, back.waiting().get(0).n);
        // owner 0: 4, 6, 8; owner 1: 5, 7, 9; and the split waiting.
        assertEquals(7, back.remaining());
    }

    @Test
    void corruptStatesAreRefusedWithAReason() {
        refused(GOLDEN.substring(0, 2 + 16) + "00000000", "0 owners do not fit");
        refused(
                GOLDEN.substring(0, 2 + 16) + "7fffffff" + GOLDEN.substring(2 + 16 + 8),
                "owners do not fit");
        refused(withCursors("0000000000000001", "0000000000000005"), "owner 0 of 2 has cursor 1");
        refused(
                "01"
                        + "0000000000000002"
                        + "00000002"
                        + "0000000000000004"
                        + "0000000000000001"
                        + "00000005"
                        + "0200000000",
                "owner 0 has cursor 4 past 2 splits");
        refused("01" + "ffffffffffffffff" + GOLDEN.substring(2 + 16), "split count -1 is negative");
        refused(GOLDEN.replace("0000000d02", "0000ffff02"), "list length 65535 does not fit");
        refused(GOLDEN.substring(0, GOLDEN.length() - 2), "list length 13 does not fit");
        refused(GOLDEN.substring(0, 10), "truncated");
        refused("02" + GOLDEN.substring(2), "unknown version 2");
        refused(GOLDEN + "00", "trailing");
    }

    @Test
    void aStateOfAnotherShapeIsRefusedAtConstruction() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new NumberedSplitState<>(10, new long[0], Collections.emptyList()));
        assertThrows(
                IllegalArgumentException.class,
                () -> new NumberedSplitState<>(10, new long[] {1, 1}, Collections.emptyList()));
        // Nothing handed out yet is fine whatever the count, even none.
        assertEquals(
                0,
                new NumberedSplitState<>(0, new long[] {0, 1, 2}, Collections.emptyList())
                        .remaining());
        NumberedSplitState<NumberSplit> fresh = NumberedSplitState.start(5, 2);
        assertEquals(0, fresh.next(0));
        assertEquals(1, fresh.next(1));
        assertEquals(5, fresh.remaining());
    }

    private static String withCursors(String c0, String c1) {
        return GOLDEN.substring(0, 2 + 16 + 8) + c0 + c1 + GOLDEN.substring(2 + 16 + 8 + 32);
    }

    private void refused(String hex, String reason) {
        IOException e = assertThrows(IOException.class, () -> ser.deserialize(unhex(hex)), hex);
        assertTrue(
                String.valueOf(e.getMessage()).contains(reason),
                "expected '" + reason + "' in: " + e.getMessage());
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    private static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
