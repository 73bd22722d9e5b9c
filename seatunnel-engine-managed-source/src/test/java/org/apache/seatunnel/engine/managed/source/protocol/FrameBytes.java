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
import java.util.zip.CRC32C;

/** Byte surgery on encoded frames for tests; uses the JDK CRC-32C so it does not trust Crc32c. */
final class FrameBytes {
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
}
