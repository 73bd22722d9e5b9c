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

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * An enumerator for a split list known up front (a range, a fixed file list, a table's chunks):
 * each split goes to one owner subtask once that reader registered; splits handed back by a failed
 * or restored reader go out again; its checkpointed state is the list of splits not yet assigned. A
 * bounded source tells each reader no more splits will come right after its assignment.
 *
 * <p>Threading: on Lane A the runtime calls every method on the coordinator loop, one at a time; on
 * Lane B the engine calls them from several threads at once, so all state is guarded by one monitor
 * held only for short sections (an assignment on Lane B is a remote call made while holding it, so
 * a snapshot sees a split either pending or assigned, never both).
 */
public class StaticSplitEnumerator<SplitT extends SourceSplit>
        implements SourceSplitEnumerator<SplitT, ArrayList<SplitT>> {

    protected final Context<SplitT> context;
    private final boolean bounded;

    private final Object lock = new Object();
    // guarded by lock; in arrival order so assignment order is deterministic
    private final Map<String, SplitT> pending = new LinkedHashMap<>();
    private final Set<Integer> registered = new HashSet<>();

    /**
     * @param splits the splits to assign: all of them for a fresh start, the checkpointed pending
     *     ones on restore
     * @param bounded whether readers are told no more splits will come once they got theirs
     */
    public StaticSplitEnumerator(
            Context<SplitT> context, Collection<SplitT> splits, boolean bounded) {
        this.context = context;
        this.bounded = bounded;
        for (SplitT s : splits) {
            pending.put(s.splitId(), s);
        }
    }

    /**
     * The subtask that reads {@code split}: by default a stable hash of its id. Must depend only on
     * the split and the parallelism, so a split handed back goes to the same reader again.
     */
    protected int owner(SplitT split, int parallelism) {
        return (split.splitId().hashCode() & Integer.MAX_VALUE) % Math.max(1, parallelism);
    }

    @Override
    public void open() {}

    /** Hands out what registered readers are owed and returns at once (the engine needs that). */
    @Override
    public void run() {
        synchronized (lock) {
            for (int subtask : new ArrayList<>(registered)) {
                assignPendingTo(subtask);
            }
        }
    }

    @Override
    public void close() {}

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        synchronized (lock) {
            for (SplitT s : splits) {
                pending.put(s.splitId(), s);
            }
            for (int subtask : new ArrayList<>(registered)) {
                assignPendingTo(subtask);
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        synchronized (lock) {
            if (registered.contains(subtaskId)) {
                assignPendingTo(subtaskId);
            }
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            assignPendingTo(subtaskId);
            if (bounded) {
                context.signalNoMoreSplits(subtaskId);
            }
        }
    }

    @Override
    public ArrayList<SplitT> snapshotState(long checkpointId) throws Exception {
        synchronized (lock) {
            return new ArrayList<>(pending.values());
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Under lock. Removes the splits first and puts them back if the delivery fails. */
    private void assignPendingTo(int subtaskId) {
        int parallelism = context.currentParallelism();
        List<SplitT> mine = new ArrayList<>();
        for (Iterator<SplitT> it = pending.values().iterator(); it.hasNext(); ) {
            SplitT s = it.next();
            if (owner(s, parallelism) == subtaskId) {
                mine.add(s);
                it.remove();
            }
        }
        if (mine.isEmpty()) {
            return;
        }
        try {
            context.assignSplit(subtaskId, Collections.unmodifiableList(mine));
        } catch (RuntimeException e) {
            for (SplitT s : mine) {
                pending.put(s.splitId(), s);
            }
            throw e;
        }
    }
}
