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

import java.util.Objects;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * The framing of one versioned binary format: an optional 4-byte magic, a version field, the body
 * the format's codec writes, and an optional trailing checksum over everything before it.
 *
 * <pre>{@code
 * [magic u32] version (u8 | u16 | u16 major, u16 minor) body... [checksum u32 over all before it]
 * }</pre>
 *
 * <p>All integers are big-endian. {@link #writer} starts a frame and {@link #open} checks one, in
 * this order: length against {@link Builder#minLength} ({@link FrameRefusal#TRUNCATED}), magic
 * ({@link FrameRefusal#BAD_MAGIC}), version ({@link FrameRefusal#UNSUPPORTED_VERSION}; for a
 * major/minor frame only the major counts, so a reader skips what a newer minor appended). The
 * checksum, declared lengths and trailing bytes are checked by the {@link FrameReader} steps the
 * codec calls, in the order its format documents.
 *
 * <p>Threading: immutable, any thread; build it once per format.
 */
@Experimental
public final class FrameFormat {
    /** The width of a frame's version field. */
    public enum VersionField {
        /** One unsigned byte. */
        U8(1, 0xFF),
        /** One unsigned 16-bit version. */
        U16(2, 0xFFFF),
        /** An unsigned 16-bit major, then an unsigned 16-bit minor. */
        MAJOR_MINOR(4, 0xFFFF);

        final int bytes;
        final int max;

        VersionField(int bytes, int max) {
            this.bytes = bytes;
            this.max = max;
        }
    }

    private final String name;
    private final boolean hasMagic;
    private final int magic;
    private final VersionField versionField;
    private final int oldest;
    private final int newest;
    private final FrameChecksum checksum;
    private final int minLength;

    private FrameFormat(Builder b) {
        this.name = b.name;
        this.hasMagic = b.hasMagic;
        this.magic = b.magic;
        this.versionField = b.versionField;
        this.oldest = b.oldest;
        this.newest = b.newest;
        this.checksum = b.checksum;
        this.minLength = Math.max(b.minLength, headerBytes());
    }

    /** Starts describing the format called {@code name} (used in every refusal message). */
    public static Builder named(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** Magic and version field. */
    int headerBytes() {
        return (hasMagic ? 4 : 0) + versionField.bytes;
    }

    /** The trailing checksum's bytes, 0 without one. */
    int trailerBytes() {
        return checksum == null ? 0 : FrameChecksum.BYTES;
    }

    /** True if {@code bytes} start with this format's magic (a format without one: never). */
    public boolean startsWithMagic(byte[] bytes) {
        return hasMagic && bytes != null && bytes.length >= 4 && FrameReader.i32(bytes, 0) == magic;
    }

    /** A frame of {@code version} (minor 0) whose size is not known in advance. */
    public FrameWriter writer(int version) {
        return writer(version, 0);
    }

    /** A frame of {@code version} and {@code minor} whose size is not known in advance. */
    public FrameWriter writer(int version, int minor) {
        return new FrameWriter(this, version, minor, 64, false);
    }

    /**
     * A frame of exactly {@code frameLength} bytes (header, body and checksum), written into one
     * array that {@link FrameWriter#finish()} returns without copying.
     */
    public FrameWriter writerOfSize(int version, int minor, int frameLength) {
        return new FrameWriter(this, version, minor, frameLength, true);
    }

    /** Opens a whole array as one frame; see {@link #open(byte[], int, int)}. */
    public FrameReader open(byte[] bytes) throws FrameException {
        return open(bytes, 0, bytes == null ? 0 : bytes.length);
    }

    /**
     * Checks the length, magic and version of the {@code length} bytes at {@code offset} and
     * returns a reader positioned on the body.
     *
     * @throws FrameException for input too short to hold {@link Builder#minLength} bytes, another
     *     magic, or a version outside the readable range
     */
    public FrameReader open(byte[] bytes, int offset, int length) throws FrameException {
        if (bytes == null
                || offset < 0
                || length < 0
                || (long) offset + length > bytes.length
                || length < minLength) {
            throw refusal(
                    FrameRefusal.TRUNCATED,
                    length <= 0 ? "empty input" : length + " bytes, at least " + minLength);
        }
        int at = offset;
        if (hasMagic) {
            int found = FrameReader.i32(bytes, at);
            if (found != magic) {
                throw refusal(
                        FrameRefusal.BAD_MAGIC,
                        "magic " + FrameReader.hex(found) + ", expected " + FrameReader.hex(magic));
            }
            at += 4;
        }
        int version;
        int minor = 0;
        if (versionField == VersionField.U8) {
            version = bytes[at] & 0xFF;
        } else {
            version = FrameReader.u16(bytes, at);
            if (versionField == VersionField.MAJOR_MINOR) {
                minor = FrameReader.u16(bytes, at + 2);
            }
        }
        if (version < oldest || version > newest) {
            throw refusal(
                    FrameRefusal.UNSUPPORTED_VERSION,
                    (versionField == VersionField.MAJOR_MINOR ? "major version " : "version ")
                            + version
                            + "; this reader reads "
                            + (oldest == newest ? "" + oldest : oldest + " to " + newest)
                            + ". Restore with the release that wrote it.");
        }
        return new FrameReader(this, bytes, offset, length, version, minor);
    }

    FrameException refusal(FrameRefusal reason, String detail) {
        return new FrameException(reason, name, detail);
    }

    boolean hasMagic() {
        return hasMagic;
    }

    int magic() {
        return magic;
    }

    VersionField versionField() {
        return versionField;
    }

    FrameChecksum checksum() {
        return checksum;
    }

    /**
     * Describes a {@link FrameFormat}; by default no magic, a u8 version 1, no checksum.
     *
     * <p>Threading: one thread, until {@link #build()}.
     */
    public static final class Builder {
        private final String name;
        private boolean hasMagic;
        private int magic;
        private VersionField versionField = VersionField.U8;
        private int oldest = 1;
        private int newest = 1;
        private FrameChecksum checksum;
        private int minLength;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** The 4 bytes every frame starts with. */
        public Builder magic(int magic) {
            this.hasMagic = true;
            this.magic = magic;
            return this;
        }

        /** The version field and the versions (majors) a reader accepts, oldest to newest. */
        public Builder version(VersionField field, int oldest, int newest) {
            if (oldest < 0 || oldest > newest || newest > field.max) {
                throw new IllegalArgumentException(
                        "versions " + oldest + ".." + newest + " do not fit " + field);
            }
            this.versionField = Objects.requireNonNull(field, "field");
            this.oldest = oldest;
            this.newest = newest;
            return this;
        }

        /** A checksum over every byte before it, as the frame's last 4 bytes. */
        public Builder checksum(FrameChecksum checksum) {
            this.checksum = Objects.requireNonNull(checksum, "checksum");
            return this;
        }

        /** Shorter input is refused as truncated before anything else; at least the header. */
        public Builder minLength(int minLength) {
            this.minLength = minLength;
            return this;
        }

        public FrameFormat build() {
            return new FrameFormat(this);
        }
    }
}
