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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * Threading: on the stock engine {@code createEnumerator}/{@code restoreEnumerator}, {@link
 * #registerReader} and {@link #snapshotState} arrive on engine task pool threads (the snapshot
 * inside the engine's {@code synchronized (enumeratorContext)}), {@link #open}, {@link #run} and
 * {@link #close} on the enumerator task's thread, and {@link #addSplitsBack}, {@link
 * #handleSplitRequest} and {@link #notifyCheckpointComplete} on Hazelcast operation threads, any of
 * them concurrently. All state is guarded by {@code lock}. An assignment removes the splits from
 * {@code pending} and delivers them while holding {@code lock}, so a snapshot sees a split either
 * pending or delivered, never both and never neither. (The engine's own cut race, #2936 — a split
 * delivered after the enumerator's snapshot but before the reader's barrier — is outside this
 * class; it is what Lane A fixes.)
 *
 * <p>Assigns split {@code n} to subtask {@code n % parallelism}, keeping unassigned splits (with
 * their offsets) as its checkpointed state.
 *
 * <p>Only registered readers get splits: the stock context drops an assignment when no reader is
 * registered and has no address for an unregistered subtask (#4763), so splits for a subtask that
 * has not registered yet stay pending until {@link #registerReader}.
 */
public final class ManagedFakeEnumerator
        implements SourceSplitEnumerator<ManagedFakeSplit, ManagedFakeEnumeratorState> {

    private final Context<ManagedFakeSplit> context;
    private final ManagedFakeConfig config;

    private final Object lock = new Object();
    // guarded by lock; keyed by split number so assignment order is deterministic
    private final TreeMap<Integer, ManagedFakeSplit> pending = new TreeMap<>();
    private final Set<Integer> registered = new HashSet<>();

    /** A fresh enumerator holding every split at offset 0. */
    public ManagedFakeEnumerator(Context<ManagedFakeSplit> context, ManagedFakeConfig config) {
        this(context, config, initialSplits(config));
    }

    /** An enumerator restored with the pending splits of a checkpoint. */
    public ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeEnumeratorState restored) {
        this(context, config, restored.pendingSplits());
    }

    private ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            List<ManagedFakeSplit> initialPending) {
        this.context = context;
        this.config = config;
        for (ManagedFakeSplit split : initialPending) {
            pending.put(split.splitNumber(), split);
        }
    }

    private static List<ManagedFakeSplit> initialSplits(ManagedFakeConfig config) {
        List<ManagedFakeSplit> splits = new ArrayList<>(config.splitCount());
        for (int n = 0; n < config.splitCount(); n++) {
            splits.add(new ManagedFakeSplit(n, 0));
        }
        return splits;
    }

    /** The subtask that owns split {@code n}: {@code n % parallelism}. */
    public static int owner(int splitNumber, int parallelism) {
        return splitNumber % Math.max(1, parallelism);
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

    /**
     * Restored reader splits and splits of a failed reader come back here (on restore: before the
     * readers register). They are pending again and go out to their owner once it is registered.
     */
    @Override
    public void addSplitsBack(List<ManagedFakeSplit> splits, int subtaskId) {
        synchronized (lock) {
            for (ManagedFakeSplit split : splits) {
                pending.put(split.splitNumber(), split);
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

    /** Assigns the reader's pending splits, then, when bounded, tells it no more will come. */
    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            assignPendingTo(subtaskId);
            if (config.bounded()) {
                context.signalNoMoreSplits(subtaskId);
            }
        }
        if (!config.sourceEventRunId().isEmpty()) {
            // After the assignment, outside the lock: the stock engine drops the event (a no-op
            // there); Lane A delivers it over its own transport.
            context.sendEventToSourceReader(
                    subtaskId, new ManagedFakeEvent(config.sourceEventRunId(), subtaskId));
        }
    }

    @Override
    public ManagedFakeEnumeratorState snapshotState(long checkpointId) throws Exception {
        ManagedFakeProbe.enumeratorSnapshot(checkpointId);
        String faultId = config.faultId();
        if (!faultId.isEmpty()) {
            long hold = config.holdSnapshotAtCheckpoint();
            if (hold >= 0 && checkpointId >= hold) {
                // Outside the lock: a held snapshot must not block assignments.
                ManagedFakeFaults.holdOnce(faultId);
            }
            failOnce("snapshot", checkpointId);
        }
        synchronized (lock) {
            return new ManagedFakeEnumeratorState(new ArrayList<>(pending.values()));
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        ManagedFakeProbe.checkpointComplete(checkpointId);
        // Nothing to commit; repeated notifications after a restore are harmless.
        if (!config.faultId().isEmpty()) {
            failOnce("checkpoint-complete", checkpointId);
        }
    }

    /** The injected enumerator fault: throws once per fault id at the configured callback. */
    private void failOnce(String callback, long checkpointId) {
        if (callback.equals(config.enumeratorFailOn())
                && checkpointId >= config.enumeratorFailAtCheckpoint()
                && ManagedFakeFaults.fireOnce(config.faultId() + "/enumerator")) {
            throw new IllegalStateException(
                    "ManagedFake injected enumerator failure in "
                            + callback
                            + " of checkpoint "
                            + checkpointId
                            + " (fault.id "
                            + config.faultId()
                            + ")");
        }
    }

    /** Under lock. Removes the splits first and puts them back if the delivery fails. */
    private void assignPendingTo(int subtaskId) {
        int parallelism = context.currentParallelism();
        List<ManagedFakeSplit> mine = new ArrayList<>();
        for (Iterator<Map.Entry<Integer, ManagedFakeSplit>> it = pending.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Integer, ManagedFakeSplit> e = it.next();
            if (owner(e.getKey(), parallelism) == subtaskId) {
                mine.add(e.getValue());
                it.remove();
            }
        }
        if (mine.isEmpty()) {
            return;
        }
        try {
            context.assignSplit(subtaskId, Collections.unmodifiableList(mine));
        } catch (RuntimeException e) {
            for (ManagedFakeSplit split : mine) {
                pending.put(split.splitNumber(), split);
            }
            throw e;
        }
    }
}
