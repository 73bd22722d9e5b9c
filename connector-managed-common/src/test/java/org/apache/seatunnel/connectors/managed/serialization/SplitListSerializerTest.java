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

package org.apache.seatunnel.connectors.managed.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplitSerializer;
import org.junit.jupiter.api.Test;

/**
 * A split list: version 2 writes each split as its difference from the one before, reads versions 1
 * and 2, refuses corrupt input with an {@link IOException}, and the scratch path for versioned
 * split serializers writes byte for byte what the per-split path writes. The golden hex of version
 * 2 was computed independently (a Python rendering of the format), version 1's by hand.
 */
class SplitListSerializerTest {
    /**
     * Version 2 of ManagedFake split 3 at offset 0 and 70000 (0x11170) at offset 5: the first whole
     * (0, 0, 13), the second sharing "01 00" at the start and nothing at the end (2, 0, 11).
     */
    private static final String TWO_SPLITS_V2 =
            "02"
                    + "00000002"
                    + "00000d"
                    + "01000000030000000000000000"
                    + "02000b"
                    + "0111700000000000000005";

    /** Version 2 of splits 0, 64 and 128 at offset 0: neighbours take 4 bytes each. */
    private static final String NEIGHBOURS_V2 =
            "02" + "00000003" + "00000d" + "01000000000000000000000000" + "04080140" + "04080180";

    /** Version 1 of the two splits of {@link #TWO_SPLITS_V2}. */
    private static final String TWO_SPLITS =
            "01"
                    + "00000002"
                    + "0000000d"
                    + "01"
                    + "00000003"
                    + "0000000000000000"
                    + "0000000d"
                    + "01"
                    + "00011170"
                    + "0000000000000005";

    private static final SplitListSerializer<ManagedFakeSplit> LIST =
            new SplitListSerializer<>(new ManagedFakeSplitSerializer());

    @Test
    void aListOfVersionedSplitsEncodesToTheGoldenBytesAndBack() throws IOException {
        ArrayList<ManagedFakeSplit> list =
                new ArrayList<>(
                        List.of(new ManagedFakeSplit(3, 0), new ManagedFakeSplit(70_000, 5)));
        byte[] bytes = LIST.serialize(list);
        assertEquals(TWO_SPLITS_V2, HexFormat.of().formatHex(bytes));
        assertEquals(list, LIST.deserialize(bytes));
        ArrayList<ManagedFakeSplit> neighbours =
                new ArrayList<>(
                        List.of(
                                new ManagedFakeSplit(0, 0),
                                new ManagedFakeSplit(64, 0),
                                new ManagedFakeSplit(128, 0)));
        assertEquals(NEIGHBOURS_V2, HexFormat.of().formatHex(LIST.serialize(neighbours)));
        assertEquals(neighbours, LIST.deserialize(HexFormat.of().parseHex(NEIGHBOURS_V2)));
        assertEquals(new ArrayList<>(), LIST.deserialize(LIST.serialize(new ArrayList<>())));
    }

    @Test
    void aVersion1ListStillReads() throws IOException {
        assertEquals(
                List.of(new ManagedFakeSplit(3, 0), new ManagedFakeSplit(70_000, 5)),
                LIST.deserialize(HexFormat.of().parseHex(TWO_SPLITS)));
    }

    @Test
    void aRandomListRoundTrips() throws IOException {
        long seed = Long.getLong("split.list.seed", System.nanoTime());
        Random rnd = new Random(seed);
        ArrayList<ManagedFakeSplit> list = new ArrayList<>();
        int n = rnd.nextInt(3000);
        int base = rnd.nextInt(1 << 20);
        for (int i = 0; i < n; i++) {
            // Runs of neighbours, with now and then a split unlike the one before.
            int number = rnd.nextInt(8) == 0 ? rnd.nextInt(Integer.MAX_VALUE - 1) : base + i * 7;
            long offset = rnd.nextInt(4) == 0 ? rnd.nextInt(1 << 30) : 0;
            list.add(new ManagedFakeSplit(number, offset));
        }
        assertEquals(list, LIST.deserialize(LIST.serialize(list)), "seed " + seed);
    }

    @Test
    void corruptInputIsRefusedWithAReasonNeverACrash() {
        byte[] good = HexFormat.of().parseHex(NEIGHBOURS_V2);
        for (int len = 0; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThrows(IOException.class, () -> LIST.deserialize(cut), "truncated at " + len);
        }
        // The second split claims 5 + 9 shared bytes of a 13-byte split.
        assertRefused(
                "02" + "00000002" + "00000d" + "01000000000000000000000000" + "050900",
                "shares 5 + 9 bytes with 13");
        assertRefused("02" + "00000001" + "8080808080" + "0000", "longer than 5 bytes");
        // A first split of 2 GiB - 1 bytes with one byte of input.
        assertRefused("02" + "00000001" + "0000" + "ffffffff07" + "00", "does not fit the input");
    }

    /** Decoding {@code hex} fails with an IOException whose message names {@code reason}. */
    private static void assertRefused(String hex, String reason) {
        IOException e =
                assertThrows(
                        IOException.class, () -> LIST.deserialize(HexFormat.of().parseHex(hex)));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void theScratchPathWritesWhatEachSplitsOwnSerializeWould() throws IOException {
        long seed = Long.getLong("split.list.seed", System.nanoTime());
        Random rnd = new Random(seed);
        ManagedFakeSplitSerializer versioned = new ManagedFakeSplitSerializer();
        // The same serializer behind the plain interface: the list takes its per-split path.
        Serializer<ManagedFakeSplit> plain =
                new Serializer<ManagedFakeSplit>() {
                    @Override
                    public byte[] serialize(ManagedFakeSplit split) throws IOException {
                        return versioned.serialize(split);
                    }

                    @Override
                    public ManagedFakeSplit deserialize(byte[] bytes) throws IOException {
                        return versioned.deserialize(bytes);
                    }
                };
        ArrayList<ManagedFakeSplit> list = new ArrayList<>();
        for (int i = rnd.nextInt(2000); i > 0; i--) {
            list.add(
                    new ManagedFakeSplit(rnd.nextInt(Integer.MAX_VALUE - 1), rnd.nextInt(1 << 30)));
        }
        assertArrayEquals(
                new SplitListSerializer<>(plain).serialize(list),
                new SplitListSerializer<>(versioned).serialize(list),
                "seed " + seed);
    }
}
