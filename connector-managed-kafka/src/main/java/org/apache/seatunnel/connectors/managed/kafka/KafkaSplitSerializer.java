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
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The versioned binary form of a stock {@link KafkaSourceSplit} in checkpoints (the stock source
 * uses Java serialization).
 *
 * <pre>{@code
 * version 1: u8 version | str database? | str schema? | str table | str topic | i32 partition
 *            | i64 startOffset | i64 endOffset
 * str? = bool present [ + UTF ]
 * }</pre>
 */
public final class KafkaSplitSerializer extends VersionedSerializer<KafkaSourceSplit> {
    private static final long serialVersionUID = 1L;

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, KafkaSourceSplit split) throws IOException {
        TablePath path = split.getTablePath();
        writeNullable(out, path == null ? null : path.getDatabaseName());
        writeNullable(out, path == null ? null : path.getSchemaName());
        writeNullable(out, path == null ? null : path.getTableName());
        out.writeUTF(split.getTopicPartition().topic());
        out.writeInt(split.getTopicPartition().partition());
        out.writeLong(split.getStartOffset());
        out.writeLong(split.getEndOffset());
    }

    @Override
    protected KafkaSourceSplit read(DataInputStream in, int version) throws IOException {
        String database = readNullable(in);
        String schema = readNullable(in);
        String table = readNullable(in);
        TopicPartition tp = new TopicPartition(in.readUTF(), in.readInt());
        long start = in.readLong();
        long end = in.readLong();
        TablePath path = table == null ? null : TablePath.of(database, schema, table);
        return new KafkaSourceSplit(path, tp, start, end);
    }

    static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
