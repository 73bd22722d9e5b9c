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

package org.apache.seatunnel.connectors.managed.fake;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;

/**
 * A small versioned binary form of {@link ManagedFakeEnumeratorState}.
 *
 * <pre>{@code
 * version 1: u8 version=1 | i32 count | count x (i32 splitNumber | i64 offset)   (big-endian)
 * }</pre>
 */
public final class ManagedFakeEnumeratorStateSerializer
        implements Serializer<ManagedFakeEnumeratorState> {

    private static final long serialVersionUID = 1L;

    static final int VERSION = 1;

    @Override
    public byte[] serialize(ManagedFakeEnumeratorState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(state.pendingSplits().size());
            for (ManagedFakeSplit split : state.pendingSplits()) {
                ManagedFakeSplitSerializer.writeFields(out, split);
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public ManagedFakeEnumeratorState deserialize(byte[] serialized) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IOException("unknown ManagedFakeEnumeratorState version " + version);
            }
            int count = in.readInt();
            if (count < 0) {
                throw new IOException("negative split count " + count);
            }
            List<ManagedFakeSplit> splits = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                splits.add(ManagedFakeSplitSerializer.readFields(in));
            }
            return new ManagedFakeEnumeratorState(splits);
        }
    }
}
