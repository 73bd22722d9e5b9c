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

package org.apache.seatunnel.connectors.managed.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;
import org.junit.jupiter.api.Test;

/** Golden bytes of the split and enumerator-state formats, version 1. */
class KafkaSerializersTest {
    private static final KafkaSourceSplit SPLIT =
            new KafkaSourceSplit(
                    TablePath.of("orders"), new TopicPartition("orders", 3), 42L, Long.MAX_VALUE);

    // u8 1 | absent db | absent schema | "orders" | "orders" | i32 3 | i64 42 | i64 MAX
    static final String SPLIT_V1 =
            "0100000100066f726465727300066f726465727300000003000000000000002a7fffffffffffffff";
    // u8 1 | i32 1 | "orders" i32 0 | i32 1 | i32 40 | the split's 40 bytes
    static final String STATE_V1 =
            "010000000100066f72646572730000000000000001000000280100000100066f726465727300066f72"
                    + "6465727300000003000000000000002a7fffffffffffffff";

    @Test
    void splitVersion1() throws IOException {
        KafkaSplitSerializer s = new KafkaSplitSerializer();
        byte[] bytes = s.serialize(SPLIT);
        assertEquals(SPLIT_V1, HexFormat.of().formatHex(bytes));
        KafkaSourceSplit back = s.deserialize(HexFormat.of().parseHex(SPLIT_V1));
        assertEquals(SPLIT.getTopicPartition(), back.getTopicPartition());
        assertEquals(SPLIT.getTablePath(), back.getTablePath());
        assertEquals(42L, back.getStartOffset());
        assertEquals(Long.MAX_VALUE, back.getEndOffset());
    }

    @Test
    void enumeratorStateVersion1() throws IOException {
        KafkaEnumeratorState.Serializer s = new KafkaEnumeratorState.Serializer();
        DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> state =
                KafkaEnumeratorState.of(
                        Arrays.asList(new TopicPartition("orders", 0)),
                        Collections.singletonList(SPLIT));
        assertEquals(
                new HashSet<>(
                        Arrays.asList(new TopicPartition("orders", 0), SPLIT.getTopicPartition())),
                state.cursor(),
                "the discovery cursor: every partition known, handed out or pending");
        assertEquals(STATE_V1, HexFormat.of().formatHex(s.serialize(state)));
        DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> back =
                s.deserialize(HexFormat.of().parseHex(STATE_V1));
        assertEquals(state.cursor(), back.cursor());
        assertEquals(
                Arrays.asList(new TopicPartition("orders", 0)),
                KafkaEnumeratorState.assigned(back));
        assertEquals(SPLIT.getStartOffset(), back.pending().get(0).getStartOffset());
        assertEquals(false, back.finished(), "a restored enumerator discovers once more");
    }

    @Test
    void anUnknownVersionIsRefused() {
        byte[] bytes = HexFormat.of().parseHex("09" + "00");
        assertThrows(IOException.class, () -> new KafkaSplitSerializer().deserialize(bytes));
    }
}
