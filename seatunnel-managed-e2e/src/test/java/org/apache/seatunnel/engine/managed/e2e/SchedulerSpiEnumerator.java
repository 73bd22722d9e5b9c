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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeEnumerator;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * One enumerator class for both lanes, written only against the SPI: splits {@code 0..n-2} are
 * "discovered" by a callable run through {@link ManagedEnumeratorContext#scheduler()} and assigned
 * in its result handler; split {@code n-1} is assigned by the enumerator's own thread once its
 * owner registered. Split {@code k} belongs to subtask {@code k % parallelism}; a subtask gets
 * no-more-splits once every split it owns went out. Restored: everything pending goes out at
 * registration.
 *
 * <p>Threading: engine callbacks arrive on the coordinator loop (Lane A) or on engine threads (Lane
 * B); the discovery result handler on the loop (Lane A) or the context's scheduler thread (Lane B);
 * the last split is assigned from a plain thread of the enumerator's own on both lanes. All state
 * is guarded by {@code lock}, and every context call is made under it together with the state
 * change it reflects, which is what keeps a snapshot and the assignments consistent on both lanes.
 */
final class SchedulerSpiEnumerator
        implements SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> {

    static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("scheduler-spi-discover");
    private static final long OWN_THREAD_WAIT_MILLIS = 60_000;

    private final ManagedEnumeratorContext<ManagedFakeSplit> context;
    private final int splitCount;
    private final int parallelism;
    private final int ownSplit;
    private final boolean fresh;
    private final SchedulerSpiProbe probe;
    private final CountDownLatch ownSplitOwnerRegistered = new CountDownLatch(1);

    private final Object lock = new Object();
    // guarded by lock: splits known and not handed out yet, by number
    private final TreeMap<Integer, ManagedFakeSplit> available = new TreeMap<>();
    // guarded by lock: split numbers handed out (or, after a restore, held by readers)
    private final Set<Integer> assigned = new HashSet<>();
    // guarded by lock
    private final Set<Integer> registered = new HashSet<>();
    // guarded by lock
    private final Set<Integer> signalled = new HashSet<>();

    SchedulerSpiEnumerator(
            Context<ManagedFakeSplit> engineContext,
            int splitCount,
            String runId,
            ArrayList<ManagedFakeSplit> restored) {
        this.context = ManagedEnumeratorContext.of(engineContext);
        this.splitCount = splitCount;
        this.parallelism = context.currentParallelism();
        this.ownSplit = splitCount - 1;
        this.fresh = restored == null;
        this.probe = SchedulerSpiProbe.of(runId);
        if (!fresh) {
            for (int n = 0; n < splitCount; n++) {
                assigned.add(n);
            }
            for (ManagedFakeSplit s : restored) {
                assigned.remove(s.splitNumber());
                available.put(s.splitNumber(), s);
            }
        }
    }

    private int owner(int splitNumber) {
        return ManagedFakeEnumerator.owner(splitNumber, parallelism);
    }

    @Override
    public void open() {
        if (!fresh) {
            return;
        }
        int toDiscover = splitCount - 1;
        context.scheduler()
                .callAsync(
                        DISCOVER,
                        () -> {
                            probe.discoveryThread.set(Thread.currentThread().getName());
                            List<ManagedFakeSplit> found = new ArrayList<>();
                            for (int n = 0; n < toDiscover; n++) {
                                found.add(new ManagedFakeSplit(n, 0));
                            }
                            return found;
                        },
                        (found, error) -> {
                            probe.handlerThread.set(Thread.currentThread().getName());
                            if (error != null) {
                                throw new IllegalStateException("discovery failed", error);
                            }
                            synchronized (lock) {
                                for (ManagedFakeSplit s : found) {
                                    available.put(s.splitNumber(), s);
                                }
                                for (int subtask : new ArrayList<>(registered)) {
                                    assignAvailable(subtask);
                                }
                            }
                        },
                        AsyncTaskOptions.defaults());
        Thread own = new Thread(this::assignOwnSplit, "scheduler-spi-own-thread");
        own.setDaemon(true);
        own.start();
    }

    /** The enumerator's own thread: one assignment, made off the coordinator loop on Lane A. */
    private void assignOwnSplit() {
        try {
            if (!ownSplitOwnerRegistered.await(OWN_THREAD_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                probe.ownThreadFailure.set(new IllegalStateException("owner never registered"));
                return;
            }
            int subtask = owner(ownSplit);
            synchronized (lock) {
                assigned.add(ownSplit);
                context.assignSplit(
                        subtask, Collections.singletonList(new ManagedFakeSplit(ownSplit, 0)));
                signalIfDone(subtask);
            }
            probe.ownThreadAssigned.set(Thread.currentThread().getName());
        } catch (Throwable t) {
            probe.ownThreadFailure.set(t);
        }
    }

    @Override
    public void run() {}

    @Override
    public void close() {
        probe.enumeratorCloses.incrementAndGet();
        context.close();
    }

    @Override
    public void addSplitsBack(List<ManagedFakeSplit> splits, int subtaskId) {
        synchronized (lock) {
            for (ManagedFakeSplit s : splits) {
                assigned.remove(s.splitNumber());
                available.put(s.splitNumber(), s);
                signalled.remove(owner(s.splitNumber()));
            }
            for (int subtask : new ArrayList<>(registered)) {
                assignAvailable(subtask);
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            return splitCount - assigned.size();
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {}

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            assignAvailable(subtaskId);
        }
        if (subtaskId == owner(ownSplit)) {
            ownSplitOwnerRegistered.countDown();
        }
    }

    /** Under lock. */
    private void assignAvailable(int subtask) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        for (ManagedFakeSplit s : new ArrayList<>(available.values())) {
            if (owner(s.splitNumber()) == subtask) {
                out.add(s);
                available.remove(s.splitNumber());
                assigned.add(s.splitNumber());
            }
        }
        if (!out.isEmpty()) {
            context.assignSplit(subtask, out);
        }
        signalIfDone(subtask);
    }

    /** Under lock: no-more-splits once every split the subtask owns went out. */
    private void signalIfDone(int subtask) {
        if (!registered.contains(subtask) || signalled.contains(subtask)) {
            return;
        }
        for (int n = 0; n < splitCount; n++) {
            if (owner(n) == subtask && !assigned.contains(n)) {
                return;
            }
        }
        signalled.add(subtask);
        context.signalNoMoreSplits(subtask);
        probe.noMoreSplitsSignalled.add(subtask + "@" + Thread.currentThread().getName());
    }

    @Override
    public ArrayList<ManagedFakeSplit> snapshotState(long checkpointId) {
        synchronized (lock) {
            List<ManagedFakeSplit> pending = new ArrayList<>();
            for (int n = 0; n < splitCount; n++) {
                if (!assigned.contains(n)) {
                    ManagedFakeSplit s = available.get(n);
                    pending.add(s != null ? s : new ManagedFakeSplit(n, 0));
                }
            }
            return new ArrayList<>(pending);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}
}
