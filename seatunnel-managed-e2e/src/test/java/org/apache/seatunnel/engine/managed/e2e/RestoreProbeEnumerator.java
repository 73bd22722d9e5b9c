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

package org.apache.seatunnel.engine.managed.e2e;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * The enumerator of {@link RestoreProbeSource}: fresh, it holds {@code fake-0@0} and {@code
 * fake-1@0}; restored, the splits of its checkpointed state. Splits handed back (on Zeta, the
 * restored reader's state) are kept as given, with their offsets, unless the broken fixture resets
 * them to 0. Everything pending goes to subtask 0 once it is registered.
 *
 * <p>Threading: Lane B (stock engine) calls it from the enumerator task thread, pool threads and
 * operation threads; Lane A from the coordinator loop only. {@code lock} guards the pending list
 * and the registration flag on both lanes.
 */
final class RestoreProbeEnumerator
        implements SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> {

    private static final int SUBTASK = 0;

    private final Context<ManagedFakeSplit> context;
    private final RestoreProbeSource.Settings settings;
    private final RestoreProbe probe;

    private final Object lock = new Object();
    // guarded by lock
    private final List<ManagedFakeSplit> pending = new ArrayList<>();
    // guarded by lock
    private boolean registered;

    RestoreProbeEnumerator(
            Context<ManagedFakeSplit> context,
            RestoreProbeSource.Settings settings,
            ArrayList<ManagedFakeSplit> restored) {
        this.context = context;
        this.settings = settings;
        this.probe = RestoreProbe.of(settings.runId);
        if (restored == null) {
            for (int i = 0; i < RestoreProbeSource.SPLIT_COUNT; i++) {
                pending.add(new ManagedFakeSplit(i, 0));
            }
            probe.enumeratorCreated(null);
        } else {
            pending.addAll(restored);
            probe.enumeratorCreated(ids(restored));
        }
    }

    static List<String> ids(List<ManagedFakeSplit> splits) {
        List<String> out = new ArrayList<>();
        for (ManagedFakeSplit s : splits) {
            out.add(s.toString());
        }
        return out;
    }

    @Override
    public void open() {}

    @Override
    public void run() {
        synchronized (lock) {
            assignPending();
        }
    }

    @Override
    public void close() {}

    @Override
    public void addSplitsBack(List<ManagedFakeSplit> splits, int subtaskId) {
        synchronized (lock) {
            probe.splitsHandedBack(ids(splits));
            for (ManagedFakeSplit s : splits) {
                pending.add(settings.brokenResetReturned ? s.withOffset(0) : s);
            }
            assignPending();
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {}

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered = true;
            assignPending();
        }
    }

    @Override
    public ArrayList<ManagedFakeSplit> snapshotState(long checkpointId) {
        synchronized (lock) {
            return new ArrayList<>(pending);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    /** Under lock. */
    private void assignPending() {
        if (!registered || pending.isEmpty()) {
            return;
        }
        List<ManagedFakeSplit> out = new ArrayList<>(pending);
        pending.clear();
        context.assignSplit(SUBTASK, Collections.unmodifiableList(out));
    }
}
