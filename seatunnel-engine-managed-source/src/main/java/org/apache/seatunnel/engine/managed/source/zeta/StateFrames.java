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
import java.nio.ByteBuffer;
import org.apache.seatunnel.engine.managed.source.protocol.Crc32c;

/**
 * The framing the binding's checkpoint envelopes share: magic, u16 major, u16 minor first, a
 * trailing CRC-32C over everything before it, and bounded length-prefixed blobs. Each rejection is
 * an {@link IOException} naming the envelope, never a runtime exception from a buffer.
 *
 * <p>Threading: stateless, any thread.
 */
final class StateFrames {
    private StateFrames() {}

    static void writeHeader(ByteBuffer buf, int magic, int major) {
        buf.putInt(magic).putShort((short) major).putShort((short) 0);
    }

    /** Skips the magic (checked by the caller) and rejects another major version. */
    static void readHeader(ByteBuffer buf, int major, String what) throws IOException {
        buf.getInt();
        int found = buf.getShort() & 0xffff;
        if (found != major) {
            throw new IOException(
                    "Unsupported "
                            + what
                            + " major version "
                            + found
                            + "; this runtime reads "
                            + major
                            + ". Restore with the runtime version that wrote it.");
        }
        buf.getShort();
    }

    static void writeBlob(ByteBuffer buf, byte[] blob) {
        buf.putInt(blob.length).put(blob);
    }

    static byte[] readBlob(ByteBuffer buf, int max, String what) throws IOException {
        int len = buf.getInt();
        if (len < 0 || len > max || len > buf.remaining() - 4) {
            throw new IOException(what + " length out of range: " + len);
        }
        byte[] blob = new byte[len];
        buf.get(blob);
        return blob;
    }

    /** Appends the CRC of everything written so far and returns the backing array. */
    static byte[] seal(ByteBuffer buf) {
        buf.putInt(Crc32c.of(buf.array(), 0, buf.position()));
        return buf.array();
    }

    /** Checks the trailing CRC and that nothing follows it. */
    static void verifySeal(byte[] all, ByteBuffer buf, String what) throws IOException {
        int crcAt = buf.position();
        int crc = buf.getInt();
        if (buf.hasRemaining()) {
            throw new IOException("Trailing bytes after " + what);
        }
        if (crc != Crc32c.of(all, 0, crcAt)) {
            throw new IOException(what + " checksum mismatch");
        }
    }
}
