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

package org.apache.seatunnel.api.source.managed.serialization;

import org.apache.seatunnel.api.annotation.Experimental;

/**
 * What two byte strings share, for formats that write a value as its difference from the one before
 * it (neighbouring splits, whose serialized forms differ in a few bytes): the bytes they share at
 * the start, and then at the end. Stateless; any thread.
 */
@Experimental
public final class ByteDelta {
    private ByteDelta() {}

    /** The number of bytes {@code a} and {@code b} share at the start. */
    public static int sharedPrefix(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
        int n = Math.min(aLen, bLen);
        int i = 0;
        while (i < n && a[aOff + i] == b[bOff + i]) {
            i++;
        }
        return i;
    }

    /**
     * The number of bytes {@code a} and {@code b} share at the end, leaving the {@code prefix} they
     * share at the start to that prefix (so the two never overlap in either).
     */
    public static int sharedSuffix(
            byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen, int prefix) {
        int n = Math.min(aLen, bLen) - prefix;
        int i = 0;
        while (i < n && a[aOff + aLen - 1 - i] == b[bOff + bLen - 1 - i]) {
            i++;
        }
        return i;
    }

    /** The most bytes a varint of an {@code int} takes. */
    public static final int MAX_VARINT_BYTES = 5;

    /** What {@link #readVarint} answers for a varint longer than {@link #MAX_VARINT_BYTES}. */
    public static final long VARINT_TOO_LONG = -1;

    /** Where {@link #writeVarint} puts its bytes. */
    public interface ByteSink<E extends Exception> {
        void put(int unsignedByte) throws E;
    }

    /** Where {@link #readVarint} takes its bytes from. */
    public interface ByteSource<E extends Exception> {
        int next() throws E;
    }

    /** Writes {@code v} (at least 0) as an unsigned LEB128 varint. */
    public static <E extends Exception> void writeVarint(int v, ByteSink<E> out) throws E {
        while ((v & ~0x7F) != 0) {
            out.put((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.put(v);
    }

    /**
     * Reads an unsigned LEB128 varint of at most {@link #MAX_VARINT_BYTES} bytes: its value (which
     * may exceed {@code Integer.MAX_VALUE}; the caller decides whether that is allowed), or {@link
     * #VARINT_TOO_LONG}. The caller turns either into its own refusal.
     */
    public static <E extends Exception> long readVarint(ByteSource<E> in) throws E {
        long v = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            int b = in.next();
            v |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        return VARINT_TOO_LONG;
    }

    /** The bytes {@code v} (at least 0) takes as an unsigned LEB128 varint. */
    public static int varintSize(int v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }
}
