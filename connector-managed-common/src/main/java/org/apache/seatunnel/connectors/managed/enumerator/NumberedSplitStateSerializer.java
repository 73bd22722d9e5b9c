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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * The versioned binary form of a {@link NumberedSplitState}, built on the connector's split
 * serializer for the splits that wait (as a {@link SplitListSerializer} list).
 *
 * <pre>{@code
 * version 1: u8 version=1 | i64 count | i32 owners | owners x i64 next
 *            | i32 listLength | the waiting splits (SplitListSerializer's bytes)
 * }</pre>
 *
 * <p>A state whose owners or cursors do not fit (more owners than {@value #MAX_OWNERS}, a cursor
 * that is not its owner's number or lies past the splits, a list longer than the input) is refused
 * with an {@link java.io.IOException} that says which, before anything is allocated for it.
 *
 * <p>Threading: stateless, as its split serializer must be.
 */
public final class NumberedSplitStateSerializer<SplitT>
        extends VersionedSerializer<NumberedSplitState<SplitT>> {
    private static final long serialVersionUID = 1L;

    /** Far above any reader parallelism; refuses a corrupt owner count before allocating. */
    static final int MAX_OWNERS = 1 << 16;

    private final SplitListSerializer<SplitT> waiting;

    public NumberedSplitStateSerializer(Serializer<SplitT> splitSerializer) {
        this.waiting = new SplitListSerializer<>(splitSerializer);
    }

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, NumberedSplitState<SplitT> state)
            throws IOException {
        out.writeLong(state.count());
        out.writeInt(state.owners());
        for (int o = 0; o < state.owners(); o++) {
            out.writeLong(state.next(o));
        }
        byte[] list = waiting.serialize(new ArrayList<>(state.waiting()));
        out.writeInt(list.length);
        out.write(list);
    }

    @Override
    protected NumberedSplitState<SplitT> read(DataInputStream in, int version) throws IOException {
        long count = in.readLong();
        int owners = in.readInt();
        // Each cursor takes 8 bytes of what is left.
        if (owners < 1 || owners > MAX_OWNERS || owners > in.available() / 8) {
            throw new IOException("numbered split state: " + owners + " owners do not fit");
        }
        long[] next = new long[owners];
        for (int o = 0; o < owners; o++) {
            next[o] = in.readLong();
        }
        String why = NumberedSplitState.invalid(count, next);
        if (why != null) {
            throw new IOException("numbered split state: " + why);
        }
        int len = in.readInt();
        if (len < 0 || len > in.available()) {
            throw new IOException("numbered split state: list length " + len + " does not fit");
        }
        byte[] list = new byte[len];
        in.readFully(list);
        return new NumberedSplitState<>(count, next, waiting.deserialize(list));
    }
}
