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

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import org.apache.seatunnel.api.serialization.Serializer;

/**
 * A list of splits (an enumerator's pending splits) as a versioned binary form built on the
 * connector's own split serializer, so enumerator state never relies on Java serialization.
 *
 * <pre>{@code
 * version 1: u8 version=1 | i32 count | count x (i32 length | length bytes of the split serializer)
 * }</pre>
 *
 * <p>Threading: stateless.
 */
public final class SplitListSerializer<SplitT> extends VersionedSerializer<ArrayList<SplitT>> {
    private static final long serialVersionUID = 1L;

    /** Far above any real split; refuses a corrupt length before allocating it. */
    private static final int MAX_SPLIT_BYTES = 64 * 1024 * 1024;

    private final Serializer<SplitT> splitSerializer;

    public SplitListSerializer(Serializer<SplitT> splitSerializer) {
        this.splitSerializer = splitSerializer;
    }

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, ArrayList<SplitT> splits) throws IOException {
        out.writeInt(splits.size());
        if (splitSerializer instanceof VersionedSerializer) {
            writeVersioned(out, splits, (VersionedSerializer<SplitT>) splitSerializer);
            return;
        }
        for (SplitT s : splits) {
            byte[] b = splitSerializer.serialize(s);
            out.writeInt(b.length);
            out.write(b);
        }
    }

    /**
     * The same bytes, each split written through one scratch buffer: an enumerator holding a
     * million splits is snapshotted on the coordinator loop, where a frame, a stream and an array
     * per split cost most of the snapshot.
     */
    private static <SplitT> void writeVersioned(
            DataOutputStream out, ArrayList<SplitT> splits, VersionedSerializer<SplitT> serializer)
            throws IOException {
        Scratch scratch = new Scratch();
        DataOutputStream into = new DataOutputStream(scratch);
        for (SplitT s : splits) {
            scratch.reset();
            serializer.writeVersioned(into, s);
            out.writeInt(scratch.size());
            out.write(scratch.buffer(), 0, scratch.size());
        }
    }

    /** A byte array stream whose buffer can be written out without a copy. */
    private static final class Scratch extends ByteArrayOutputStream {
        Scratch() {
            super(64);
        }

        byte[] buffer() {
            return buf;
        }
    }

    @Override
    protected ArrayList<SplitT> read(DataInputStream in, int version) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("split count " + count + " does not fit the input");
        }
        ArrayList<SplitT> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int len = in.readInt();
            if (len < 0 || len > MAX_SPLIT_BYTES || len > in.available()) {
                throw new IOException("split length " + len + " does not fit the input");
            }
            byte[] b = new byte[len];
            in.readFully(b);
            out.add(splitSerializer.deserialize(b));
        }
        return out;
    }
}
