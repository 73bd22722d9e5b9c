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
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;

/**
 * ManagedFake's enumerator: split {@code n} (offset 0 when first handed out) goes to subtask {@code
 * n % parallelism}, computed when that reader has room for it (Lane A) or registers (Lane B); the
 * checkpointed state is a cursor per reader and the splits given back with their offsets ({@link
 * NumberedSplitState}), so a million splits cost a few hundred bytes. With {@code
 * source.event.run.id} it sends each registering reader a {@link ManagedFakeEvent}, which the stock
 * engine drops and Lane A delivers. With {@code discovery.splits.per.second} it discovers new
 * splits, numbered on from {@code split.count}, every {@value #DISCOVERY_TICK_MILLIS} ms on the
 * coordinator scheduler (both lanes); the split count travels in the state, so a restore discovers
 * no split twice and none never.
 *
 * <p>Threading: as {@link NumberedSplitEnumerator}; the hooks run outside its monitor, so a held
 * snapshot never blocks an assignment. The discovery pace is guarded by {@code discoveryLock},
 * which only discovery ticks take.
 */
public final class ManagedFakeEnumerator extends NumberedSplitEnumerator<ManagedFakeSplit> {
    /** Split numbers are ints; discovery stops below this one, kept free for older states. */
    static final int CURSOR_SPLIT = Integer.MAX_VALUE;

    static final long DISCOVERY_TICK_MILLIS = 100;
    private static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("discover-splits");

    private final ManagedFakeConfig config;
    private final ManagedFakeHooks hooks;
    private final LongSupplier nanoClock;
    private final Object discoveryLock = new Object();
    // guarded by discoveryLock: splits this instance discovered, and since when it discovers
    private long discovered;
    private long discoveringSinceNanos;
    private ManagedEnumeratorContext<ManagedFakeSplit> managed;
    private Cancellable discovery;

    /** A fresh job's enumerator of {@code split.count} splits. */
    public ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context, ManagedFakeConfig config, ManagedFakeHooks hooks) {
        this(context, config, hooks, null, System::nanoTime);
    }

    /** An enumerator restored from {@code state}. */
    public ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            NumberedSplitState<ManagedFakeSplit> state) {
        this(context, config, hooks, state, System::nanoTime);
    }

    /**
     * As above (fresh when {@code state} is null), discovering at the pace of {@code nanoClock}.
     */
    ManagedFakeEnumerator(
            Context<ManagedFakeSplit> context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            NumberedSplitState<ManagedFakeSplit> state,
            LongSupplier nanoClock) {
        super(
                context,
                state == null
                        ? NumberedSplitState.start(
                                config.splitCount(), Math.max(1, context.currentParallelism()))
                        : state,
                config.bounded());
        this.config = config;
        this.hooks = hooks;
        this.nanoClock = nanoClock;
    }

    /** The subtask that owns split {@code n}: {@code n % parallelism}. */
    public static int owner(int splitNumber, int parallelism) {
        return splitNumber % Math.max(1, parallelism);
    }

    @Override
    protected ManagedFakeSplit split(long number) {
        return new ManagedFakeSplit((int) number, 0);
    }

    @Override
    protected long number(ManagedFakeSplit split) {
        return split.splitNumber();
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
            long count = count();
            long n = Math.min(Math.min(due - discovered, rate), CURSOR_SPLIT - count);
            if (n <= 0) {
                return;
            }
            discovered += n;
            extendTo(count + n);
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
    public NumberedSplitState<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
        hooks.enumeratorSnapshot(checkpointId);
        return super.snapshotState(checkpointId);
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
