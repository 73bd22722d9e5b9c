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
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/** Byte surgery on encoded frames for tests; uses the JDK CRC-32C so it does not trust Crc32c. */
public final class FrameBytes {
    private FrameBytes() {}

    /** Recomputes the trailing 4-byte CRC-32C over everything before it, in place. */
    static byte[] reseal(byte[] frame) {
        if (frame.length >= 4) {
            ByteBuffer.wrap(frame).putInt(frame.length - 4, jdkCrc(frame, 0, frame.length - 4));
        }
        return frame;
    }

    static int jdkCrc(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }

    static byte[] putShort(byte[] frame, int offset, int value) {
        ByteBuffer.wrap(frame).putShort(offset, (short) value);
        return frame;
    }

    static byte[] putInt(byte[] frame, int offset, int value) {
        ByteBuffer.wrap(frame).putInt(offset, value);
        return frame;
    }

    static int getUnsignedShort(byte[] frame, int offset) {
        return ByteBuffer.wrap(frame).getShort(offset) & 0xFFFF;
    }

    // The codec-independent mutations of the fuzz tests, each drawing from the test's seeded
    // random and naming itself in ops, so a failing seed says what was done to the frame.

    /** Flips one bit. {@code in} must not be empty. */
    public static byte[] flipBit(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        int at = rnd.nextInt(in.length);
        in[at] ^= (byte) (1 << rnd.nextInt(8));
        ops.append(" flip@").append(at);
        return in;
    }

    /** Cuts the frame short. {@code in} must not be empty. */
    public static byte[] truncate(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        int len = rnd.nextInt(in.length);
        ops.append(" truncate->").append(len);
        return Arrays.copyOf(in, len);
    }

    /** Appends 1 to 8 zero bytes. */
    static byte[] extend(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        int extra = rnd.nextInt(1, 9);
        ops.append(" extend+").append(extra);
        return Arrays.copyOf(in, in.length + extra);
    }

    /** Overwrites 1 to 5 bytes with random ones. {@code in} must not be empty. */
    static byte[] splice(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        return splice(in, rnd, ops, 5);
    }

    /** Overwrites 1 to {@code maxLen} bytes with random ones. {@code in} must not be empty. */
    public static byte[] splice(byte[] in, SplittableRandom rnd, StringBuilder ops, int maxLen) {
        int at = rnd.nextInt(in.length);
        int len = Math.min(in.length - at, rnd.nextInt(1, maxLen + 1));
        for (int i = at; i < at + len; i++) {
            in[i] = (byte) rnd.nextInt(256);
        }
        ops.append(" splice@").append(at).append('+').append(len);
        return in;
    }
}
