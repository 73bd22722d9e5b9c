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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The checkpointed state of {@link ManagedKafkaEnumerator}, a {@link DiscoveryState} whose cursor
 * is the set of partitions known (handed out or pending), in the format Kafka's enumerator state
 * always had: the partitions handed out (their offsets live in the readers' split state) and the
 * splits discovered but not yet assigned. Stateless.
 */
public final class KafkaEnumeratorState {
    private KafkaEnumeratorState() {}

    /** A state from its version 1 fields: handed-out partitions and pending splits. */
    public static DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> of(
            List<TopicPartition> assigned, List<KafkaSourceSplit> pending) {
        Set<TopicPartition> known = new HashSet<>(assigned);
        for (KafkaSourceSplit s : pending) {
            known.add(s.getTopicPartition());
        }
        // Never finished: a restored enumerator discovers once more, as it always did.
        return new DiscoveryState<>(Collections.unmodifiableSet(known), false, pending);
    }

    /** The partitions handed out: the known ones that are not pending, in a stable order. */
    public static List<TopicPartition> assigned(
            DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> state) {
        Set<TopicPartition> out = new HashSet<>(state.cursor());
        for (KafkaSourceSplit s : state.pending()) {
            out.remove(s.getTopicPartition());
        }
        List<TopicPartition> sorted = new ArrayList<>(out);
        sorted.sort(
                Comparator.comparing(TopicPartition::topic)
                        .thenComparingInt(TopicPartition::partition));
        return sorted;
    }

    /**
     * Version 1.
     *
     * <pre>{@code
     * u8 version | i32 n | n x (str topic | i32 partition) | i32 m | m x (i32 len | split bytes)
     * }</pre>
     */
    public static final class Serializer
            extends VersionedSerializer<DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>> {
        private static final long serialVersionUID = 1L;

        /** Far above any real state; refuses a corrupt count before allocating it. */
        private static final int MAX_ENTRIES = 10_000_000;

        private static final int MAX_SPLIT_BYTES = 1 << 20;

        private final KafkaSplitSerializer splits = new KafkaSplitSerializer();

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(
                DataOutputStream out, DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> state)
                throws IOException {
            List<TopicPartition> assigned = assigned(state);
            out.writeInt(assigned.size());
            for (TopicPartition tp : assigned) {
                out.writeUTF(tp.topic());
                out.writeInt(tp.partition());
            }
            out.writeInt(state.pending().size());
            for (KafkaSourceSplit s : state.pending()) {
                byte[] b = splits.serialize(s);
                out.writeInt(b.length);
                out.write(b);
            }
        }

        @Override
        protected DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> read(
                DataInputStream in, int version) throws IOException {
            int n = count(in.readInt(), MAX_ENTRIES, "assigned partitions");
            List<TopicPartition> assigned = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                assigned.add(new TopicPartition(in.readUTF(), in.readInt()));
            }
            int m = count(in.readInt(), MAX_ENTRIES, "pending splits");
            List<KafkaSourceSplit> pending = new ArrayList<>(Math.min(m, 1024));
            for (int i = 0; i < m; i++) {
                byte[] b = new byte[count(in.readInt(), MAX_SPLIT_BYTES, "split length")];
                in.readFully(b);
                pending.add(splits.deserialize(b));
            }
            return of(assigned, pending);
        }

        private static int count(int n, int max, String what) throws IOException {
            if (n < 0 || n > max) {
                throw new IOException("corrupt Kafka enumerator state: " + what + " = " + n);
            }
            return n;
        }
    }
}
