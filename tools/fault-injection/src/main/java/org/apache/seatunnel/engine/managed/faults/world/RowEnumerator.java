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

package org.apache.seatunnel.engine.managed.faults.world;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;

/**
 * A pull enumerator like most bounded connectors: a split request gets the first pending split, or
 * no-more-splits once nothing is pending. Returned splits go back to the pending list. Eager, it is
 * a static-list enumerator instead: split {@code split-n} belongs to subtask {@code n %
 * parallelism}, every owned split goes to a reader when it registers (and when splits come back),
 * with no-more-splits right behind. On demand, it hands a reader its own splits when the runtime
 * asks ({@link SupportSplitDemand}), as the kit's static-list enumerator does on Lane A. It
 * remembers the last value of every split it handed out, so the engine's ownership check can
 * position splits that are still in transit.
 *
 * <p>Threading: every callback on the coordinator loop (the loop is its only caller). Life cycle:
 * created or restored by the loop, opened, {@code run()} once, closed.
 */
public class RowEnumerator implements SourceSplitEnumerator<RowSplit, List<RowSplit>> {
    private final SourceSplitEnumerator.Context<RowSplit> context;
    private final List<RowSplit> pending = new ArrayList<>();
    private final Map<String, RowSplit> handedOut = new HashMap<>();
    private final WorldConfig.EnumeratorMode mode;
    private final java.util.Set<Integer> registered = new java.util.TreeSet<>();

    /**
     * An enumerator of {@code splits} in {@code mode}; only a {@code DEMAND} one implements {@link
     * SupportSplitDemand}, since the runtime asks every enumerator that does.
     */
    public static RowEnumerator create(
            SourceSplitEnumerator.Context<RowSplit> context,
            List<RowSplit> splits,
            WorldConfig.EnumeratorMode mode) {
        return mode == WorldConfig.EnumeratorMode.DEMAND
                ? new Demanding(context, splits)
                : new RowEnumerator(context, splits, mode);
    }

    private RowEnumerator(
            SourceSplitEnumerator.Context<RowSplit> context,
            List<RowSplit> splits,
            WorldConfig.EnumeratorMode mode) {
        this.context = context;
        this.pending.addAll(splits);
        this.mode = mode;
    }

    @Override
    public void open() {}

    @Override
    public void run() {}

    @Override
    public void close() {}

    @Override
    public void addSplitsBack(List<RowSplit> splits, int subtaskId) {
        pending.addAll(splits);
        if (mode == WorldConfig.EnumeratorMode.EAGER) {
            for (int s : registered) {
                assignOwned(s, Integer.MAX_VALUE);
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        return pending.size();
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        if (mode == WorldConfig.EnumeratorMode.EAGER) {
            assignOwned(subtaskId, Integer.MAX_VALUE);
            return;
        }
        if (mode == WorldConfig.EnumeratorMode.DEMAND) {
            // The runtime asks (handleSplitDemand) when the reader has room.
            return;
        }
        if (pending.isEmpty()) {
            context.signalNoMoreSplits(subtaskId);
            return;
        }
        RowSplit s = pending.remove(0);
        handedOut.put(s.splitId(), s);
        context.assignSplit(subtaskId, s);
    }

    @Override
    public void registerReader(int subtaskId) {
        registered.add(subtaskId);
        if (mode == WorldConfig.EnumeratorMode.EAGER) {
            assignOwned(subtaskId, Integer.MAX_VALUE);
        } else if (mode == WorldConfig.EnumeratorMode.DEMAND) {
            assignOwned(subtaskId, 0);
        }
    }

    /** Up to {@code max} pending splits {@code subtask} owns; no-more-splits when none is left. */
    final void assignOwned(int subtask, int max) {
        int p = context.currentParallelism();
        List<RowSplit> mine = new ArrayList<>();
        boolean left = false;
        for (java.util.Iterator<RowSplit> it = pending.iterator(); it.hasNext(); ) {
            RowSplit s = it.next();
            if (Integer.parseInt(s.splitId().substring(s.splitId().indexOf('-') + 1)) % p
                    == subtask) {
                if (mine.size() >= max) {
                    left = true;
                    break;
                }
                it.remove();
                handedOut.put(s.splitId(), s);
                mine.add(s);
            }
        }
        if (!mine.isEmpty()) {
            context.assignSplit(subtask, mine);
        }
        if (!left) {
            context.signalNoMoreSplits(subtask);
        }
    }

    @Override
    public List<RowSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(pending);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    /** Splits not handed out; a copy. Loop-owned: read only while the loop is quiescent. */
    public List<RowSplit> pending() {
        return Collections.unmodifiableList(new ArrayList<>(pending));
    }

    /** The value of {@code splitId} when this instance last handed it out, or null. */
    public RowSplit handedOut(String splitId) {
        return handedOut.get(splitId);
    }

    /** Enumerator state: the pending splits. Stateless. */
    public static final class StateSer implements Serializer<List<RowSplit>> {
        private final RowSplit.Ser splits = new RowSplit.Ser();

        @Override
        public byte[] serialize(List<RowSplit> state) throws IOException {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bo);
            out.writeInt(state.size());
            for (RowSplit s : state) {
                byte[] b = splits.serialize(s);
                out.writeInt(b.length);
                out.write(b);
            }
            return bo.toByteArray();
        }

        @Override
        public List<RowSplit> deserialize(byte[] bytes) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            int n = in.readInt();
            List<RowSplit> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                out.add(splits.deserialize(b));
            }
            return out;
        }
    }

    /** The on-demand enumerator: the runtime asks it for what a reader can take. */
    private static final class Demanding extends RowEnumerator implements SupportSplitDemand {
        Demanding(SourceSplitEnumerator.Context<RowSplit> context, List<RowSplit> splits) {
            super(context, splits, WorldConfig.EnumeratorMode.DEMAND);
        }

        @Override
        public void handleSplitDemand(int subtaskId, int maxSplits) {
            assignOwned(subtaskId, maxSplits);
        }
    }
}
