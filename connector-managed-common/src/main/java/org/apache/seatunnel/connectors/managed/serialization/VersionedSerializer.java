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
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
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
        // Unsynchronized buffers: the streams are this call's own, and a split is serialized per
        // assignment and per checkpoint, so the JDK's synchronized byte streams cost more than
        // the fields they carry.
        Bytes bytes = new Bytes(32);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(version());
        write(out, value);
        // DataOutputStream buffers nothing: there is nothing to flush or close.
        return bytes.toByteArray();
    }

    @Override
    public final T deserialize(byte[] serialized) throws IOException {
        if (serialized == null || serialized.length == 0) {
            throw new IOException(getClass().getSimpleName() + ": empty input");
        }
        int version = serialized[0] & 0xff;
        if (!canRead(version)) {
            throw new IOException(
                    getClass().getSimpleName()
                            + ": unknown version "
                            + version
                            + " (writes "
                            + version()
                            + ")");
        }
        BytesIn bytes = new BytesIn(serialized, 1);
        T value;
        try {
            value = read(new DataInputStream(bytes), version);
        } catch (EOFException e) {
            throw new IOException(
                    getClass().getSimpleName()
                            + ": truncated input ("
                            + serialized.length
                            + " bytes)",
                    e);
        } catch (RuntimeException e) {
            throw new IOException(
                    getClass().getSimpleName()
                            + ": malformed input: "
                            + e.getClass().getSimpleName(),
                    e);
        }
        if (bytes.available() > 0) {
            throw new IOException(
                    getClass().getSimpleName()
                            + ": "
                            + bytes.available()
                            + " trailing bytes after version "
                            + version);
        }
        return value;
    }

    /** A growable byte sink without the JDK's per-call locking. One caller; not thread-safe. */
    private static final class Bytes extends OutputStream {
        private byte[] buf;
        private int count;

        Bytes(int size) {
            buf = new byte[size];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void ensure(int more) {
            if (count + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, count);
        }
    }

    /** A byte source over an array without the JDK's per-call locking. One caller. */
    private static final class BytesIn extends InputStream {
        private final byte[] buf;
        private int pos;

        BytesIn(byte[] buf, int from) {
            this.buf = buf;
            this.pos = from;
        }

        @Override
        public int read() {
            return pos < buf.length ? buf[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int n = Math.min(len, buf.length - pos);
            if (n <= 0) {
                return -1;
            }
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public long skip(long n) {
            long k = Math.max(0, Math.min(n, buf.length - pos));
            pos += (int) k;
            return k;
        }

        @Override
        public int available() {
            return buf.length - pos;
        }
    }
}
