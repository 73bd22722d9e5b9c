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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** Reader failover, coordinator failover, rescale and no-more-splits re-sending, step by step. */
class CoordinatorRecoveryTest {

    private static ReaderInclusionReport restored(int subtask, long attempt, long cp, long w) {
        return ReaderInclusionReport.builder(
                        ReaderInclusionReport.Kind.RESTORED, subtask, attempt, cp)
                .watermark(1, w)
                .build();
    }

    private static LoopFixture threeAssignedTo(int subtask, int parallelism) {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(parallelism).build(),
                        LoopFixture.splits(3),
                        false,
                        null);
        f.loop.open();
        f.loop.registerReader(subtask, 1);
        for (int i = 0; i < 3; i++) {
            f.loop.handleSplitRequest(subtask, 1);
        }
        f.drain();
        f.dispatcher.acceptAll();
        f.drain();
        return f;
    }

    @Test
    void readerFailoverReturnsWhatTheRestoredStateDoesNotProveBeforeRegisterReader() {
        LoopFixture f = threeAssignedTo(0, 1);
        f.loop.reportInclusion(
                ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, 0, 1, 1)
                        .watermark(1, 1)
                        .build());
        f.loop.notifyCheckpointComplete(1);
        f.drain();
        assertNull(f.loop.tracker().bySplit("s0"), "proven and complete: collected");
        // Attempt 2 restores checkpoint 2's state (not yet complete) that holds s1 but not s2.
        f.loop.registerReader(0, 2, restored(0, 2, 2, 2));
        f.drain();
        assertEquals(AssignmentState.CHECKPOINT_INCLUDED, f.loop.tracker().bySplit("s1").state());
        assertNull(f.loop.tracker().bySplit("s2"));
        List<String> log = f.enumerator.log;
        assertEquals("addSplitsBack:0:1", log.get(log.size() - 2));
        assertEquals("registerReader:0", log.get(log.size() - 1));
        assertEquals(1, f.count(Counter.ASSIGNMENTS_RETURNED));
        // The next command to attempt 2 continues right after the restored watermark.
        f.loop.handleSplitRequest(0, 2);
        f.drain();
        List<SourceCommandEnvelope> sent = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT);
        SourceCommandEnvelope last = sent.get(sent.size() - 1);
        assertEquals(2, last.targetAttemptId());
        assertEquals(3, last.senderSequence());
    }

    @Test
    void commandsAndAnswersOfTheOldAttemptAreFenced() {
        LoopFixture f = threeAssignedTo(0, 1);
        SourceCommandEnvelope old = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).get(0);
        f.loop.registerReader(0, 2); // no state: everything returns
        f.drain();
        assertEquals(0, f.loop.tracker().size());
        f.loop.assignmentApplied(0, 1, old.senderSequence());
        f.loop.handleSplitRequest(0, 1);
        f.loop.reportInclusion(
                ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, 0, 1, 3)
                        .watermark(1, 3)
                        .build());
        f.drain();
        assertEquals(1, f.count(Counter.ASSIGNMENT_FENCED_ACKS));
        assertEquals(1, f.count(Counter.STALE_READER_COMMANDS));
        assertEquals(1, f.count(Counter.INCLUSION_REPORTS_FENCED));
        // A late STALE_TARGET for a live entry is counted and left to reconciliation, not retried.
        f.dispatcher.responder =
                e ->
                        AdmissionAck.rejected(
                                AdmissionStatus.STALE_TARGET,
                                e.targetAttemptId(),
                                ReasonCode.STALE_ATTEMPT);
        f.loop.handleSplitRequest(0, 2);
        f.drain();
        assertEquals(1, f.count(Counter.ASSIGNMENT_STALE_TARGET));
        assertEquals(0, f.timer.pending());
    }

    @Test
    void coordinatorFailoverRestoresOneCutHoldsAssignmentUntilOwnersReportedAndRescalesBySplit()
            throws Exception {
        LoopFixture f =
                new LoopFixture(LoopFixture.config(2).build(), LoopFixture.splits(4), false, null);
        f.loop.open();
        f.loop.registerReader(0, 1);
        f.loop.registerReader(1, 2);
        f.loop.handleSplitRequest(0, 1); // s0 -> 0
        f.loop.handleSplitRequest(1, 2); // s1 -> 1
        f.drain();
        f.dispatcher.acceptAll();
        f.drain();
        CompletableFuture<byte[]> snap = f.loop.snapshot(5);
        f.loop.handleSplitRequest(0, 1); // s2 after the cut: not in checkpoint 5
        f.drain();
        byte[] blob = snap.get();

        // Restore with parallelism 1 (rescale down), epoch 2.
        LoopFixture g =
                new LoopFixture(
                        LoopFixture.config(1).epoch(2).build(), LoopFixture.splits(4), false, blob);
        g.loop.open();
        g.loop.registerReader(0, 10);
        g.loop.handleSplitRequest(0, 10);
        g.drain();
        assertEquals(1, g.enumerator.pending.size(), "s2 handed out again (held), s3 pending");
        assertTrue(g.dispatcher.sent.isEmpty(), "held: restored owners not reconciled");
        assertEquals(1, g.loop.tracker().pendingCount());
        // Owner 0's state proves s0 (the reader keeps or finished it); owner 1 kept nothing.
        g.loop.reportInclusion(restored(0, ReaderInclusionReport.NO_ATTEMPT, 5, 1));
        g.drain();
        assertTrue(g.dispatcher.sent.isEmpty(), "owner 1 (beyond the new parallelism) still open");
        g.loop.reportInclusion(ReaderInclusionReport.restoredEmpty(1, 5));
        g.drain();
        assertNull(g.loop.tracker().bySplit("s0"));
        assertTrue(g.enumerator.log.contains("addSplitsBack:0:1"), "s1 returned, as subtask 0");
        List<SourceCommandEnvelope> sent = g.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT);
        assertEquals(1, sent.size());
        assertEquals(2, sent.get(0).coordinatorEpoch());
        assertEquals(2, sent.get(0).commandId() >>> 40);
        assertEquals(0, sent.get(0).coordinatorCutId(), "no snapshot yet in epoch 2");
        g.loop.notifyCheckpointComplete(5);
        g.drain();
        assertFalse(g.enumerator.log.contains("notifyCheckpointComplete:5"), "already its base");
    }

    @Test
    void restoredReaderSplitsReturnedBeforeRegistrationSupersedeTheTracker() throws Exception {
        LoopFixture f = threeAssignedTo(0, 1);
        CompletableFuture<byte[]> snap = f.loop.snapshot(4);
        f.drain();
        byte[] blob = snap.get();
        LoopFixture g =
                new LoopFixture(
                        LoopFixture.config(1).epoch(2).build(), LoopFixture.splits(3), false, blob);
        g.loop.open();
        // Zeta restore order: reader state back through addSplitsBack, then its metadata.
        g.loop.addSplitsBack(List.of(new TestSplit("s0", 1, 0)), 0);
        g.loop.reportInclusion(restored(0, ReaderInclusionReport.NO_ATTEMPT, 4, 2));
        g.loop.registerReader(0, 7);
        g.drain();
        // s0 came back with the reader state, s1 was finished before the barrier (proven by the
        // watermark), s2 was never applied: back to the enumerator once.
        assertEquals(
                List.of("s0", "s2"),
                g.enumerator.pending.stream().map(s -> s.id).sorted().toList());
        assertEquals(0, g.loop.tracker().size());
    }

    /** A restored coordinator (epoch 2) of {@link #threeAssignedTo} after a snapshot at 4. */
    private static LoopFixture restoredAfterThreeAssigned() throws Exception {
        LoopFixture f = threeAssignedTo(0, 1);
        CompletableFuture<byte[]> snap = f.loop.snapshot(4);
        f.drain();
        LoopFixture g =
                new LoopFixture(
                        LoopFixture.config(1).epoch(2).build(),
                        LoopFixture.splits(3),
                        false,
                        snap.get());
        g.loop.open();
        return g;
    }

    @Test
    void aReaderStateTheEngineDeliversTwiceReturnsItsSplitsOnce() throws Exception {
        LoopFixture g = restoredAfterThreeAssigned();
        // A restore operation that waited for the enumerator task lands on the next restore
        // attempt's task, which gets its own readers' (identical) state as well.
        for (int delivery = 0; delivery < 2; delivery++) {
            g.loop.restoreReaderState(
                    0,
                    List.of(restored(0, ReaderInclusionReport.NO_ATTEMPT, 4, 2)),
                    List.of(new TestSplit("s0", 1, 0)));
        }
        g.loop.registerReader(0, 7);
        g.drain();
        assertEquals(
                List.of("s0", "s2"),
                g.enumerator.pending.stream().map(s -> s.id).sorted().toList(),
                "s0 once (from the state), s2 once (never applied)");
        assertEquals(1, g.count(Counter.RESTORED_STATES_DUPLICATED));
        // Every split handed out again is tracked once: no "owned twice" failure.
        for (int i = 0; i < 3; i++) {
            g.loop.handleSplitRequest(0, 7);
        }
        g.drain();
        assertEquals(List.of(), g.failures);
        assertEquals(2, g.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size());
    }

    @Test
    void aDeliveryRepeatingOnlySomeOfItsRestoredOwnersFailsTheCoordinator() throws Exception {
        LoopFixture g = restoredAfterThreeAssigned();
        g.loop.restoreReaderState(
                0, List.of(restored(0, ReaderInclusionReport.NO_ATTEMPT, 4, 2)), List.of());
        g.loop.restoreReaderState(
                0,
                List.of(
                        restored(0, ReaderInclusionReport.NO_ATTEMPT, 4, 2),
                        ReaderInclusionReport.restoredEmpty(1, 4)),
                List.of());
        g.drain();
        assertEquals(1, g.failures.size(), "no restore repeats part of a state");
        assertEquals(0, g.count(Counter.RESTORED_STATES_DUPLICATED));
    }

    @Test
    void noMoreSplitsIsResentToANewAttemptUnlessItsSplitsWentBack() {
        LoopFixture f = threeAssignedTo(0, 1);
        f.loop.reportInclusion(
                ReaderInclusionReport.builder(ReaderInclusionReport.Kind.CHECKPOINT, 0, 1, 1)
                        .watermark(1, 3)
                        .build());
        f.loop.notifyCheckpointComplete(1);
        f.loop.handleSplitRequest(0, 1); // nothing left: no-more-splits
        f.drain();
        f.dispatcher.acceptAll();
        f.drain();
        assertEquals(1, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size());
        f.loop.handleSplitRequest(0, 1); // crossed the no-more-splits: not forwarded
        f.drain();
        assertEquals(1, f.count(Counter.SPLIT_REQUESTS_AFTER_NO_MORE_SPLITS));
        // Attempt 2 restored everything: it needs no-more-splits again.
        f.loop.registerReader(0, 2, restored(0, 2, 1, 4));
        f.drain();
        List<SourceCommandEnvelope> nms = f.dispatcher.of(CommandKind.NO_MORE_SPLITS);
        assertEquals(2, nms.size());
        assertEquals(2, nms.get(1).targetAttemptId());
        f.dispatcher.acceptAll();
        f.drain();
        // Attempt 3 keeps nothing, but nothing is tracked any more: it needs it too.
        f.loop.registerReader(0, 3);
        f.drain();
        assertEquals(3, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size());
    }

    @Test
    void noMoreSplitsIsVoidedWhenAssignmentsReturnToTheEnumerator() {
        LoopFixture f = threeAssignedTo(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        assertEquals(1, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size());
        f.loop.registerReader(0, 2); // nothing proven: three splits back
        f.drain();
        assertEquals(1, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size(), "not re-sent");
        assertFalse(f.loop.tracker().isNoMoreSplits(0));
        f.loop.handleSplitRequest(0, 2);
        f.drain();
        assertEquals(4, f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size());
    }
}
