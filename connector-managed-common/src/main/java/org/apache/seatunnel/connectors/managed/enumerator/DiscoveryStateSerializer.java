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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * The versioned binary form of a {@link DiscoveryState}, built on the connector's split and cursor
 * serializers: the body is framed by its length and a CRC32, so a truncated or bit-flipped state is
 * refused with a reason before any nested serializer sees it.
 *
 * <pre>{@code
 * version 1:
 *   u8 version=1 | i32 bodyLength | body | i32 crc32(body)
 *   body: u8 flags (bit 0: finished)
 *         | i32 cursorLength | cursor bytes (the cursor serializer's)
 *         | i32 count | count x (i32 length | split bytes (the split serializer's))
 * }</pre>
 *
 * <p>Threading: stateless, as its nested serializers must be.
 */
public final class DiscoveryStateSerializer<SplitT, CursorT>
        extends VersionedSerializer<DiscoveryState<SplitT, CursorT>> {
    private static final long serialVersionUID = 1L;

    private static final int FINISHED = 1;

    private final Serializer<SplitT> splits;
    private final Serializer<CursorT> cursors;

    public DiscoveryStateSerializer(Serializer<SplitT> splits, Serializer<CursorT> cursors) {
        this.splits = splits;
        this.cursors = cursors;
    }

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, DiscoveryState<SplitT, CursorT> state)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream body = new DataOutputStream(bytes);
        body.writeByte(state.finished() ? FINISHED : 0);
        writeBlock(body, cursors.serialize(state.cursor()));
        body.writeInt(state.pending().size());
        for (SplitT s : state.pending()) {
            writeBlock(body, splits.serialize(s));
        }
        byte[] b = bytes.toByteArray();
        out.writeInt(b.length);
        out.write(b);
        out.writeInt(FrameChecksum.CRC32.of(b, 0, b.length));
    }

    @Override
    protected DiscoveryState<SplitT, CursorT> read(DataInputStream in, int version)
            throws IOException {
        byte[] b = readBlock(in, "body");
        int expected = in.readInt();
        if (FrameChecksum.CRC32.of(b, 0, b.length) != expected) {
            throw new IOException("discovery state: checksum mismatch (corrupt body)");
        }
        DataInputStream body = new DataInputStream(new ByteArrayInputStream(b));
        int flags = body.readUnsignedByte();
        if ((flags & ~FINISHED) != 0) {
            throw new IOException("discovery state: unknown flags " + flags);
        }
        CursorT cursor = cursors.deserialize(readBlock(body, "cursor"));
        int count = body.readInt();
        // Each split takes at least its 4-byte length: a count beyond that is corrupt.
        if (count < 0 || count > body.available() / 4) {
            throw new IOException("discovery state: split count " + count + " does not fit");
        }
        List<SplitT> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(splits.deserialize(readBlock(body, "split")));
        }
        if (body.available() > 0) {
            throw new IOException(
                    "discovery state: " + body.available() + " trailing bytes in the body");
        }
        return new DiscoveryState<>(cursor, (flags & FINISHED) != 0, pending);
    }

    private static void writeBlock(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBlock(DataInputStream in, String what) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > in.available()) {
            throw new IOException("discovery state: " + what + " length " + len + " does not fit");
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }

    /**
     * A cursor that is one number (the next file index, offset or range); version 1: {@code u8 1 |
     * i64}. Stateless.
     */
    public static final class LongCursor extends VersionedSerializer<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, Long cursor) throws IOException {
            out.writeLong(cursor);
        }

        @Override
        protected Long read(DataInputStream in, int version) throws IOException {
            return in.readLong();
        }
    }
}
