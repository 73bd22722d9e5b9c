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

package org.apache.seatunnel.engine.managed.source.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The payload codec of {@code SPLIT_ASSIGNMENT}: one command carries one or more splits, each in
 * the bytes of the connector's versioned split serializer, so an enumerator's {@code
 * assignSplit(subtask, splits)} travels as a few commands instead of one per split. Stateless; any
 * thread. The envelope's CRC covers the payload; this layer checks only its structure.
 *
 * <p>Payload version 2 (big-endian; version 1 was a single split's bytes and is no longer sent or
 * accepted):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  u32 split count N, 1 .. MAX_SPLITS
 *      4        N entries, each: u32 length L, then L bytes of one serialized split
 * }</pre>
 *
 * <p>The decoder never throws on bad input: {@link #check} answers the {@link ReasonCode} of the
 * first problem (count, truncation, trailing bytes), which the reader's fence turns into an {@code
 * INVALID_PAYLOAD} refusal before the command is admitted.
 */
public final class AssignmentPayload {
    /** The envelope's {@code payloadVersion} of this layout. */
    public static final int VERSION = 2;

    /** The most splits one command may carry. */
    public static final int MAX_SPLITS = 65_536;

    private static final int COUNT_BYTES = 4;
    private static final int LENGTH_BYTES = 4;

    private AssignmentPayload() {}

    /** The payload bytes of {@code splits} (each already serialized), in order. */
    public static byte[] encode(List<byte[]> splits) {
        Objects.requireNonNull(splits, "splits");
        return encode(splits.toArray(new byte[0][]), splits.size());
    }

    /** The payload bytes of the first {@code n} of {@code splits}, in order. */
    public static byte[] encode(byte[][] splits, int n) {
        if (n < 1 || n > MAX_SPLITS || n > splits.length) {
            throw new IllegalArgumentException(
                    "an assignment carries 1.." + MAX_SPLITS + " splits, not " + n);
        }
        long size = COUNT_BYTES;
        for (int i = 0; i < n; i++) {
            size += LENGTH_BYTES + splits[i].length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("assignment of " + size + " bytes is too large");
        }
        byte[] b = new byte[(int) size];
        SourceCommandCodec.putInt(b, 0, n);
        int at = COUNT_BYTES;
        for (int i = 0; i < n; i++) {
            byte[] s = splits[i];
            SourceCommandCodec.putInt(b, at, s.length);
            System.arraycopy(s, 0, b, at + LENGTH_BYTES, s.length);
            at += LENGTH_BYTES + s.length;
        }
        return b;
    }

    /** The encoded size of a payload holding splits of {@code splitBytes} bytes in total. */
    public static long encodedSize(int splits, long splitBytes) {
        return COUNT_BYTES + (long) splits * LENGTH_BYTES + splitBytes;
    }

    /** {@link ReasonCode#NONE} if {@code payload} has this layout, else why not. */
    public static ReasonCode check(ByteBuffer payload) {
        int base = payload.position();
        int length = payload.remaining();
        if (length < COUNT_BYTES) {
            return ReasonCode.TRUNCATED;
        }
        long n = payload.getInt(base) & 0xFFFFFFFFL;
        if (n < 1 || n > MAX_SPLITS) {
            return ReasonCode.MALFORMED_PAYLOAD;
        }
        long at = COUNT_BYTES;
        for (long i = 0; i < n; i++) {
            if (at + LENGTH_BYTES > length) {
                return ReasonCode.TRUNCATED;
            }
            long l = payload.getInt(base + (int) at) & 0xFFFFFFFFL;
            at += LENGTH_BYTES + l;
            if (at > length) {
                return ReasonCode.TRUNCATED;
            }
        }
        return at == length ? ReasonCode.NONE : ReasonCode.TRAILING_BYTES;
    }

    /**
     * The splits of a payload {@link #check} accepted, each a copy.
     *
     * @throws IllegalArgumentException naming the reason if it does not have this layout
     */
    public static List<byte[]> decode(ByteBuffer payload) {
        ReasonCode bad = check(payload);
        if (bad != ReasonCode.NONE) {
            throw new IllegalArgumentException("malformed split assignment payload: " + bad);
        }
        int base = payload.position();
        int n = payload.getInt(base);
        List<byte[]> out = new ArrayList<>(n);
        int at = base + COUNT_BYTES;
        for (int i = 0; i < n; i++) {
            int l = payload.getInt(at);
            byte[] s = new byte[l];
            ByteBuffer dup = payload.duplicate();
            dup.position(at + LENGTH_BYTES);
            dup.get(s);
            out.add(s);
            at += LENGTH_BYTES + l;
        }
        return Collections.unmodifiableList(out);
    }
}
