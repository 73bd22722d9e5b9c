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
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The checkpointed state of {@link ManagedKafkaEnumerator}: the partitions it has handed out (their
 * offsets live in the readers' split state) and the splits it discovered but not yet assigned.
 * Immutable.
 */
public final class KafkaEnumeratorState implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<TopicPartition> assigned;
    private final List<KafkaSourceSplit> pending;

    public KafkaEnumeratorState(List<TopicPartition> assigned, List<KafkaSourceSplit> pending) {
        this.assigned = Collections.unmodifiableList(new ArrayList<>(assigned));
        this.pending = Collections.unmodifiableList(new ArrayList<>(pending));
    }

    public List<TopicPartition> assigned() {
        return assigned;
    }

    public List<KafkaSourceSplit> pending() {
        return pending;
    }

    /**
     * Version 1.
     *
     * <pre>{@code
     * u8 version | i32 n | n x (str topic | i32 partition) | i32 m | m x (i32 len | split bytes)
     * }</pre>
     */
    public static final class Serializer extends VersionedSerializer<KafkaEnumeratorState> {
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
        protected void write(DataOutputStream out, KafkaEnumeratorState state) throws IOException {
            out.writeInt(state.assigned.size());
            for (TopicPartition tp : state.assigned) {
                out.writeUTF(tp.topic());
                out.writeInt(tp.partition());
            }
            out.writeInt(state.pending.size());
            for (KafkaSourceSplit s : state.pending) {
                byte[] b = splits.serialize(s);
                out.writeInt(b.length);
                out.write(b);
            }
        }

        @Override
        protected KafkaEnumeratorState read(DataInputStream in, int version) throws IOException {
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
            return new KafkaEnumeratorState(assigned, pending);
        }

        private static int count(int n, int max, String what) throws IOException {
            if (n < 0 || n > max) {
                throw new IOException("corrupt Kafka enumerator state: " + what + " = " + n);
            }
            return n;
        }
    }
}
