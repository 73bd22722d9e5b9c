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

package org.apache.seatunnel.engine.managed.source.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * The coordinator asks an enumerator that implements {@link SupportSplitDemand} for no more than a
 * reader can take: its free credit times the splits one command carries, capped by the tracker's
 * room; it holds a demand while the tracker is full and asks again when entries leave it.
 */
class SplitDemandTest {

    /** Hands out at most what it is asked for; no-more-splits once nothing is left. */
    static final class DemandEnumerator
            implements SourceSplitEnumerator<TestSplit, TestEnumerator.State>, SupportSplitDemand {
        final Context<TestSplit> context;
        final List<TestSplit> pending = new ArrayList<>();
        final List<String> demands = new ArrayList<>();
        boolean answer = true;

        DemandEnumerator(Context<TestSplit> context, List<TestSplit> splits) {
            this.context = context;
            this.pending.addAll(splits);
        }

        @Override
        public void handleSplitDemand(int subtaskId, int maxSplits) {
            demands.add(subtaskId + ":" + maxSplits);
            if (!answer) {
                return;
            }
            List<TestSplit> out = new ArrayList<>();
            while (out.size() < maxSplits && !pending.isEmpty()) {
                out.add(pending.remove(0));
            }
            if (!out.isEmpty()) {
                context.assignSplit(subtaskId, out);
            }
            if (pending.isEmpty()) {
                context.signalNoMoreSplits(subtaskId);
            }
        }

        @Override
        public void open() {}

        @Override
        public void run() {}

        @Override
        public void close() {}

        @Override
        public void addSplitsBack(List<TestSplit> splits, int subtaskId) {
            pending.addAll(splits);
        }

        @Override
        public int currentUnassignedSplitSize() {
            return pending.size();
        }

        @Override
        public void handleSplitRequest(int subtaskId) {}

        @Override
        public void registerReader(int subtaskId) {}

        @Override
        public TestEnumerator.State snapshotState(long checkpointId) {
            return new TestEnumerator.State(true, new ArrayList<>(pending));
        }

        @Override
        public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    private DemandEnumerator enumerator;

    private LoopFixture fixture(CoordinatorConfig config, int splits) {
        EnumeratorFactory<TestSplit, TestEnumerator.State> factory =
                new EnumeratorFactory<TestSplit, TestEnumerator.State>() {
                    @Override
                    public SourceSplitEnumerator<TestSplit, TestEnumerator.State> create(
                            SourceSplitEnumerator.Context<TestSplit> context) {
                        enumerator = new DemandEnumerator(context, LoopFixture.splits(splits));
                        return enumerator;
                    }

                    @Override
                    public SourceSplitEnumerator<TestSplit, TestEnumerator.State> restore(
                            SourceSplitEnumerator.Context<TestSplit> context,
                            TestEnumerator.State state) {
                        enumerator = new DemandEnumerator(context, state.pending);
                        return enumerator;
                    }
                };
        LoopFixture f = new LoopFixture(config, factory, List.of(), false, null, null);
        f.dispatcher.responder = RecordingDispatcher::accept;
        f.loop.open();
        f.drain();
        return f;
    }

    private static List<Integer> splitsPerCommand(LoopFixture f) {
        List<Integer> n = new ArrayList<>();
        for (SourceCommandEnvelope e : f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT)) {
            n.add(AssignmentPayload.decode(e.payload()).size());
        }
        return n;
    }

    @Test
    void aReaderIsAskedForItsFreeCreditTimesTheSplitsOneCommandCarries() {
        LoopFixture f =
                fixture(
                        LoopFixture.config(1)
                                .maxSplitsPerCommand(3)
                                .checkpointsEnabled(false)
                                .build(),
                        100);
        f.loop.registerReader(0, 1, 2, 1L << 20);
        f.drain();
        assertEquals(Arrays.asList("0:6"), enumerator.demands);
        assertEquals(Arrays.asList(3, 3), splitsPerCommand(f));
        assertEquals(1, f.count(Counter.SPLIT_DEMANDS));

        // One command applied: one command's worth of credit comes back, and only that is asked.
        f.loop.assignmentApplied(0, 1, 1);
        f.drain();
        assertEquals(Arrays.asList("0:6", "0:3"), enumerator.demands);
        assertEquals(Arrays.asList(3, 3, 3), splitsPerCommand(f));
    }

