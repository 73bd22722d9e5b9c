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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;

/** Records {@code "s<number>:<i>"} for i in {@code [next, end)}. Immutable. */
record FixtureSplit(int number, long next, long end) implements SourceSplit {

    @Override
    public String splitId() {
        return "s" + number;
    }

    FixtureSplit withNext(long n) {
        return new FixtureSplit(number, n, end);
    }

    /** Version 1: u8 1 | i32 number | i64 next | i64 end. */
    static final class Codec implements Serializer<FixtureSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(FixtureSplit s) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(1);
                out.writeInt(s.number);
                out.writeLong(s.next);
                out.writeLong(s.end);
            }
            return bytes.toByteArray();
        }

        @Override
        public FixtureSplit deserialize(byte[] b) throws IOException {
            if (b.length != 21) {
                throw new EOFException("expected 21 bytes, got " + b.length);
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
                int version = in.readUnsignedByte();
                if (version != 1) {
                    throw new IOException("unknown version " + version);
                }
                return new FixtureSplit(in.readInt(), in.readLong(), in.readLong());
            }
        }
    }
}
