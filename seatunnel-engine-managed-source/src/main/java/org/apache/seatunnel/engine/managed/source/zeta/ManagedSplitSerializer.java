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
import java.nio.charset.StandardCharsets;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;

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

    // Checks in this order: magic (by looksManaged), major, fields, blob bounds, trailing bytes,
    // checksum.
    private static final FrameFormat FORMAT =
            FrameFormat.named("managed split")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, MAJOR, MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .build();

    @Override
    public byte[] serialize(ManagedSplit split) {
        byte[] id = split.splitId().getBytes(StandardCharsets.UTF_8);
        if (id.length > 0xffff) {
            throw new IllegalArgumentException("split id longer than 65535 UTF-8 bytes");
        }
        byte[] body = split.bytes();
        return FORMAT.writerOfSize(MAJOR, 0, 8 + 1 + 2 + id.length + 4 + body.length + 4)
                .putU8(split.kind().wireCode())
                .putU16(id.length)
                .putBytes(id)
                .putBlob(body)
                .finish();
    }

    /** True if {@code bytes} start with this format's magic (used to tell lanes apart). */
    static boolean looksManaged(byte[] bytes) {
        return FORMAT.startsWithMagic(bytes);
    }

    @Override
    public ManagedSplit deserialize(byte[] serialized) throws IOException {
        if (!looksManaged(serialized)) {
            throw new IOException(
                    "Not a Lane A split (no managed-split magic): the state was written on Lane B;"
                            + " restore it with Lane A disabled for this job");
        }
        FrameReader in = FORMAT.open(serialized);
        int code = in.u8();
        ManagedSplit.Kind kind = ManagedSplit.Kind.fromWireCode(code);
        if (kind == null) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "unknown managed split kind " + code);
        }
        byte[] id = in.bytes(in.u16());
        byte[] body = in.blob(MAX_BYTES, "split");
        in.finish();
        return new ManagedSplit(kind, new String(id, StandardCharsets.UTF_8), body);
    }
}
