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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.junit.jupiter.api.Test;

/**
 * The discovering-enumerator base on a hand-run scheduler: ordering of registration, discovery and
 * handed-back splits, no split out twice, no-more-splits only when true (the context checks these
 * three on every call), restore from a snapshot taken at every step of a seeded schedule, the
 * pending bound and the failure paths.
 */
class DiscoveringSplitEnumeratorTest {

    static final class NumberSplitSerializer extends VersionedSerializer<NumberSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, NumberSplit s) throws IOException {
            out.writeInt(s.n);
        }

        @Override
        protected NumberSplit read(DataInputStream in, int version) throws IOException {
            return new NumberSplit(in.readInt());
        }
    }

    static final DiscoveryStateSerializer<NumberSplit, Long> STATE =
            new DiscoveryStateSerializer<>(
                    new NumberSplitSerializer(), new DiscoveryStateSerializer.LongCursor());

    private static DiscoveryConfig periodic(int maxPending) {
        return DiscoveryConfig.builder().interval(200).maxPendingSplits(maxPending).build();
    }

    private static NumberDiscovery open(
            ManualDiscoveryContext ctx,
            DiscoveryState<NumberSplit, Long> state,
            DiscoveryConfig config,
            int first,
            int step,
            int total) {
        NumberDiscovery e = new NumberDiscovery(ctx, state, config, first, step, total);
        ctx.enumerator = e;
        e.open();
        return e;
    }

    private static void register(ManualDiscoveryContext ctx, NumberDiscovery e, int subtask) {
        ctx.registered(subtask);
        e.registerReader(subtask);
    }

    private static List<Integer> numbers(List<NumberSplit> splits) {
        List<Integer> out = new ArrayList<>();
        for (NumberSplit s : splits) {
            out.add(s.n);
        }
        return out;
    }

    @Test
    void laneAHandsOutAtMostWhatIsAskedAndSignalsOnlyOnceDiscoveryIsFinished() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(2, true);
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), periodic(100), 4, 2, 8);
        register(ctx, e, 0);
        register(ctx, e, 1);
        e.run();
        assertEquals(1, ctx.calls.size(), "the first discovery starts at run()");
        assertSame(
                AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR,
                ctx.issued.get(0).failurePolicy(),
                "the first discovery failing fails the job");
        e.handleSplitDemand(0, 5);
        assertTrue(ctx.held.isEmpty() && ctx.noMoreSignals.isEmpty(), "nothing found yet");

        ctx.runDiscovery();
        assertEquals(Arrays.asList(0, 1), ctx.available, "both owners are told");
        e.handleSplitDemand(0, 1);
        assertEquals(Arrays.asList(0), ctx.assignedOrder.get(0), "at most what is asked");
        e.handleSplitDemand(0, 5);
        assertEquals(Arrays.asList(0, 2), ctx.assignedOrder.get(0));
        assertTrue(ctx.noMoreSignals.isEmpty(), "discovery is not finished");

        assertEquals(Duration.ofMillis(200), ctx.onceDelay);
        ctx.tick();
        assertSame(
                AsyncTaskOptions.FailurePolicy.DELIVER_TO_HANDLER,
                ctx.issued.get(1).failurePolicy());
        ctx.runDiscovery(); // 4, 5
        ctx.tick();
        ctx.runDiscovery(); // 6, 7: finished
        assertNull(ctx.once, "no discovery after the last");
        assertTrue(ctx.noMoreSignals.isEmpty(), "splits still wait for both readers");
        e.handleSplitDemand(1, 10);
        assertEquals(Arrays.asList(1, 3, 5, 7), ctx.assignedOrder.get(1));
        assertEquals(Arrays.asList(1), ctx.noMoreSignals);
        e.handleSplitDemand(0, 10);
        assertEquals(Arrays.asList(0, 2, 4, 6), ctx.assignedOrder.get(0));
        assertEquals(Arrays.asList(1, 0), ctx.noMoreSignals);
        assertEquals(0, e.overlaps.get());
    }

    @Test
    void laneBAssignsARegisteredReaderEverythingAtOnceAndAtRegistration() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(2, false);
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), periodic(100), 4, 2, 6);
        register(ctx, e, 1);
        e.run();
        ctx.runDiscovery();
        assertEquals(Arrays.asList(1, 3), ctx.assignedOrder.get(1), "registered: at discovery");
        assertNull(ctx.assignedOrder.get(0), "unregistered: waits");
        assertEquals(Arrays.asList(0, 2), numbers(e.snapshotState(1).pending()));
        register(ctx, e, 0);
        assertEquals(Arrays.asList(0, 2), ctx.assignedOrder.get(0), "at registration");
        ctx.tick();
        ctx.runDiscovery();
        assertEquals(Arrays.asList(0, 2, 4), ctx.assignedOrder.get(0));
        assertEquals(Arrays.asList(1, 3, 5), ctx.assignedOrder.get(1));
        assertEquals(new TreeSet<>(Arrays.asList(0, 1)), new TreeSet<>(ctx.noMoreSignals));
        assertTrue(ctx.available.isEmpty(), "Lane B has no demand to re-arm");
    }

    @Test
    void splitsHandedBackWaitForTheirOwnerToRegisterAgainAndGoOutFirst() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(2, false);
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), periodic(100), 4, 2, 8);
        register(ctx, e, 0);
        e.run();
        ctx.runDiscovery();
        ctx.tick();
        ctx.runDiscovery();
        ctx.tick();
        ctx.runDiscovery();
        ctx.tick();
        ctx.runDiscovery(); // all 8 found; reader 0 holds 0 2 4 6 and was told no more
        assertEquals(Arrays.asList(0), ctx.noMoreSignals);
        List<NumberSplit> back = ctx.takeBack(0);
        e.addSplitsBack(back, 0);
        assertTrue(
                ctx.held.get(0) == null, "a reader told no more gets nothing until it registers");
        register(ctx, e, 0);
        assertEquals(Arrays.asList(0, 2, 4, 6), new ArrayList<>(ctx.held.get(0)));
        assertEquals(Arrays.asList(0, 0), ctx.noMoreSignals, "told again after registering anew");

        // Handed back before the owner registered at all: kept, then out first.
        ManualDiscoveryContext ctx2 = new ManualDiscoveryContext(2, true);
        NumberDiscovery e2 = open(ctx2, DiscoveryState.initial(0L), periodic(100), 4, 2, 8);
        e2.run();
        ctx2.runDiscovery(); // 0..3 pending
        e2.addSplitsBack(Arrays.asList(new NumberSplit(6)), 1); // owner is 0, not 1
        register(ctx2, e2, 0);
        e2.handleSplitDemand(0, 2);
        assertEquals(Arrays.asList(6, 0), ctx2.assignedOrder.get(0), "the handed back one first");
        assertEquals(0, e2.overlaps.get());
    }

    @Test
    void discoveryPausesAtThePendingBoundAndResumesWhenReadersTakeSplits() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(1, true);
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), periodic(5), 3, 3, 100);
        register(ctx, e, 0);
        e.run();
        ctx.runDiscovery(); // 3 pending
        ctx.tick();
        ctx.runDiscovery(); // budget 2: 5 pending, the bound
        assertEquals(Arrays.asList(5, 2), e.budgets, "each discovery asks for the room left");
        assertEquals(5, e.currentUnassignedSplitSize());
        assertTrue(ctx.tick(), "the next one is scheduled");
        assertTrue(ctx.calls.isEmpty(), "at the bound no discovery starts");
        assertFalse(ctx.tick(), "and none is scheduled while paused");
        e.handleSplitDemand(0, 1);
        assertEquals(1, ctx.calls.size(), "a reader taking splits resumes discovery");
        ctx.runDiscovery();
        assertEquals(Arrays.asList(5, 2, 1), e.budgets);
        assertEquals(5, e.currentUnassignedSplitSize(), "never above the bound");
        assertEquals(1, ctx.metrics.value(DiscoveryMetrics.PAUSES), "one pause at the bound");
        assertEquals(5, ctx.metrics.value(DiscoveryMetrics.PENDING));
        assertEquals(3, ctx.metrics.value(DiscoveryMetrics.RUNS));
        assertEquals(6, ctx.metrics.value(DiscoveryMetrics.DISCOVERED));
    }

    @Test
    void onDemandDiscoversWhenAReaderHasNothingWaiting() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(1, true);
        DiscoveryConfig config =
                DiscoveryConfig.builder().interval(DiscoveryConfig.ON_DEMAND).build();
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), config, 2, 2, 6);
        register(ctx, e, 0);
        e.run();
        ctx.runDiscovery();
        assertNull(ctx.once, "no timer on demand");
        e.handleSplitDemand(0, 1);
        assertTrue(ctx.calls.isEmpty(), "split 1 still waits");
        e.handleSplitDemand(0, 1);
        assertEquals(1, ctx.calls.size(), "its queue ran dry: discover");
        ctx.runDiscovery();
        e.handleSplitDemand(0, 5);
        ctx.runDiscovery();
        e.handleSplitDemand(0, 5);
        assertEquals(Arrays.asList(0, 1, 2, 3, 4, 5), ctx.assignedOrder.get(0));
        assertEquals(Arrays.asList(0), ctx.noMoreSignals);
    }

    @Test
    void theFirstDiscoveryFailingFailsTheJobWithItsCause() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(1, true);
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), periodic(5), 2, 2, 6);
        e.failNext = new IOException("bucket does not exist");
        e.run();
        ctx.runDiscovery();
        assertEquals(1, ctx.failedCoordinator.size(), "Lane A: FAIL_COORDINATOR");
        assertEquals("bucket does not exist", ctx.failedCoordinator.get(0).getMessage());

        // Where the failure reaches the enumerator (Lane B's scheduler delivers it): no retry,
        // and the enumerator's checkpoint fails with the cause.
        ManualDiscoveryContext b = new ManualDiscoveryContext(1, false);
        NumberDiscovery eb = open(b, DiscoveryState.initial(0L), periodic(5), 2, 2, 6);
        eb.run();
        IOException cause = new IOException("bucket does not exist");
        b.calls.peekFirst().handler.accept(null, cause);
        b.calls.clear();
        assertNull(b.once, "no retry after the first failed");
        IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> eb.snapshotState(1));
        assertSame(cause, thrown.getCause());
    }

    @Test
    void laterFailuresAreRetriedAtTheNextIntervalUpToTheBound() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(1, true);
        DiscoveryConfig config =
                DiscoveryConfig.builder().interval(200).maxConsecutiveFailures(3).build();
        NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), config, 2, 2, 10);
        e.run();
        ctx.runDiscovery();
        ctx.tick();
        ctx.failDiscovery(new TimeoutException("took too long"));
        assertNotNull(ctx.once, "retried at the next interval");
        ctx.tick();
        ctx.runDiscovery(); // a success resets the count
        ctx.tick();
        ctx.failDiscovery(new IOException("1"));
        ctx.tick();
        ctx.failDiscovery(new IOException("2"));
        assertTrue(ctx.failedCoordinator.isEmpty());
        ctx.tick();
        assertSame(
                AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR,
                ctx.issued.get(ctx.issued.size() - 1).failurePolicy(),
                "the last try allowed fails the job if it fails");
        ctx.failDiscovery(new IOException("3"));
        assertEquals(1, ctx.failedCoordinator.size());
        assertEquals(
                3,
                ctx.metrics.value(DiscoveryMetrics.FAILURES),
                "the timeout, 1 and 2; the runtime fails the coordinator with the last");
        assertEquals(4, numbers(e.snapshotState(1).pending()).size(), "found splits are kept");

        // Where no coordinator can fail (Lane B), the enumerator's next checkpoint fails instead.
        ManualDiscoveryContext b = new ManualDiscoveryContext(1, false);
        b.stockScheduler = true;
        NumberDiscovery eb = open(b, DiscoveryState.initial(0L), config, 2, 2, 10);
        eb.run();
        b.runDiscovery();
        IOException last = new IOException("still down");
        for (int i = 0; i < 3; i++) {
            b.tick();
            b.failDiscovery(i < 2 ? new IOException("down") : last);
        }
        assertNull(b.once, "no retry past the bound");
        IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> eb.snapshotState(2));
        assertSame(last, thrown.getCause());
    }

    @Test
    void aRestoredFinishedDiscoveryTellsReadersOnlyOnceTheirSplitsAreOut() throws Exception {
        ManualDiscoveryContext ctx = new ManualDiscoveryContext(2, true);
        DiscoveryState<NumberSplit, Long> state =
                new DiscoveryState<>(8L, true, Arrays.asList(new NumberSplit(5)));
        NumberDiscovery e =
                open(ctx, STATE.deserialize(STATE.serialize(state)), periodic(9), 4, 2, 8);
        register(ctx, e, 0);
        register(ctx, e, 1);
        e.run();
        assertTrue(ctx.calls.isEmpty(), "finished: no discovery after restore");
        assertEquals(Arrays.asList(0), ctx.noMoreSignals, "reader 0 has nothing waiting");
        e.handleSplitDemand(1, 1);
        assertEquals(Arrays.asList(0, 1), ctx.noMoreSignals);
    }

    /**
     * A seeded random schedule of registrations, demands, discoveries, ticks and reader failures;
     * at every step the state is checkpointed (through the serializer) with what the readers hold,
     * and every checkpoint is restored into a fresh enumerator and run to its end: each split must
     * be handed out exactly once after the restore, counting the ones the readers' state hands
     * back.
     */
    @Test
    void everySnapshotOfASeededScheduleRestoresToExactlyOnce() throws Exception {
        long seed = Long.getLong("discovery.seed", System.nanoTime());
        System.out.println("DiscoveringSplitEnumeratorTest seed: " + seed);
        for (int round = 0; round < 20; round++) {
            Random random = new Random(seed + round);
            boolean demand = random.nextBoolean();
            int parallelism = 1 + random.nextInt(3);
            int total = 5 + random.nextInt(20);
            DiscoveryConfig config =
                    DiscoveryConfig.builder()
                            .interval(random.nextBoolean() ? 100 : DiscoveryConfig.ON_DEMAND)
                            .maxPendingSplits(1 + random.nextInt(8))
                            .build();
            String where = "seed " + (seed + round) + " (round " + round + ")";
            ManualDiscoveryContext ctx = new ManualDiscoveryContext(parallelism, demand);
            NumberDiscovery e = open(ctx, DiscoveryState.initial(0L), config, 3, 2, total);
            List<byte[]> states = new ArrayList<>();
            List<Map<Integer, Set<Integer>>> helds = new ArrayList<>();
            boolean ran = false;
            for (int step = 0; step < 60; step++) {
                int subtask = random.nextInt(parallelism);
                switch (random.nextInt(ran ? 6 : 7)) {
                    case 0:
                        register(ctx, e, subtask);
                        break;
                    case 1:
                        if (demand) {
                            e.handleSplitDemand(subtask, 1 + random.nextInt(3));
                        } else {
                            e.handleSplitRequest(subtask);
                        }
                        break;
                    case 2:
                        ctx.runDiscovery();
                        break;
                    case 3:
                        ctx.tick();
                        break;
                    case 4:
                        e.addSplitsBack(ctx.takeBack(subtask), subtask);
                        break;
                    case 5:
                        states.add(STATE.serialize(e.snapshotState(step)));
                        helds.add(copy(ctx.held));
                        break;
                    default:
                        e.run();
                        ran = true;
                }
                states.add(STATE.serialize(e.snapshotState(step)));
                helds.add(copy(ctx.held));
            }
            if (!ran) {
                e.run();
            }
            drain(ctx, e, parallelism, total, where + " original run");
            for (int i = 0; i < states.size(); i++) {
                ManualDiscoveryContext r = new ManualDiscoveryContext(parallelism, demand);
                NumberDiscovery restored =
                        open(r, STATE.deserialize(states.get(i)), config, 3, 2, total);
                for (Map.Entry<Integer, Set<Integer>> h : helds.get(i).entrySet()) {
                    List<NumberSplit> back = new ArrayList<>();
                    for (int n : h.getValue()) {
                        back.add(new NumberSplit(n));
                    }
                    restored.addSplitsBack(back, h.getKey());
                }
                restored.run();
                drain(r, restored, parallelism, total, where + " restored at checkpoint " + i);
            }
        }
    }

    private static Map<Integer, Set<Integer>> copy(Map<Integer, Set<Integer>> held) {
        Map<Integer, Set<Integer>> out = new TreeMap<>();
        for (Map.Entry<Integer, Set<Integer>> e : held.entrySet()) {
            out.put(e.getKey(), new TreeSet<>(e.getValue()));
        }
        return out;
    }

    /** Registers every reader and runs discoveries and demands until every reader is told. */
    private static void drain(
            ManualDiscoveryContext ctx, NumberDiscovery e, int parallelism, int total, String where)
            throws Exception {
        int heldBefore = ctx.allHeld().size();
        ctx.assignedOrder.clear();
        for (int s = 0; s < parallelism; s++) {
            register(ctx, e, s);
        }
        for (int guard = 0; guard < 10_000 && ctx.told.size() < parallelism; guard++) {
            if (!ctx.runDiscovery() && !ctx.tick()) {
                for (int s = 0; s < parallelism; s++) {
                    if (ctx.demand) {
                        e.handleSplitDemand(s, 2);
                    } else {
                        e.handleSplitRequest(s);
                    }
                }
            }
        }
        Set<Integer> expected = new TreeSet<>();
        for (int n = 0; n < total; n++) {
            expected.add(n);
        }
        assertEquals(expected, ctx.allHeld(), where + ": every split exactly once");
        int handedOut = 0;
        for (List<Integer> l : ctx.assignedOrder.values()) {
            handedOut += l.size();
        }
        assertEquals(total - heldBefore, handedOut, where + ": no split twice");
        assertEquals(parallelism, ctx.told.size(), where + ": every reader told");
        assertTrue(e.snapshotState(0).pending().isEmpty(), where);
        assertEquals(0, e.overlaps.get(), where);
        for (int budget : e.budgets) {
            assertTrue(budget >= 1 && budget <= 8, where + ": budget " + budget);
        }
    }
}
