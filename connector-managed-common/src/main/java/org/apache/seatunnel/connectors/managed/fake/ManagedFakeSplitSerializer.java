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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * A small versioned binary form of {@link ManagedFakeSplit}, so checkpoints do not depend on Java
 * serialization of our classes.
 *
 * <pre>{@code
 * version 1: u8 version=1 | i32 splitNumber | i64 offset   (13 bytes, big-endian)
 * }</pre>
 */
public final class ManagedFakeSplitSerializer extends VersionedSerializer<ManagedFakeSplit> {

    private static final long serialVersionUID = 1L;

    static final int VERSION = 1;

    @Override
    protected int version() {
        return VERSION;
    }

    @Override
    protected void write(DataOutputStream out, ManagedFakeSplit split) throws IOException {
        writeFields(out, split);
    }

    @Override
    protected ManagedFakeSplit read(DataInputStream in, int version) throws IOException {
        return readFields(in);
    }

    static void writeFields(DataOutputStream out, ManagedFakeSplit split) throws IOException {
        out.writeInt(split.splitNumber());
        out.writeLong(split.offset());
    }

    /** Reads the fields; a value the split refuses is malformed input, not a crash. */
    static ManagedFakeSplit readFields(DataInputStream in) throws IOException {
        int number = in.readInt();
        long offset = in.readLong();
        try {
            return new ManagedFakeSplit(number, offset);
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed ManagedFakeSplit: " + e.getMessage(), e);
        }
    }
}
