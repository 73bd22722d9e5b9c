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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.seatunnel.api.serialization.Serializer;

/**
 * A {@link Serializer} with a version byte in front, for splits, enumerator state and source events
 * that live in checkpoints: the subclass writes and reads the fields of its current version (and
 * reads older ones), the base writes the version, refuses unknown versions, truncated input and
 * trailing bytes with an {@link IOException} that says which, and never lets a runtime exception of
 * a malformed input escape.
 *
 * <pre>{@code
 * u8 version | fields written by write(...)
 * }</pre>
 *
 * <p>Threading: stateless; subclasses must be too (the engine shares serializers).
 */
public abstract class VersionedSerializer<T> implements Serializer<T> {
    private static final long serialVersionUID = 1L;

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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version());
            write(out, value);
        }
        return bytes.toByteArray();
    }

    @Override
    public final T deserialize(byte[] serialized) throws IOException {
        String type = getClass().getSimpleName();
        if (serialized == null || serialized.length == 0) {
            throw new IOException(type + ": empty input");
        }
        int version = serialized[0] & 0xff;
        if (!canRead(version)) {
            throw new IOException(
                    type + ": unknown version " + version + " (writes " + version() + ")");
        }
        ByteArrayInputStream bytes = new ByteArrayInputStream(serialized, 1, serialized.length - 1);
        T value;
        try (DataInputStream in = new DataInputStream(bytes)) {
            value = read(in, version);
        } catch (EOFException e) {
            throw new IOException(type + ": truncated input (" + serialized.length + " bytes)", e);
        } catch (RuntimeException e) {
            throw new IOException(type + ": malformed input: " + e.getClass().getSimpleName(), e);
        }
        if (bytes.available() > 0) {
            throw new IOException(
                    type + ": " + bytes.available() + " trailing bytes after version " + version);
        }
        return value;
    }
}
