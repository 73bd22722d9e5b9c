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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.seatunnel.api.serialization.Serializer;

/**
 * Versioned binary form of {@link ManagedSplit}, checksummed, never Java serialization.
 *
 * <p>Threading: stateless, any thread.
 *
 * <pre>{@code
 * version 1, big-endian:
 *   0  magic "MSPL"             4 bytes
 *   4  major                    u16 (1)
 *   6  minor                    u16 (0)
 *   8  kind                     u8
 *   9  splitIdLength            u16
 *  11  splitId                  UTF-8
 *   .  bytesLength              u32
 *   .  bytes
 *   .  crc32c of all above      u32
 * }</pre>
 */
public final class ManagedSplitSerializer implements Serializer<ManagedSplit> {
    private static final long serialVersionUID = 1L;

    static final int MAGIC = 0x4D53504C;
    static final int MAJOR = 1;
    static final int MAX_BYTES = 64 << 20;

    @Override
    public byte[] serialize(ManagedSplit split) {
        byte[] id = split.splitId().getBytes(StandardCharsets.UTF_8);
        if (id.length > 0xffff) {
            throw new IllegalArgumentException("split id longer than 65535 UTF-8 bytes");
        }
        byte[] body = split.bytes();
        ByteBuffer buf = ByteBuffer.allocate(4 + 2 + 2 + 1 + 2 + id.length + 4 + body.length + 4);
        StateFrames.writeHeader(buf, MAGIC, MAJOR);
        buf.put((byte) split.kind().wireCode());
        buf.putShort((short) id.length).put(id);
        StateFrames.writeBlob(buf, body);
        return StateFrames.seal(buf);
    }

    /** True if {@code bytes} start with this format's magic (used to tell lanes apart). */
    static boolean looksManaged(byte[] bytes) {
        return bytes != null && bytes.length >= 4 && ByteBuffer.wrap(bytes, 0, 4).getInt() == MAGIC;
    }

    @Override
    public ManagedSplit deserialize(byte[] serialized) throws IOException {
        if (!looksManaged(serialized)) {
            throw new IOException(
                    "Not a Lane A split (no managed-split magic): the state was written on Lane B;"
                            + " restore it with Lane A disabled for this job");
        }
        try {
            ByteBuffer buf = ByteBuffer.wrap(serialized);
            StateFrames.readHeader(buf, MAJOR, "managed split");
            ManagedSplit.Kind kind = ManagedSplit.Kind.fromWireCode(buf.get() & 0xff);
            if (kind == null) {
                throw new IOException("Unknown managed split kind");
            }
            byte[] id = new byte[buf.getShort() & 0xffff];
            buf.get(id);
            byte[] body = StateFrames.readBlob(buf, MAX_BYTES, "managed split");
            StateFrames.verifySeal(serialized, buf, "managed split");
            return new ManagedSplit(kind, new String(id, StandardCharsets.UTF_8), body);
        } catch (BufferUnderflowException e) {
            throw new IOException("Truncated managed split", e);
        }
    }
}
