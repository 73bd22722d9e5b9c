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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * The enumerator of {@link CutRaceSource}. Fresh: S0 goes to subtask 0 when it registers; S1 stays
 * pending until the first {@code snapshotState(N)}, which waits (bounded) until the reader holds
 * its checkpoint lock, returns a state with S1 pending, and then assigns S1 about {@code
 * assign.delay.millis} later, through a one-shot of {@link ManagedEnumeratorContext#scheduler()}
 * (the same code on both lanes) that first takes the monitor of the context the engine handed in:
 * on Lane B that is the engine's {@code enumeratorContext}, so the assignment runs right after the
 * engine's snapshot-and-fan-out block (docs/en/architecture.md hazard 1); on Lane A nothing else
 * holds it. Restored: everything pending (restored state plus splits handed back) goes out as soon
 * as the reader is registered.
 *
 * <p>Threading: Lane B (stock engine) calls it from the enumerator task thread, pool threads and
 * operation threads, and S1 is assigned on the context's scheduler thread; Lane A calls everything
 * on the coordinator loop, S1's assignment included. {@code lock} guards the pending list and the
 * registered set on both lanes.
 */
final class CutRaceEnumerator
        implements SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> {

    private static final long READER_HOLD_WAIT_MILLIS = 5_000;
    private static final int SUBTASK = 0;

    private static final AsyncTaskKey ASSIGN_S1 = AsyncTaskKey.of("cut-race-assign-s1");

    private final Context<ManagedFakeSplit> context;
    private final ManagedEnumeratorContext<ManagedFakeSplit> managed;
    private final CutRaceSource.Settings settings;
    private final CutRaceProbe probe;

    private final Object lock = new Object();
    // guarded by lock; a plain list, like many connectors: no merge by split id
    private final List<ManagedFakeSplit> pending = new ArrayList<>();
    // guarded by lock
    private final Set<Integer> registered = new HashSet<>();
    // guarded by lock; fresh enumerators hold S1 back until their first snapshot
    private boolean holdS1;
    // guarded by lock
    private boolean firstSnapshotTaken;

    CutRaceEnumerator(
            Context<ManagedFakeSplit> context,
            CutRaceSource.Settings settings,
            ArrayList<ManagedFakeSplit> restored) {
        this.context = context;
        this.settings = settings;
        this.probe = CutRaceProbe.of(settings.runId);
        this.managed = ManagedEnumeratorContext.of(context);
        if (restored == null) {
            pending.add(new ManagedFakeSplit(CutRaceSource.S0, 0));
            pending.add(new ManagedFakeSplit(CutRaceSource.S1, 0));
            holdS1 = true;
        } else {
            pending.addAll(restored);
            List<String> ids = new ArrayList<>();
            for (ManagedFakeSplit s : restored) {
                ids.add(s.toString());
            }
            probe.enumeratorRestored(ids);
        }
    }

    @Override
    public void open() {}

    @Override
    public void run() {
        synchronized (lock) {
            if (registered.contains(SUBTASK)) {
                assignPending();
            }
        }
    }

    @Override
    public void close() {
        managed.close();
    }

    @Override
    public void addSplitsBack(List<ManagedFakeSplit> splits, int subtaskId) {
        synchronized (lock) {
            pending.addAll(splits);
            probe.log("enumerator addSplitsBack " + splits);
            if (registered.contains(SUBTASK)) {
                assignPending();
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
    public void handleSplitRequest(int subtaskId) {}

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            probe.log("enumerator registerReader(" + subtaskId + ")");
            assignPending();
        }
    }

    @Override
    public ArrayList<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
        boolean cut;
        synchronized (lock) {
            cut = holdS1 && !firstSnapshotTaken;
            firstSnapshotTaken = true;
        }
        if (cut) {
            probe.snapshotRequested(checkpointId);
            if (!probe.awaitReaderHolding(READER_HOLD_WAIT_MILLIS)) {
                probe.log("reader did not hold its lock within " + READER_HOLD_WAIT_MILLIS + " ms");
            }
        }
        ArrayList<ManagedFakeSplit> state;
        synchronized (lock) {
            state = new ArrayList<>(pending);
        }
        if (cut) {
            probe.log("enumerator snapshot " + checkpointId + " = " + state);
            assignS1Later();
        }
        return state;
    }

    /** After the snapshot returned: S1 goes out "right after" the coordinator's cut. */
    private void assignS1Later() {
        managed.scheduler()
                .scheduleOnceInCoordinatorThread(
                        ASSIGN_S1,
                        Duration.ofMillis(settings.assignDelayMillis),
                        () -> {
                            // Lane B: the engine snapshots and fans the barrier out inside this
                            // monitor; taking it puts the assignment right after that block.
                            synchronized (context) {
                                releaseS1(Thread.currentThread().getName());
                            }
                        });
    }

    private void releaseS1(String thread) {
        synchronized (lock) {
            holdS1 = false;
            if (registered.contains(SUBTASK)) {
                assignPending();
            }
        }
        probe.s1Assigned(thread);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        probe.log("enumerator notifyCheckpointComplete(" + checkpointId + ")");
    }

    /** Under lock. Takes what may go out now and assigns it to the only subtask. */
    private void assignPending() {
        List<ManagedFakeSplit> out = new ArrayList<>();
        for (Iterator<ManagedFakeSplit> it = pending.iterator(); it.hasNext(); ) {
            ManagedFakeSplit s = it.next();
            if (holdS1 && s.splitNumber() == CutRaceSource.S1) {
                continue;
            }
            out.add(s);
            it.remove();
        }
        if (out.isEmpty()) {
            return;
        }
        probe.log("enumerator assignSplit " + out);
        context.assignSplit(SUBTASK, Collections.unmodifiableList(out));
    }
}
