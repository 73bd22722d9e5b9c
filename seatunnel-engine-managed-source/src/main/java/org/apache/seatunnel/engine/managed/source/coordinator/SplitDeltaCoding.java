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

import java.util.Arrays;
import org.apache.seatunnel.api.source.managed.serialization.ByteDelta;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;
import org.apache.seatunnel.api.source.managed.serialization.FrameWriter;

/**
 * How tracker state version 3 writes a byte string (a split id, a serialized split) after the one
 * before it in the same assignment: the number of bytes it shares with that one at the start, the
 * number it shares at the end, and the bytes between. Stateless; any thread.
 *
 * <pre>{@code
 * part := varint shared prefix p | varint shared suffix s | varint middle length m | m bytes
 *         (value = previous[0, p) ++ middle ++ previous[len - s, len); the first of an assignment
 *          follows the empty string; p + s never exceeds either length)
 * varint := unsigned LEB128 of a value 0 .. 2^31 - 1, at most 5 bytes
 * }</pre>
 *
 * <p>Why: a tracker holds every split sent since the last completed checkpoint, and the splits one
 * command carries are usually neighbours (one owner's share of a range, files of one directory,
 * partitions of one topic), whose ids and bytes differ in a few bytes. A million one-row
 * ManagedFake splits took 32 bytes each written whole, so the first checkpoint of a split storm
 * wrote about 30 MB that the engine then serializes and stores before the checkpoint completes.
 */
final class SplitDeltaCoding {

    private SplitDeltaCoding() {}

    /**
     * Writes {@code cur} as its difference from {@code prev} (length 0 for the first) and returns
     * the bytes that takes; with {@code out} null, only returns them.
     */
    static int put(
            FrameWriter out, byte[] prev, int prevOff, int prevLen, byte[] cur, int off, int len) {
        int p = ByteDelta.sharedPrefix(prev, prevOff, prevLen, cur, off, len);
        int s = ByteDelta.sharedSuffix(prev, prevOff, prevLen, cur, off, len, p);
        int m = len - p - s;
        if (out != null) {
            putVarint(out, p);
            putVarint(out, s);
            putVarint(out, m);
            out.putBytes(cur, off + p, m);
        }
        return ByteDelta.varintSize(p) + ByteDelta.varintSize(s) + ByteDelta.varintSize(m) + m;
    }

    /**
     * Reads one part written after the value at {@code prevOff} (length {@code prevLen}) of {@code
     * into}, appending its value and returning that value's length.
     *
     * @param budget the most bytes the value may take
     */
    static int read(FrameReader in, Bytes into, int prevOff, int prevLen, long budget)
            throws FrameException {
        int p = varint(in);
        int s = varint(in);
        int m = varint(in);
        if ((long) p + s > prevLen) {
            throw in.refuse(
                    FrameRefusal.BAD_FIELD,
                    "shares " + p + " + " + s + " bytes with a value of " + prevLen);
        }
        long len = (long) p + s + m;
        if (len > budget) {
            throw in.refuse(
                    FrameRefusal.OVERSIZE,
                    "a value of "
                            + len
                            + " bytes beyond the "
                            + budget
                            + " left to its assignment");
        }
        in.require(m, "a value's " + m + " middle bytes");
        int at = into.grow((int) len);
        byte[] b = into.bytes;
        System.arraycopy(b, prevOff, b, at, p);
        in.read(b, at + p, m);
        System.arraycopy(b, prevOff + prevLen - s, b, at + p + m, s);
        return (int) len;
    }

    private static void putVarint(FrameWriter out, int v) {
        ByteDelta.writeVarint(v, out::putU8);
    }

    private static int varint(FrameReader in) throws FrameException {
        long v = ByteDelta.readVarint(in::u8);
        if (v == ByteDelta.VARINT_TOO_LONG) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "a varint longer than 5 bytes");
        }
        if (v > Integer.MAX_VALUE) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "a varint of " + v);
        }
        return (int) v;
    }

    /**
     * A growable byte array the decoder writes an assignment's blobs into.
     *
     * <p>Threading: confined to the decoding thread, one per decoded assignment blob.
     */
    static final class Bytes {
        byte[] bytes;
        int length;

        Bytes(int capacity) {
            bytes = new byte[capacity];
        }

        /** Makes room for {@code n} more bytes; returns where they start. */
        int grow(int n) {
            int at = length;
            if (n > bytes.length - at) {
                bytes =
                        Arrays.copyOf(
                                bytes,
                                (int)
                                        Math.min(
                                                Integer.MAX_VALUE - 8,
                                                Math.max(2L * bytes.length, (long) at + n)));
            }
            length = at + n;
            return at;
        }

        void putInt(int at, int v) {
            bytes[at] = (byte) (v >>> 24);
            bytes[at + 1] = (byte) (v >>> 16);
            bytes[at + 2] = (byte) (v >>> 8);
            bytes[at + 3] = (byte) v;
        }

        byte[] toArray() {
            return bytes.length == length ? bytes : Arrays.copyOf(bytes, length);
        }
    }
}
