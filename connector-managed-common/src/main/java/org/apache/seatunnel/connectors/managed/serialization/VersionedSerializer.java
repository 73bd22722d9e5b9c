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

package org.apache.seatunnel.connectors.managed.serialization;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;
import org.apache.seatunnel.api.source.managed.serialization.FrameWriter;

/**
 * A {@link Serializer} with a version byte in front, for splits, enumerator state and source events
 * that live in checkpoints: the subclass writes and reads the fields of its current version (and
 * reads older ones), the base writes the version, refuses unknown versions, truncated input and
 * trailing bytes with an {@link IOException} that says which, and never lets a runtime exception of
 * a malformed input escape. The framing is the SPI's frame codec ({@link FrameFormat}, no magic, a
 * u8 version, no checksum), so its refusals carry a {@link FrameRefusal} reason.
 *
 * <pre>{@code
 * u8 version | fields written by write(...)
 * }</pre>
 *
 * <p>Threading: stateless; subclasses must be too (the engine shares serializers).
 */
public abstract class VersionedSerializer<T> implements Serializer<T> {
    private static final long serialVersionUID = 1L;

    // Built on first use. Racing threads may each build one: FrameFormat is immutable with final
    // fields, so whichever they see is complete.
    private transient FrameFormat format;

    /** The version {@link #serialize} writes; 1..255. */
    protected abstract int version();

    /** Writes {@code value}'s fields in the current {@link #version()}. */
    protected abstract void write(DataOutputStream out, T value) throws IOException;

    /** Reads the fields written by {@code write} in {@code version} (current or older). */
    protected abstract T read(DataInputStream in, int version) throws IOException;

    /** Versions {@link #read} accepts; by default only the current one. */
    protected boolean canRead(int version) {
        return version == version();
    }

    @Override
    public final byte[] serialize(T value) throws IOException {
        FrameWriter frame = format().writer(version());
        // DataOutputStream buffers nothing: there is nothing to flush or close.
        write(new DataOutputStream(frame), value);
        return frame.finish();
    }

    /**
     * Writes exactly the bytes {@link #serialize} returns for {@code value} into {@code out}: the
     * version byte, then the fields. For a container that writes many values ({@link
     * SplitListSerializer}) without a frame and an array per value.
     */
    final void writeVersioned(DataOutputStream out, T value) throws IOException {
        int version = version();
        if (version < 0 || version > 0xFF) {
            // What serialize's frame refuses too: the version must fit its byte.
            throw new IllegalArgumentException("version " + version + " does not fit a u8");
        }
        out.writeByte(version);
        write(out, value);
    }

    @Override
    public final T deserialize(byte[] serialized) throws IOException {
        FrameReader in = format().open(serialized);
        int version = in.version();
        if (!canRead(version)) {
            throw in.refuse(
                    FrameRefusal.UNSUPPORTED_VERSION,
                    "unknown version " + version + " (writes " + version() + ")");
        }
        T value;
        try {
            value = read(new DataInputStream(in), version);
        } catch (EOFException e) {
            throw in.refuse(
                    FrameRefusal.TRUNCATED, "truncated input (" + serialized.length + " bytes)");
        } catch (RuntimeException e) {
            IOException malformed =
                    in.refuse(
                            FrameRefusal.BAD_FIELD,
                            "malformed input: " + e.getClass().getSimpleName());
            malformed.initCause(e);
            throw malformed;
        }
        in.finish();
        return value;
    }

    private FrameFormat format() {
        FrameFormat f = format;
        if (f == null) {
            // Any u8 version opens; canRead decides, as subclasses may read a sparse set.
            f =
                    FrameFormat.named(getClass().getSimpleName())
                            .version(FrameFormat.VersionField.U8, 0, 0xFF)
                            .build();
            format = f;
        }
        return f;
    }
}
