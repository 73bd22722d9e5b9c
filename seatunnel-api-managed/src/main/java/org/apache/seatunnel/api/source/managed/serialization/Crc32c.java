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

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.zip.Checksum;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * CRC-32C (Castagnoli). {@code java.util.zip.CRC32C} exists only from Java 9 and the runtime ships
 * as Java 8 bytecode: on Java 9 or later {@link #of} uses the JDK's for inputs of {@link
 * #JDK_FROM_BYTES} bytes or more (an intrinsic, several times faster on a command frame), a table
 * of its own below that and on Java 8; tests check both against each other.
 *
 * <p>Threading: stateless, any thread. A JDK checksum is created per call through a constructor
 * handle the JIT inlines (a per-thread instance cost a thread-local lookup per call, which on the
 * engine's task threads, with their many thread locals, cost more than the checksum).
 */
@Experimental
public final class Crc32c {
    /** Inputs at least this long use the JDK's checksum when there is one. */
    static final int JDK_FROM_BYTES = 64;

    private static final int[] TABLE = new int[256];
    private static final MethodHandle JDK_CRC32C = jdkCrc32c();

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

    private static MethodHandle jdkCrc32c() {
        try {
            return MethodHandles.publicLookup()
                    .findConstructor(
                            Class.forName("java.util.zip.CRC32C"),
                            MethodType.methodType(void.class))
                    .asType(MethodType.methodType(Checksum.class));
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    /** True when {@link #of} uses the JDK's implementation for long inputs. */
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
        if (JDK_CRC32C == null || length < JDK_FROM_BYTES) {
            return update(0, bytes, offset, length);
        }
        Checksum c;
        try {
            c = (Checksum) JDK_CRC32C.invokeExact();
        } catch (Throwable e) {
            // The constructor takes nothing and throws nothing: only a broken JDK gets here.
            return update(0, bytes, offset, length);
        }
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }

    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }
}
