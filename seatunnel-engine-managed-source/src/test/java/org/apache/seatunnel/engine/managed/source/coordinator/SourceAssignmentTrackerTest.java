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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** Ownership life cycle, durability rule and bounds of the tracker, through the loop. */
class SourceAssignmentTrackerTest {

    private static LoopFixture running(CoordinatorConfig config, int splits, int readers) {
        LoopFixture f = new LoopFixture(config, LoopFixture.splits(splits), false, null);
        f.loop.open();
        for (int r = 0; r < readers; r++) {
            f.loop.registerReader(r, 1);
        }
        f.drain();
        return f;
    }

    private static ReaderInclusionReport report(int subtask, long checkpoint, long epoch, long w) {
        return ReaderInclusionReport.builder(
                        ReaderInclusionReport.Kind.CHECKPOINT, subtask, 1, checkpoint)
                .watermark(epoch, w)
                .build();
    }

    @Test
    void applyAckIsFlowControlOnlyAndGcNeedsInclusionAndCompletion() {
        LoopFixture f = running(LoopFixture.config(1).build(), 2, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        SourceCommandEnvelope cmd = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).get(0);
        f.dispatcher.acceptAll();
        f.loop.assignmentApplied(0, 1, cmd.senderSequence());
        f.loop.snapshot(1);
        f.loop.notifyCheckpointComplete(1);
        f.drain();
        AssignmentEntry e = f.loop.tracker().bySplit("s0");
        assertEquals(AssignmentState.APPLIED, e.state(), "ack and a completed checkpoint: kept");
        f.loop.reportInclusion(report(0, 2, 1, 1));
        f.drain();
        e = f.loop.tracker().bySplit("s0");
        assertEquals(AssignmentState.CHECKPOINT_INCLUDED, e.state(), "checkpoint 2 not complete");
        assertEquals(2, e.includedCheckpointId());
        f.loop.notifyCheckpointComplete(2);
        f.drain();
        assertNull(f.loop.tracker().bySplit("s0"));
        assertEquals(1, f.count(Counter.ASSIGNMENTS_GC));
    }

    @Test
    void inclusionAfterCompletionCollectsAtOnceAndGapsAreNotProof() {
        LoopFixture f = running(LoopFixture.config(1).build(), 3, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.notifyCheckpointComplete(5);
        f.drain();
        f.loop.reportInclusion(
                ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, 0, 1, 5)
                        .watermark(1, 3, 2)
                        .build());
        f.drain();
        assertNull(f.loop.tracker().bySplit("s0"));
        assertEquals(AssignmentState.DISPATCHED, f.loop.tracker().bySplit("s1").state(), "a gap");
        assertNull(f.loop.tracker().bySplit("s2"));
    }

    @Test
    void reportOfAnotherAttemptIsFenced() {
        LoopFixture f = running(LoopFixture.config(1).build(), 1, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.reportInclusion(
                ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, 0, 9, 1)
                        .watermark(1, 5)
                        .build());
        f.drain();
        assertEquals(AssignmentState.DISPATCHED, f.loop.tracker().bySplit("s0").state());
        assertEquals(1, f.count(Counter.INCLUSION_REPORTS_FENCED));
    }

    @Test
    void duplicateAndLateAcksChangeNothing() {
        LoopFixture f = running(LoopFixture.config(1).build(), 1, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        SourceCommandEnvelope cmd = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).get(0);
        f.loop.assignmentApplied(0, 1, cmd.senderSequence()); // apply ack overtakes admission
        f.drain();
        f.dispatcher.acceptAll(); // the late admission: a duplicate
        f.loop.assignmentApplied(0, 1, cmd.senderSequence()); // the same watermark again
        f.loop.assignmentApplied(0, 2, cmd.senderSequence()); // another attempt's
        f.drain();
        assertEquals(AssignmentState.APPLIED, f.loop.tracker().bySplit("s0").state());
        assertEquals(1, f.count(Counter.ASSIGNMENT_DUPLICATE_ACKS));
        assertEquals(1, f.count(Counter.ASSIGNMENT_FENCED_ACKS));
    }

