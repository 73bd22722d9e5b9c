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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;

/** A split with a length in records and a read position (the split state). Immutable. */
final class TestSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;

    final String id;
    final int length;
    final int position;

    TestSplit(String id, int length, int position) {
        this.id = id;
        this.length = length;
        this.position = position;
    }

    static TestSplit of(String id) {
        return new TestSplit(id, 1, 0);
    }

    TestSplit advanced() {
        return new TestSplit(id, length, position + 1);
    }

    @Override
    public String splitId() {
        return id;
    }

    @Override
    public String toString() {
        return id + "@" + position + "/" + length;
    }

    /** Binary serializer (UTF id, length, position). */
    static final class Ser implements Serializer<TestSplit> {
        @Override
        public byte[] serialize(TestSplit s) throws IOException {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bo);
            out.writeUTF(s.id);
            out.writeInt(s.length);
            out.writeInt(s.position);
            return bo.toByteArray();
        }

        @Override
        public TestSplit deserialize(byte[] b) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            return new TestSplit(in.readUTF(), in.readInt(), in.readInt());
        }
    }
}
