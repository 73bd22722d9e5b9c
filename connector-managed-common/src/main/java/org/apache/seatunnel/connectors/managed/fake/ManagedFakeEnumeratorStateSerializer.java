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

package org.apache.seatunnel.connectors.managed.fake;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitStateSerializer;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * ManagedFake's enumerator state: the cursors and the splits given back, and the list of pending
 * splits that enumerators before 2026-12-06 checkpointed, read into the same state.
 *
 * <pre>{@code
 * version 3: u8 version=3 | the NumberedSplitStateSerializer's bytes
 * version 1, 2 (read only): SplitListSerializer's bytes of the pending splits, a marker split
 *   numbered CURSOR_SPLIT carrying the discovery cursor in its offset
 * }</pre>
 *
 * <p>An older list restores as those splits waiting and the split count at the marker (no count
 * without one: a bounded job's list held every split it had left), so nothing is handed out twice
 * and nothing is lost.
 *
 * <p>Threading: stateless.
 */
public final class ManagedFakeEnumeratorStateSerializer
        extends VersionedSerializer<NumberedSplitState<ManagedFakeSplit>> {
    private static final long serialVersionUID = 1L;

    private static final int VERSION = 3;

    private final NumberedSplitStateSerializer<ManagedFakeSplit> numbered =
            new NumberedSplitStateSerializer<>(new ManagedFakeSplitSerializer());
    private final SplitListSerializer<ManagedFakeSplit> legacy =
            new SplitListSerializer<>(new ManagedFakeSplitSerializer());

    @Override
    protected int version() {
        return VERSION;
    }

    @Override
    protected boolean canRead(int version) {
        return version >= 1 && version <= VERSION;
    }

    @Override
    protected void write(DataOutputStream out, NumberedSplitState<ManagedFakeSplit> state)
            throws IOException {
        out.write(numbered.serialize(state));
    }

    @Override
    protected NumberedSplitState<ManagedFakeSplit> read(DataInputStream in, int version)
            throws IOException {
        byte[] rest = new byte[in.available()];
        in.readFully(rest);
        if (version == VERSION) {
            return numbered.deserialize(rest);
        }
        byte[] list = new byte[rest.length + 1];
        list[0] = (byte) version;
        System.arraycopy(rest, 0, list, 1, rest.length);
        return fromList(legacy.deserialize(list));
    }

    /** An older state: its pending splits wait, its marker (if any) gives the split count. */
    static NumberedSplitState<ManagedFakeSplit> fromList(List<ManagedFakeSplit> pending) {
        long count = 0;
        List<ManagedFakeSplit> waiting = new ArrayList<>(pending.size());
        for (ManagedFakeSplit s : pending) {
            if (s.splitNumber() == ManagedFakeEnumerator.CURSOR_SPLIT) {
                count = s.offset();
            } else {
                waiting.add(s);
            }
        }
        // One owner whose cursor is at the count: every split below it was handed out or waits.
        return new NumberedSplitState<>(count, new long[] {count}, waiting);
    }
}
