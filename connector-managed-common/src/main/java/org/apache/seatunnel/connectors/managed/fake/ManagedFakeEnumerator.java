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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumerator;

/**
 * ManagedFake's enumerator: split {@code n} goes to subtask {@code n % parallelism} once that
 * reader registered; unassigned splits (with their offsets) are its checkpointed state. With {@code
 * source.event.run.id} it sends each registering reader a {@link ManagedFakeEvent}, which the stock
 * engine drops and Lane A delivers. With {@code discovery.splits.per.second} it discovers new
 * splits, numbered on from {@code split.count}, every {@value #DISCOVERY_TICK_MILLIS} ms on the
 * coordinator scheduler (both lanes); the number of the next one travels in the checkpointed list
 * as a marker split ({@link #CURSOR_SPLIT}), so a restore discovers no split twice and none never.
 *
 * <p>Threading: as {@link StaticSplitEnumerator}; the hooks run outside its monitor, so a held
 * snapshot never blocks an assignment. The discovery cursor is guarded by {@code discoveryLock},
 * which a discovery tick and a snapshot hold, so a snapshot sees a discovered split either pending
 * or not yet discovered.
 */
public final class ManagedFakeEnumerator extends StaticSplitEnumerator<ManagedFakeSplit> {
    /** The split number of the marker that carries the discovery cursor in its offset. */
    static final int CURSOR_SPLIT = Integer.MAX_VALUE;

    static final long DISCOVERY_TICK_MILLIS = 100;
    private static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("discover-splits");

    private final ManagedFakeConfig config;
    private final ManagedFakeHooks hooks;
    private final LongSupplier nanoClock;
    private final Object discoveryLock = new Object();
    // guarded by discoveryLock: the number of the next split to discover
    private long nextSplit;
    // guarded by discoveryLock: splits this instance discovered, and since when it discovers
    private long discovered;
    private long discoveringSinceNanos;
    private ManagedEnumeratorContext<ManagedFakeSplit> managed;
    private Cancellable discovery;

    public ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            Collection<ManagedFakeSplit> splits) {
        this(context, config, hooks, splits, System::nanoTime);
    }

    /** As above, discovering at the pace of {@code nanoClock} (tests drive it by hand). */
    ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            Collection<ManagedFakeSplit> splits,
            LongSupplier nanoClock) {
        super(context, withoutCursor(splits), config.bounded());
        this.config = config;
        this.hooks = hooks;
        this.nanoClock = nanoClock;
        long cursor = config.splitCount();
        for (ManagedFakeSplit s : splits) {
            if (s.splitNumber() == CURSOR_SPLIT) {
                cursor = s.offset();
            }
        }
        this.nextSplit = cursor;
    }

    private static List<ManagedFakeSplit> withoutCursor(Collection<ManagedFakeSplit> splits) {
        List<ManagedFakeSplit> real = new ArrayList<>(splits.size());
        for (ManagedFakeSplit s : splits) {
            if (s.splitNumber() != CURSOR_SPLIT) {
                real.add(s);
            }
        }
        return real;
    }

    /** Every split at offset 0: a fresh job's splits. */
    public static List<ManagedFakeSplit> initialSplits(ManagedFakeConfig config) {
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
    protected int owner(ManagedFakeSplit split, int parallelism) {
        return owner(split.splitNumber(), parallelism);
    }

    @Override
    public void open() {
        super.open();
        if (config.discoverySplitsPerSecond() > 0) {
            managed = ManagedEnumeratorContext.of(context);
            synchronized (discoveryLock) {
                discoveringSinceNanos = nanoClock.getAsLong();
            }
            discovery =
                    managed.scheduler()
                            .scheduleInCoordinatorThread(
                                    DISCOVER,
                                    Duration.ofMillis(DISCOVERY_TICK_MILLIS),
                                    this::discover);
        }
    }

    /**
     * One discovery tick: the splits due by now at the configured rate, at most one second's worth
     * (a tick that came late catches up over the next ones instead of in one burst).
     */
    private void discover() {
        long rate = config.discoverySplitsPerSecond();
        synchronized (discoveryLock) {
            long due = (long) ((nanoClock.getAsLong() - discoveringSinceNanos) / 1e9 * rate);
            long n = Math.min(Math.min(due - discovered, rate), CURSOR_SPLIT - 1L - nextSplit);
            if (n <= 0) {
                return;
            }
            List<ManagedFakeSplit> found = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                found.add(new ManagedFakeSplit((int) nextSplit++, 0));
            }
            discovered += n;
            addSplits(found);
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        super.registerReader(subtaskId);
        if (!config.sourceEventRunId().isEmpty()) {
            context.sendEventToSourceReader(
                    subtaskId, new ManagedFakeEvent(config.sourceEventRunId(), subtaskId));
        }
    }

    @Override
    public ArrayList<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
        hooks.enumeratorSnapshot(checkpointId);
        synchronized (discoveryLock) {
            ArrayList<ManagedFakeSplit> state = super.snapshotState(checkpointId);
            if (config.discoverySplitsPerSecond() > 0) {
                state.add(new ManagedFakeSplit(CURSOR_SPLIT, nextSplit));
            }
            return state;
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        hooks.enumeratorCheckpointComplete(checkpointId);
    }

    @Override
    public void close() {
        if (discovery != null) {
            discovery.cancel();
        }
        if (managed != null) {
            managed.close();
        }
        super.close();
    }
}