    @Test
    void atTheEntryBoundNewAssignmentIsBackPressuredNeverDropped() {
        LoopFixture f = running(LoopFixture.config(1).maxTrackerEntries(2).build(), 5, 1);
        for (int i = 0; i < 5; i++) {
            f.loop.handleSplitRequest(0, 1);
        }
        f.drain();
        SourceAssignmentTracker t = f.loop.tracker();
        assertEquals(2, t.inFlightCount());
        assertEquals(3, t.pendingCount());
        assertEquals(2, f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size());
        assertTrue(f.count(Counter.ASSIGNMENT_BACKPRESSURED) >= 1);
        long w = 0;
        for (long cp = 1; t.size() > 0; cp++) {
            w = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size();
            f.loop.reportInclusion(report(0, cp, 1, w));
            f.loop.notifyCheckpointComplete(cp);
            f.drain();
            assertTrue(t.inFlightCount() <= 2);
        }
        assertEquals(5, f.dispatcher.splitsAssigned(), "all five delivered");
        assertEquals(5, f.count(Counter.ASSIGNMENTS_GC));
    }

    @Test
    void theByteBoundBackPressuresTooButAlwaysAdmitsOne() {
        long oneEntry = SourceAssignmentTracker.estimateBytes("s0", 12);
        LoopFixture f = running(LoopFixture.config(1).maxTrackerBytes(oneEntry + 10).build(), 3, 1);
        for (int i = 0; i < 3; i++) {
            f.loop.handleSplitRequest(0, 1);
        }
        f.drain();
        assertEquals(1, f.loop.tracker().inFlightCount());
        assertEquals(2, f.loop.tracker().pendingCount());
        SourceAssignmentTracker tiny =
                new SourceAssignmentTracker(10, 1, true, new CoordinatorMetrics());
        tiny.addPending("big", new byte[100], 0);
        tiny.addPending("next", new byte[1], 0);
        assertEquals(
                1,
                tiny.dispatchable(0, 64, Long.MAX_VALUE),
                "an empty tracker never deadlocks on one big split, and takes only that one");
    }

    @Test
    void withoutCheckpointsTheApplyAckCollects() {
        LoopFixture f = running(LoopFixture.config(1).checkpointsEnabled(false).build(), 1, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        SourceCommandEnvelope cmd = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).get(0);
        f.loop.assignmentApplied(0, 1, cmd.senderSequence());
        f.drain();
        assertEquals(0, f.loop.tracker().size());
    }

