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

/**
 * CRC-32C (Castagnoli), table-driven. {@code java.util.zip.CRC32C} exists only from Java 9 and the
 * runtime ships as Java 8 bytecode, so it carries its own; tests check it against the JDK's.
 *
 * <p>Threading: stateless, any thread.
 */
public final class Crc32c {
    private static final int[] TABLE = new int[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
            TABLE[n] = c;
        }
    }

    private Crc32c() {}

    /** Continues a CRC: pass 0 to start; returns the finished CRC of everything seen so far. */
    public static int update(int crc, byte[] bytes, int offset, int length) {
        int c = ~crc;
        for (int i = offset, end = offset + length; i < end; i++) {
            c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
        }
        return ~c;
    }

    public static int of(byte[] bytes, int offset, int length) {
        return update(0, bytes, offset, length);
    }

    public static int of(byte[] bytes) {
        return update(0, bytes, 0, bytes.length);
    }
}
