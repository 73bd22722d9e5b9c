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

import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplitSerializer;
import org.junit.jupiter.api.Test;

/**
 * A split list written through a versioned split serializer's scratch path is byte for byte what
 * the per-split path writes. The golden hex is written out by hand from the two formats.
 */
class SplitListSerializerTest {
    /** Version 1, 2 splits: ManagedFake split 3 at offset 0 and 70000 (0x11170) at offset 5. */
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

    @Test
    void aListOfVersionedSplitsEncodesToTheGoldenBytesAndBack() throws IOException {
        SplitListSerializer<ManagedFakeSplit> s =
                new SplitListSerializer<>(new ManagedFakeSplitSerializer());
        ArrayList<ManagedFakeSplit> list =
                new ArrayList<>(
                        List.of(new ManagedFakeSplit(3, 0), new ManagedFakeSplit(70_000, 5)));
        byte[] bytes = s.serialize(list);
        assertEquals(TWO_SPLITS, HexFormat.of().formatHex(bytes));
        assertEquals(list, s.deserialize(bytes));
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
