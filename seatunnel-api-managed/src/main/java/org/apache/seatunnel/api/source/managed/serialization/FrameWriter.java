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

import java.io.OutputStream;
import java.util.Arrays;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * Writes one frame of a {@link FrameFormat}: the header on creation, the body through the
 * big-endian {@code put} methods (or as an {@link OutputStream}, e.g. under a {@code
 * DataOutputStream}), the checksum on {@link #finish()}.
 *
 * <p>Threading: one caller; not thread-safe. Unsynchronized on purpose: the JDK's byte streams lock
 * per call, which costs more than the fields a split or a command carries.
 */
@Experimental
public final class FrameWriter extends OutputStream {
    private final FrameChecksum checksum;
    private final boolean exact;
    private byte[] buf;
    private int pos;

    FrameWriter(FrameFormat format, int version, int minor, int capacity, boolean exact) {
        FrameFormat.VersionField field = format.versionField();
        if (version < 0 || version > field.max || minor < 0 || minor > 0xFFFF) {
            throw new IllegalArgumentException(
                    "version " + version + "." + minor + " does not fit " + field);
        }
        this.checksum = format.checksum();
        this.exact = exact;
        this.buf = new byte[Math.max(capacity, format.headerBytes() + format.trailerBytes())];
        if (format.hasMagic()) {
            putI32(format.magic());
        }
        if (field == FrameFormat.VersionField.U8) {
            putU8(version);
        } else {
            putU16(version);
            if (field == FrameFormat.VersionField.MAJOR_MINOR) {
                putU16(minor);
            }
        }
    }

    public FrameWriter putU8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    public FrameWriter putU16(int v) {
        ensure(2);
        buf[pos] = (byte) (v >>> 8);
        buf[pos + 1] = (byte) v;
        pos += 2;
        return this;
    }

    public FrameWriter putI32(int v) {
        ensure(4);
        buf[pos] = (byte) (v >>> 24);
        buf[pos + 1] = (byte) (v >>> 16);
        buf[pos + 2] = (byte) (v >>> 8);
        buf[pos + 3] = (byte) v;
        pos += 4;
        return this;
    }

    public FrameWriter putI64(long v) {
        putI32((int) (v >>> 32));
        return putI32((int) v);
    }

    public FrameWriter putBytes(byte[] b) {
        return putBytes(b, 0, b.length);
    }

    public FrameWriter putBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
        return this;
    }

    /** A u32 length, then the bytes: the form {@link FrameReader#blob} reads. */
    public FrameWriter putBlob(byte[] b) {
        return putI32(b.length).putBytes(b);
    }

    @Override
    public void write(int b) {
        putU8(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        putBytes(b, off, len);
    }

    /**
     * Appends the checksum of everything written and returns the frame.
     *
     * @throws IllegalStateException if a frame of exact size was not filled exactly (the codec's
     *     size computation is wrong)
     */
    public byte[] finish() {
        if (checksum != null) {
            putI32(checksum.of(buf, 0, pos));
        }
        if (pos == buf.length) {
            return buf;
        }
        if (exact) {
            throw new IllegalStateException(
                    "frame sized " + buf.length + " bytes holds " + pos + " bytes");
        }
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int more) {
        if (more > buf.length - pos) {
            if (exact) {
                throw new IllegalStateException(
                        "frame sized " + buf.length + " bytes overflows at " + (pos + more));
            }
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }
}
