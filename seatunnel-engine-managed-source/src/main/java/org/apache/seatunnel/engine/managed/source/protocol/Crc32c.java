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

import java.lang.reflect.Constructor;
import java.util.zip.Checksum;

/**
 * CRC-32C (Castagnoli). {@code java.util.zip.CRC32C} exists only from Java 9 and the runtime ships
 * as Java 8 bytecode: on Java 9 or later {@link #of} uses the JDK's (an intrinsic, several times
 * faster on every command frame), on Java 8 a table of its own; tests check both against each
 * other.
 *
 * <p>Threading: stateless, any thread (the JDK checksum is one per thread).
 */
public final class Crc32c {
    private static final int[] TABLE = new int[256];
    private static final Constructor<? extends Checksum> JDK_CRC32C = jdkCrc32c();
    private static final ThreadLocal<Checksum> PER_THREAD =
            JDK_CRC32C == null ? null : ThreadLocal.withInitial(Crc32c::newJdkChecksum);

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

    private static Constructor<? extends Checksum> jdkCrc32c() {
        try {
            return Class.forName("java.util.zip.CRC32C")
                    .asSubclass(Checksum.class)
                    .getConstructor();
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    private static Checksum newJdkChecksum() {
        try {
            return JDK_CRC32C.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("java.util.zip.CRC32C could not be created", e);
        }
    }

    /** True when {@link #of} uses the JDK's implementation. */
    static boolean usesJdk() {
        return JDK_CRC32C != null;
    }

    /** The table-driven CRC of a range, whatever the JDK offers (tests compare the two). */
    static int ofTable(byte[] bytes, int offset, int length) {
        return update(0, bytes, offset, length);
    }

    /** Continues a CRC: pass 0 to start; returns the finished CRC of everything seen so far. */
    public static int update(int crc, byte[] bytes, int offset, int length) {
        int c = ~crc;
        for (int i = offset, end = offset + length; i < end; i++) {
            c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
        }
        return ~c;
    }

    public static int of(byte[] bytes, int offset, int length) {
        if (PER_THREAD == null) {
            return update(0, bytes, offset, length);
        }
        Checksum c = PER_THREAD.get();
        c.reset();
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }

    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }
}
