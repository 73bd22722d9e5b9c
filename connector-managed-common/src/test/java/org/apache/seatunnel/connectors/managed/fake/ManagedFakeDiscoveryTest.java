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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.junit.jupiter.api.Test;

/**
 * ManagedFake's split discovery ({@code discovery.splits.per.second}), driven by a hand-run
 * scheduler and clock: the rate, the per-tick cap, both lanes' hand-out, and the cursor that a
 * checkpoint carries.
 */
class ManagedFakeDiscoveryTest {

    /** A managed context whose scheduler keeps the periodic task for the test to run. */
    private static final class ManualContext implements ManagedEnumeratorContext<ManagedFakeSplit> {
        final int parallelism;
        final boolean demand;
        final Set<Integer> registered = new HashSet<>();
        final Map<Integer, List<ManagedFakeSplit>> assigned = new TreeMap<>();
        final List<Integer> available = new ArrayList<>();
        Runnable tick;
        Duration tickDelay;
        boolean closed;

        ManualContext(int parallelism, boolean demand) {
            this.parallelism = parallelism;
            this.demand = demand;
        }

        @Override
        public CoordinatorScheduler scheduler() {
            return new CoordinatorScheduler() {
                @Override
                public <T> Cancellable callAsync(
                        AsyncTaskKey key,
                        Callable<T> callable,
                        BiConsumer<T, Throwable> resultHandler,
                        AsyncTaskOptions options) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Cancellable scheduleInCoordinatorThread(
                        AsyncTaskKey key, Duration delay, Runnable task) {
                    tick = task;
                    tickDelay = delay;
                    return new Cancellable() {
                        @Override
                        public boolean cancel() {
                            tick = null;
                            return true;
                        }

                        @Override
                        public boolean isCancelled() {
                            return tick == null;
                        }
                    };
                }

                @Override
                public Cancellable scheduleOnceInCoordinatorThread(
                        AsyncTaskKey key, Duration delay, Runnable task) {
                    throw new UnsupportedOperationException();
                }
            };
        }

        @Override
        public boolean splitDemand() {
            return demand;
        }

        @Override
        public void splitsAvailable(int subtaskId) {
            available.add(subtaskId);
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Set<Integer> registeredReaders() {
            return new HashSet<>(registered);
        }

        @Override
        public void assignSplit(int subtaskId, List<ManagedFakeSplit> splits) {
            assigned.computeIfAbsent(subtaskId, k -> new ArrayList<>()).addAll(splits);
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            throw new AssertionError("an unbounded source never says no more splits");
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

        @Override
        public MetricsContext getMetricsContext() {
            return null;
        }

        @Override
        public EventListener getEventListener() {
            return event -> {};
        }
    }

    private long now;

    private ManagedFakeEnumerator open(
            ManualContext ctx, NumberedSplitState<ManagedFakeSplit> state) {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(2)
                        .bounded(false)
                        .discoverySplitsPerSecond(20)
                        .build();
        ManagedFakeEnumerator e =
                new ManagedFakeEnumerator(ctx, config, ManagedFakeHooks.NONE, state, () -> now);
        e.open();
        return e;
    }

    private static List<Integer> numbers(List<ManagedFakeSplit> splits) {
        List<Integer> n = new ArrayList<>();
        for (ManagedFakeSplit s : splits) {
            n.add(s.splitNumber());
        }
        return n;
    }

    @Test
    void laneBDiscoversAtTheRateAndAssignsARegisteredOwnerAtOnce() throws Exception {
        ManualContext ctx = new ManualContext(2, false);
        ManagedFakeEnumerator e = open(ctx, null);
        assertEquals(Duration.ofMillis(ManagedFakeEnumerator.DISCOVERY_TICK_MILLIS), ctx.tickDelay);
        ctx.registered.add(0);
        e.registerReader(0);
        assertEquals(Arrays.asList(0), numbers(ctx.assigned.get(0)));

        now += 250_000_000L; // a quarter second at 20/s: 5 splits due
        ctx.tick.run();
        assertEquals(Arrays.asList(0, 2, 4, 6), numbers(ctx.assigned.get(0)));
        NumberedSplitState<ManagedFakeSplit> state = e.snapshotState(1);
        assertEquals(7, state.count(), "2 at the start, 5 discovered");
        assertEquals(1, state.next(1), "the unregistered reader's splits 1, 3, 5 wait");
        assertEquals(3, state.remaining());

        now += 10_000_000_000L; // a late tick: one second's worth now, the rest later
        ctx.tick.run();
        assertEquals(4 + 10, ctx.assigned.get(0).size());
        ctx.tick.run();
        assertEquals(4 + 20, ctx.assigned.get(0).size());
        assertTrue(ctx.available.isEmpty(), "Lane B has no demand to re-arm");

        e.close();
        assertTrue(ctx.tick == null && ctx.closed, "close stops the discovery");
    }

    @Test
    void laneAKeepsDiscoveredSplitsUntilAskedAndTellsTheRuntimeTheirOwners() throws Exception {
        ManualContext ctx = new ManualContext(2, true);
        ManagedFakeEnumerator e = open(ctx, null);
        ctx.registered.add(0);
        ctx.registered.add(1);
        e.registerReader(0);
        e.registerReader(1);
        assertTrue(ctx.assigned.isEmpty(), "on demand nothing goes out unasked");

        now += 200_000_000L;
        ctx.tick.run();
        assertTrue(ctx.assigned.isEmpty());
        assertEquals(Arrays.asList(0, 1), ctx.available);

        e.handleSplitDemand(0, 2);
        assertEquals(Arrays.asList(0, 2), numbers(ctx.assigned.get(0)));
        e.handleSplitDemand(0, 10);
        assertEquals(Arrays.asList(0, 2, 4), numbers(ctx.assigned.get(0)));
    }

    @Test
    void theCursorTravelsInTheStateSoARestoreDiscoversOnWithoutGapOrRepeat() throws Exception {
        ManualContext ctx = new ManualContext(1, false);
        ManagedFakeEnumerator e = open(ctx, null);
        now += 150_000_000L; // 3 due: splits 2, 3, 4
        ctx.tick.run();
        NumberedSplitState<ManagedFakeSplit> state = e.snapshotState(1);
        assertEquals(5, state.count(), "the next split to discover is split 5");
        assertEquals(5, state.remaining(), "none handed out yet");

        ManualContext again = new ManualContext(1, false);
        ManagedFakeEnumerator restored = open(again, state);
        again.registered.add(0);
        restored.registerReader(0);
        assertEquals(Arrays.asList(0, 1, 2, 3, 4), numbers(again.assigned.get(0)));
        now += 100_000_000L;
        again.tick.run();
        assertEquals(Arrays.asList(0, 1, 2, 3, 4, 5, 6), numbers(again.assigned.get(0)));
    }

    @Test
    void withoutDiscoveryTheCountStays() throws Exception {
        ManagedFakeConfig config = ManagedFakeConfig.builder().splitCount(2).bounded(false).build();
        ManualContext ctx = new ManualContext(1, false);
        ManagedFakeEnumerator e = new ManagedFakeEnumerator(ctx, config, ManagedFakeHooks.NONE);
        e.open();
        assertTrue(ctx.tick == null);
        assertEquals(2, e.snapshotState(1).count());
        assertEquals(2, e.snapshotState(2).remaining());
    }

    @Test
    void discoveryNeedsAnUnboundedSource() {
        IllegalArgumentException x =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ManagedFakeConfig.builder().discoverySplitsPerSecond(5).build());
        assertTrue(x.getMessage().contains("bounded = false"), x.getMessage());
    }
}
