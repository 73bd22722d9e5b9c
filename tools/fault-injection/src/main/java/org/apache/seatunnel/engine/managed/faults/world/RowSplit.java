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

package org.apache.seatunnel.engine.managed.faults.world;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * A split of {@code length} numbered rows; {@code position} is the next row to read, so the split
 * itself is the split state. Immutable.
 */
public final class RowSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;

    private final String id;
    private final int length;
    private final int position;

    public RowSplit(String id, int length, int position) {
        this.id = id;
        this.length = length;
        this.position = position;
    }

    @Override
    public String splitId() {
        return id;
    }

    public int length() {
        return length;
    }

    public int position() {
        return position;
    }

    public boolean done() {
        return position >= length;
    }

    /** The row at the current position, as the sink records it. */
    public String row() {
        return id + "#" + position;
    }

    public RowSplit advanced() {
        return new RowSplit(id, length, position + 1);
    }

    @Override
    public String toString() {
        return id + "@" + position + "/" + length;
    }

    /** Binary serializer: id (UTF), length, position. Stateless. */
    public static final class Ser implements Serializer<RowSplit> {
        @Override
        public byte[] serialize(RowSplit s) throws IOException {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bo);
            out.writeUTF(s.id);
            out.writeInt(s.length);
            out.writeInt(s.position);
            return bo.toByteArray();
        }

        @Override
        public RowSplit deserialize(byte[] b) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            return new RowSplit(in.readUTF(), in.readInt(), in.readInt());
        }
    }
}