    @Test
    void aSplitCannotBeTrackedTwice() {
        SourceAssignmentTracker t =
                new SourceAssignmentTracker(10, 1 << 20, true, new CoordinatorMetrics());
        t.addPending("x", new byte[1], 0);
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> t.addPending("x", new byte[1], 1));
        assertTrue(!e.getMessage().contains("\"x\""), "no split id in messages");
        assertEquals(
                List.of(0),
                List.copyOf(new java.util.TreeSet<>(List.of(t.subtasksWithPending()[0]))));
    }

    @Test
    void aBatchIsRecordedAsOneByOneAndStopsAtTheFirstSplitTrackedTwice() {
        SourceAssignmentTracker t =
                new SourceAssignmentTracker(10, 1 << 20, true, new CoordinatorMetrics());
        t.addPending("x", new byte[1], 0);
        List<String> ids = new java.util.ArrayList<>();
        List<byte[]> bytes = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ids.add("s" + i);
            bytes.add(new byte[] {(byte) i});
        }
        t.addPending(ids, bytes, 1);
        assertEquals(300, t.pendingCount(1));
        for (int i = 0; i < 300; i += 37) {
            AssignmentEntry e = t.bySplit("s" + i);
            assertEquals(1, e.targetSubtask());
            assertEquals((byte) i, e.splitBytes()[0], "each id keeps its own bytes");
        }
        // "y" is recorded, "x" is still tracked: the batch stops there, "z" is never recorded.
        assertThrows(
                IllegalStateException.class,
                () ->
                        t.addPending(
                                List.of("y", "x", "z"),
                                List.of(bytes.get(0), bytes.get(1), bytes.get(2)),
                                2));
        assertEquals(1, t.pendingCount(2));
        assertEquals(2, t.bySplit("y").targetSubtask());
        assertNull(t.bySplit("z"));
        assertEquals(0, t.bySplit("x").targetSubtask(), "the first owner keeps it");
        assertThrows(
                IllegalArgumentException.class,
                () -> t.addPending(List.of("q"), List.of(), 2),
                "ids and bytes must pair up");
        assertNull(t.bySplit("q"));
    }

    @Test
    void aBatchPastTheUnassignedBoundNeverGrowsTheIndexPastIt() {
        SourceAssignmentTracker t =
                new SourceAssignmentTracker(
                        10, 1 << 20, 100, 1L << 30, true, new CoordinatorMetrics());
        List<String> ids = new java.util.ArrayList<>();
        List<byte[]> bytes = new java.util.ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            ids.add("s" + i);
            bytes.add(new byte[1]);
        }
        assertThrows(TrackerBoundException.class, () -> t.addPending(ids, bytes, 0));
        assertEquals(100, t.pendingCount(0), "the bound's worth recorded, as one by one");
        // 100 entries at most half full: 256 slots; readied for the whole batch it would be
        // 262,144.
        assertEquals(256, t.indexCapacity());
    }

    @Test
    void aCheckpointThatCollectsMostOfTheTrackerLeavesExactlyTheRestIndexed() {
        // Subtask 0: 64 assignments of 64 splits, all included at checkpoint 1; subtask 1: 4
        // assignments, not included. Completing checkpoint 1 collects 4,096 of 4,352 splits (the
        // index has 16,384 slots), far above a sixteenth of the index, so it drops them in one
        // pass (InFlightAssignments.collectAll) rather than split by split.
        CoordinatorMetrics metrics = new CoordinatorMetrics();
        SourceAssignmentTracker t = new SourceAssignmentTracker(1_000, 1L << 30, true, metrics);
        int[] assignments = {64, 4};
        for (int s = 0; s < 2; s++) {
            for (int a = 0; a < assignments[s]; a++) {
                for (int i = 0; i < 64; i++) {
                    t.addPending(id(s, a, i), new byte[] {(byte) i}, s);
                }
                t.dispatched(s, 64, 1, 1, a + 1, s * 1_000 + a + 1, 0, 1_700_000_000_000L);
            }
        }
        assertEquals(64, t.include(report(0, 1, 1, 64)));

        assertEquals(64, t.onCheckpointComplete(1));

        assertEquals(4 * 64, t.size());
        assertEquals(64 * 64, metrics.get(Counter.ASSIGNMENTS_GC));
        for (int a = 0; a < 64; a++) {
            for (int i = 0; i < 64; i++) {
                assertNull(t.bySplit(id(0, a, i)), "collected: forgotten");
            }
        }
        for (int a = 0; a < 4; a++) {
            for (int i = 0; i < 64; i++) {
                assertEquals(AssignmentState.DISPATCHED, t.bySplit(id(1, a, i)).state());
            }
        }
        // The rebuilt index goes on working: a collected id may be tracked again, a live one not.
        t.addPending(id(0, 0, 0), new byte[1], 0);
        assertEquals(AssignmentState.UNASSIGNED, t.bySplit(id(0, 0, 0)).state());
        assertThrows(IllegalStateException.class, () -> t.addPending(id(1, 3, 63), new byte[1], 1));
    }

    private static String id(int subtask, int assignment, int split) {
        return "split-" + subtask + "-" + assignment + "-" + split;
    }
}