    @Test
    void aFullTrackerHoldsTheDemandUntilEntriesLeaveIt() {
        LoopFixture f =
                fixture(
                        LoopFixture.config(1)
                                .maxTrackerEntries(4)
                                .maxSplitsPerCommand(1)
                                .checkpointsEnabled(false)
                                .build(),
                        100);
        f.loop.registerReader(0, 1, 10, 1L << 20);
        f.drain();
        assertEquals(Arrays.asList("0:4"), enumerator.demands, "capped by the tracker's room");
        assertEquals(4, f.loop.tracker().entries().size());
        // Credit is left, the tracker is full: nothing is asked, once counted.
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        assertEquals(1, enumerator.demands.size());
        assertEquals(1, f.count(Counter.SPLIT_DEMANDS_HELD));

        // Without checkpoints an applied assignment leaves the tracker: room for two.
        f.loop.assignmentApplied(0, 1, 2);
        f.drain();
        assertEquals(Arrays.asList("0:4", "0:2"), enumerator.demands);
        assertEquals(4, f.loop.tracker().entries().size());
        assertTrue(f.failures.isEmpty(), f.failures.toString());
    }

    @Test
    void anUnansweredDemandIsRepeatedOnlyWhenTheReaderAsksOrSplitsComeBack() {
        LoopFixture f = fixture(LoopFixture.config(1).checkpointsEnabled(false).build(), 10);
        enumerator.answer = false;
        f.loop.registerReader(0, 1);
        f.drain();
        assertEquals(1, enumerator.demands.size(), enumerator.demands.toString());
        assertEquals(1, f.count(Counter.SPLIT_DEMANDS_UNANSWERED));
        // Commands that change nothing for the reader do not ask again.
        f.loop.snapshot(1);
        f.loop.notifyCheckpointComplete(1);
        f.drain();
        assertEquals(1, enumerator.demands.size(), enumerator.demands.toString());

        // The reader's own split request re-arms its demand.
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        assertEquals(2, enumerator.demands.size(), enumerator.demands.toString());
        assertEquals(2, f.count(Counter.SPLIT_DEMANDS_UNANSWERED));

        // So do splits handed back, for every reader.
        enumerator.answer = true;
        f.loop.addSplitsBack(List.of(TestSplit.of("back")), 0);
        f.drain();
        assertEquals(3, enumerator.demands.size(), enumerator.demands.toString());
        assertEquals(11, f.dispatcher.splitsAssigned());
        assertEquals(1, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size());
    }

    @Test
    void aReaderThatCountsItsSplitsIsSentNoMoreThanItsSplitWindow() {
        LoopFixture f =
                fixture(
                        LoopFixture.config(1)
                                .maxSplitsPerCommand(4)
                                .checkpointsEnabled(false)
                                .build(),
                        100);
        f.loop.registerReader(0, 1, 1024, 1L << 20, 10);
        f.drain();
        assertEquals(Arrays.asList("0:10"), enumerator.demands, "capped by the split window");
        assertEquals(Arrays.asList(4, 4, 2), splitsPerCommand(f));

        // Applied, and 10 unread: credit is back but the window is still full.
        f.loop.assignmentApplied(0, 1, 3, 10);
        f.drain();
        assertEquals(1, enumerator.demands.size(), enumerator.demands.toString());
        assertEquals(1, f.count(Counter.SPLIT_WINDOW_WAITS));

        // The reader read down to its low mark: exactly the room it reported is asked for.
        f.loop.assignmentApplied(0, 1, 3, 5);
        f.drain();
        assertEquals(Arrays.asList("0:10", "0:5"), enumerator.demands);
        assertEquals(15, f.dispatcher.splitsAssigned());

        // Splits an enumerator assigns on its own beyond the window wait in the coordinator.
        List<TestSplit> found = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            found.add(TestSplit.of("found-" + i));
        }
        enumerator.context.assignSplit(0, found);
        f.drain();
        assertEquals(20, f.loop.tracker().pendingCount());
        assertEquals(15, f.dispatcher.splitsAssigned(), "the window is full again");
        f.loop.assignmentApplied(0, 1, 5, 0);
        f.drain();
        assertEquals(25, f.dispatcher.splitsAssigned(), "a window's worth, no more");
        assertTrue(f.failures.isEmpty(), f.failures.toString());
    }

    @Test
    void aReaderThatDoesNotCountIsNotHeldToASplitWindow() {
        LoopFixture f =
                fixture(
                        LoopFixture.config(1)
                                .maxSplitsPerCommand(4)
                                .checkpointsEnabled(false)
                                .build(),
                        100);
        f.loop.registerReader(0, 1, 3, 1L << 20, 0);
        f.drain();
        assertEquals(Arrays.asList("0:12"), enumerator.demands, "credit only");
        f.loop.assignmentApplied(0, 1, 3, -1);
        f.drain();
        assertEquals(24, f.dispatcher.splitsAssigned());
        assertEquals(0, f.count(Counter.SPLIT_WINDOW_WAITS));
    }
}
