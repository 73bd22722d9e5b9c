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

import java.io.InputStream;
import java.util.Arrays;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * Reads one frame that {@link FrameFormat#open} accepted: the body through bounded big-endian reads
 * (or as an {@link InputStream}, e.g. under a {@code DataInputStream}), and the frame's checks as
 * steps the codec calls in its format's order ({@link #expectLength}, {@link #verifyChecksum},
 * {@link #finish}). Every read stays before the trailing checksum and every refusal is a {@link
 * FrameException}, never a runtime exception from a buffer.
 *
 * <p>Offsets are relative to the frame's first byte. Threading: one caller; not thread-safe.
 */
@Experimental
public final class FrameReader extends InputStream {
    private final FrameFormat format;
    private final byte[] bytes;
    private final int start;
    private final int length;
    private final int version;
    private final int minor;
    // Absolute: the next byte to read and the end of the body (the checksum's first byte).
    private int pos;
    private final int limit;
    private boolean checksumVerified;

    FrameReader(FrameFormat format, byte[] bytes, int start, int length, int version, int minor) {
        this.format = format;
        this.bytes = bytes;
        this.start = start;
        this.length = length;
        this.version = version;
        this.minor = minor;
        this.pos = start + format.headerBytes();
        this.limit = start + length - format.trailerBytes();
    }

    /** The version (the major of a major/minor frame). */
    public int version() {
        return version;
    }

    /** The minor of a major/minor frame, else 0. */
    public int minor() {
        return minor;
    }

    /** The frame's length, checksum included. */
    public int length() {
        return length;
    }

    /** Offset of the next byte to read. */
    public int position() {
        return pos - start;
    }

    /** Body bytes left before the checksum. */
    public int remaining() {
        return Math.max(0, limit - pos);
    }

    /** Moves to {@code offset} (e.g. past header fields a newer minor appended). */
    public void seek(int offset) throws FrameException {
        if (offset < 0 || offset > limit - start) {
            throw truncated("seek to offset " + offset + " past the body's " + (limit - start));
        }
        pos = start + offset;
    }

    public int u8() throws FrameException {
        return bytes[take(1)] & 0xFF;
    }

    public int u16() throws FrameException {
        return u16(bytes, take(2));
    }

    public int i32() throws FrameException {
        return i32(bytes, take(4));
    }

    public long u32() throws FrameException {
        return i32(bytes, take(4)) & 0xFFFFFFFFL;
    }

    public long i64() throws FrameException {
        return i64(bytes, take(8));
    }

    /** The next {@code n} bytes, copied. */
    public byte[] bytes(int n) throws FrameException {
        if (n < 0) {
            throw refuse(FrameRefusal.BAD_FIELD, "negative length " + n);
        }
        int at = take(n);
        return Arrays.copyOfRange(bytes, at, at + n);
    }

    /** A u32 length of at most {@code max}, then that many bytes: what {@code putBlob} wrote. */
    public byte[] blob(int max, String what) throws FrameException {
        long len = u32();
        if (len > max) {
            throw refuse(
                    FrameRefusal.OVERSIZE,
                    what + " length out of range: " + len + " (limit " + max + ")");
        }
        if (len > remaining()) {
            throw truncated(
                    what + " length out of range: " + len + ", " + remaining() + " bytes left");
        }
        return bytes((int) len);
    }

    /** Refuses as truncated unless {@code n} more body bytes follow (check counts before use). */
    public void require(long n, String what) throws FrameException {
        if (n > remaining()) {
            throw truncated(
                    what
                            + " needs "
                            + n
                            + " more bytes at offset "
                            + position()
                            + ", "
                            + remaining()
                            + " left before the checksum");
        }
    }

    /** Refuses as truncated unless the frame is at least {@code min} bytes long. */
    public void requireLength(int min) throws FrameException {
        if (length < min) {
            throw truncated(length + " bytes, version " + version + " needs at least " + min);
        }
    }

    /**
     * Checks a length the frame declares (checksum included) against the bytes given: more is
     * {@link FrameRefusal#TRUNCATED}, fewer leaves {@link FrameRefusal#TRAILING_BYTES}.
     */
    public void expectLength(long declared) throws FrameException {
        if (declared > length) {
            throw truncated(length + " bytes, the frame declares " + declared);
        }
        if (declared < length) {
            throw refuse(
                    FrameRefusal.TRAILING_BYTES,
                    (length - declared) + " bytes after the frame's " + declared);
        }
    }

    /** Checks the trailing checksum against every byte before it. */
    public void verifyChecksum() throws FrameException {
        FrameChecksum checksum = format.checksum();
        int covered = length - FrameChecksum.BYTES;
        int stored = i32(bytes, start + covered);
        int computed = checksum.of(bytes, start, covered);
        if (stored != computed) {
            // The stored and computed values are left out: building them costs more than the
            // refusal itself, and a wire decoder refuses such frames on an operation thread.
            throw refuse(
                    FrameRefusal.CHECKSUM_MISMATCH,
                    checksum.label() + " over " + covered + " bytes");
        }
        checksumVerified = true;
    }

    /**
     * Ends the frame: refuses bytes the body did not read ({@link FrameRefusal#TRAILING_BYTES}),
     * then checks the checksum unless {@link #verifyChecksum} already has.
     */
    public void finish() throws FrameException {
        if (pos < limit) {
            throw refuse(
                    FrameRefusal.TRAILING_BYTES,
                    (limit - pos) + " trailing bytes after the last field");
        }
        if (!checksumVerified && format.checksum() != null) {
            verifyChecksum();
        }
    }

    public int u8At(int offset) throws FrameException {
        return bytes[at(offset, 1)] & 0xFF;
    }

    public int u16At(int offset) throws FrameException {
        return u16(bytes, at(offset, 2));
    }

    public int i32At(int offset) throws FrameException {
        return i32(bytes, at(offset, 4));
    }

    public long i64At(int offset) throws FrameException {
        return i64(bytes, at(offset, 8));
    }

    /** A refusal of this frame for a reason its codec found. */
    public FrameException refuse(FrameRefusal reason, String detail) {
        return format.refusal(reason, detail);
    }

    @Override
    public int read() {
        return pos < limit ? bytes[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        int n = Math.min(len, remaining());
        if (n == 0) {
            return -1;
        }
        System.arraycopy(bytes, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public long skip(long n) {
        long k = Math.max(0, Math.min(n, remaining()));
        pos += (int) k;
        return k;
    }

    @Override
    public int available() {
        return remaining();
    }

    private int take(int n) throws FrameException {
        if (n > limit - pos) {
            throw truncated(
                    n + " bytes needed at offset " + position() + ", " + remaining() + " left");
        }
        int at = pos;
        pos += n;
        return at;
    }

    private int at(int offset, int n) throws FrameException {
        if (offset < 0 || offset > length - n) {
            throw truncated(n + " bytes needed at offset " + offset + " of " + length);
        }
        return start + offset;
    }

    private FrameException truncated(String detail) {
        return refuse(FrameRefusal.TRUNCATED, detail);
    }

    /** {@code 0x} and 8 upper-case hex digits, without String.format's cost on a refusal. */
    static String hex(int v) {
        String digits = Integer.toHexString(v).toUpperCase(java.util.Locale.ROOT);
        return "0x00000000".substring(0, 10 - digits.length()) + digits;
    }

    static int u16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    static int i32(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24)
                | ((b[at + 1] & 0xFF) << 16)
                | ((b[at + 2] & 0xFF) << 8)
                | (b[at + 3] & 0xFF);
    }

    static long i64(byte[] b, int at) {
        return ((long) i32(b, at) << 32) | (i32(b, at + 4) & 0xFFFFFFFFL);
    }
}
