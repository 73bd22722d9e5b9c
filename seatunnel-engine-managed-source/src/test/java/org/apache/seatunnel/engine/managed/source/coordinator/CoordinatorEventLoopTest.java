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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** Deterministic tests of the loop: ordering of every callback kind, stamping, isolation. */
class CoordinatorEventLoopTest {

    private static final SourceEvent EVENT = new SourceEvent() {};

    private LoopFixture open(int parallelism, int splits) {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(parallelism).build(),
                        LoopFixture.splits(splits),
                        false,
                        null);
        f.loop.open();
        f.drain();
        return f;
    }

    @Test
    void callbacksOfferedBeforeOpenRunAfterItInOfferOrder() {
        LoopFixture f =
                new LoopFixture(LoopFixture.config(2).build(), LoopFixture.splits(0), false, null);
        f.loop.registerReader(1, 10);
        f.loop.handleSplitRequest(1, 10);
        f.loop.handleSourceEvent(1, 10, EVENT);
        f.loop.notifyCheckpointComplete(3);
        f.loop.open();
        assertEquals(1, f.loopExecutor.pending(), "at most one drain is scheduled at a time");
        f.drain();
        assertEquals(
                Arrays.asList(
                        "open",
                        "run",
                        "registerReader:1",
                        "handleSplitRequest:1",
                        "handleSourceEvent:1",
                        "notifyCheckpointComplete:3"),
                f.enumerator.log);
        assertEquals(LoopState.RUNNING, f.loop.state());
    }

    @Test
    void everyCallbackRunsOnTheLoopWithTheConnectorClassLoader() {
        LoopFixture f = open(1, 1);
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        for (ClassLoader cl : f.enumerator.callbackLoaders) {
            assertSame(LoopFixture.CONNECTOR_LOADER, cl);
        }
        assertSame(before, Thread.currentThread().getContextClassLoader(), "restored after drain");
    }

    @Test
    void schedulerRefusesCallsFromOtherThreads() {
        LoopFixture f = open(1, 1);
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () ->
                                f.loop.context()
                                        .scheduler()
                                        .scheduleInCoordinatorThread(
                                                TestEnumerator.DISCOVER, Duration.ZERO, () -> {}));
        assertTrue(e.getMessage().contains("scheduleInCoordinatorThread"));
        assertThrows(IllegalStateException.class, () -> f.loop.scheduler());
    }

    @Test
    void assignmentIsStampedWithEpochSequenceCommandIdAndCut() throws Exception {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(2).epoch(5).build(), LoopFixture.splits(4), false, null);
        f.loop.open();
        f.loop.registerReader(0, 100);
        f.loop.registerReader(1, 200);
        f.loop.handleSplitRequest(0, 100);
        f.loop.handleSplitRequest(0, 100);
        f.drain();
        CompletableFuture<byte[]> snap = f.loop.snapshot(9);
        f.loop.handleSplitRequest(1, 200);
        f.drain();
        assertTrue(snap.isDone());
        List<SourceCommandEnvelope> sent = f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT);
        assertEquals(3, sent.size());
        SourceCommandEnvelope a = sent.get(0);
        SourceCommandEnvelope b = sent.get(1);
        SourceCommandEnvelope c = sent.get(2);
        assertEquals(5, a.coordinatorEpoch());
        assertEquals(5, a.senderAttemptId());
        assertEquals(100, a.targetAttemptId());
        assertEquals(0, a.targetSubtask());
        assertEquals(7, a.jobId());
        assertEquals(3, a.sourceRuntimeId());
        assertEquals(1, a.senderSequence());
        assertEquals(2, b.senderSequence());
        assertEquals(1, c.senderSequence(), "sequence is per target subtask");
        Set<Long> ids = new HashSet<>(Arrays.asList(a.commandId(), b.commandId(), c.commandId()));
        assertEquals(3, ids.size());
        assertEquals(5, a.commandId() >>> 40, "command ids carry the epoch");
        assertEquals(0, a.coordinatorCutId(), "before any snapshot");
        assertEquals(9, c.coordinatorCutId(), "after enumerator snapshot 9");
        assertEquals(AssignmentPayload.VERSION, a.payloadVersion());
        List<byte[]> splits = AssignmentPayload.decode(a.payload());
        assertEquals(1, splits.size());
        assertArrayEquals(new TestSplit.Ser().serialize(TestSplit.of("s0")), splits.get(0));
    }

    @Test
    void snapshotIsAStrictCutOfEnumeratorAndTrackerInOneBlob() throws Exception {
        LoopFixture f = open(1, 3);
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        CompletableFuture<byte[]> snap = f.loop.snapshot(4);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        CoordinatorSnapshotCodec.Decoded d = CoordinatorSnapshotCodec.decode(snap.get());
        assertEquals(4, d.checkpointId());
        TestEnumerator.State st = new TestEnumerator.StateSer().deserialize(d.enumeratorState());
        assertEquals(2, st.pending.size(), "request offered before the snapshot is inside it");
        AssignmentTrackerCodec.Decoded t = AssignmentTrackerCodec.decode(d.trackerState());
        assertEquals(1, t.entries().size());
        assertEquals("s0", t.entries().get(0).splitId());
        assertEquals(
                Arrays.asList(
                        "open",
                        "run",
                        "registerReader:0",
                        "handleSplitRequest:0",
                        "snapshotState:4",
                        "handleSplitRequest:0"),
                f.enumerator.log);
    }

    @Test
    void snapshotAndWaitIsBoundedAndRefusedOnTheLoop() {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(1).snapshotTimeout(Duration.ofMillis(20)).build(),
                        LoopFixture.splits(0),
                        false,
                        null);
        // Nobody drains: the bounded wait ends with a timeout instead of hanging the caller.
        assertThrows(TimeoutException.class, () -> f.loop.snapshotAndWait(1));
    }

    @Test
    void checkpointCallbacksInOrderAndCompleteDeliveredOnce() {
        LoopFixture f = open(1, 0);
        f.loop.snapshot(1);
        f.loop.notifyCheckpointComplete(1);
        f.loop.notifyCheckpointComplete(1);
        f.loop.snapshot(2);
        f.loop.notifyCheckpointAborted(2);
        f.drain();
        assertEquals(
                Arrays.asList(
                        "open",
                        "run",
                        "snapshotState:1",
                        "notifyCheckpointComplete:1",
                        "snapshotState:2",
                        "notifyCheckpointAborted:2"),
                f.enumerator.log);
        assertEquals(1, f.count(Counter.DUPLICATE_CHECKPOINT_CALLBACKS));
    }

    @Test
    void abortOfTheLastCutReleasesItAtEveryReaderWithAnUndeferrableControl() {
        LoopFixture f = open(2, 0);
        f.loop.registerReader(0, 1);
        f.loop.registerReader(1, 2);
        f.loop.snapshot(6);
        f.loop.notifyCheckpointAborted(6);
        f.drain();
        List<SourceCommandEnvelope> rel = f.dispatcher.of(CommandKind.CHECKPOINT_ABORTED);
        assertEquals(2, rel.size());
        for (SourceCommandEnvelope e : rel) {
            assertEquals(0, e.coordinatorCutId());
            assertEquals(6, LongPayload.decode(e));
        }
    }

    @Test
    void fullQueueRefusesWithoutBlockingAndCounts() {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(1).commandQueueCapacity(2).build(),
                        LoopFixture.splits(0),
                        false,
                        null);
        assertEquals(OfferResult.ENQUEUED, f.loop.open());
        assertEquals(OfferResult.ENQUEUED, f.loop.registerReader(0, 1));
        assertEquals(OfferResult.QUEUE_FULL, f.loop.handleSplitRequest(0, 1));
        CompletableFuture<byte[]> snap = f.loop.snapshot(1);
        assertTrue(snap.isCompletedExceptionally());
        assertEquals(2, f.count(Counter.QUEUE_FULL));
        f.drain();
        assertEquals(OfferResult.ENQUEUED, f.loop.handleSplitRequest(0, 1));
    }

    @Test
    void failingCallbackGoesToFailureHandlerAndLoopCarriesOn() {
        LoopFixture f = open(1, 1);
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("handleSourceEvent")) {
                        throw new IllegalStateException("connector bug");
                    }
                };
        f.loop.registerReader(0, 1);
        f.loop.handleSourceEvent(0, 1, EVENT);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        assertEquals(Arrays.asList("SOURCE_EVENT"), f.failures);
        assertTrue(f.enumerator.log.contains("handleSplitRequest:0"));
        assertEquals(LoopState.RUNNING, f.loop.state());
    }

    @Test
    void staleAndDuplicateReaderCommandsAreDroppedAndCounted() {
        LoopFixture f = open(1, 2);
        f.loop.registerReader(0, 5);
        f.loop.registerReader(0, 5);
        f.loop.registerReader(0, 4);
        f.loop.handleSplitRequest(0, 4);
        f.loop.handleSourceEvent(0, 3, EVENT);
        f.drain();
        assertEquals(Arrays.asList("open", "run", "registerReader:0"), f.enumerator.log);
        assertEquals(1, f.count(Counter.DUPLICATE_REGISTRATIONS));
        assertEquals(3, f.count(Counter.STALE_READER_COMMANDS));
    }

    @Test
    void closeRunsInOrderThenDropsEverythingAndFailsSnapshots() throws Exception {
        LoopFixture f = open(1, 0);
        f.loop.close();
        f.drain();
        assertEquals(LoopState.CLOSED, f.loop.state());
        assertEquals(OfferResult.CLOSED, f.loop.handleSplitRequest(0, 1));
        CompletableFuture<byte[]> snap = f.loop.snapshot(1);
        ExecutionException e = assertThrows(ExecutionException.class, snap::get);
        assertTrue(e.getCause() instanceof IllegalStateException);
        assertEquals(Arrays.asList("open", "run", "close"), f.enumerator.log);
    }

    @Test
    void openFailureMovesToFailedAndDropsBufferedCommands() {
        // A corrupt restore blob makes open fail.
        LoopFixture g =
                new LoopFixture(
                        LoopFixture.config(1).build(),
                        LoopFixture.splits(0),
                        false,
                        new byte[] {1, 2, 3});
        g.loop.registerReader(0, 1);
        g.loop.open();
        g.drain();
        assertEquals(LoopState.FAILED, g.loop.state());
        assertEquals(Arrays.asList("OPEN"), g.failures);
        assertEquals(1, g.count(Counter.COMMANDS_AFTER_CLOSE));
    }

    @Test
    void aCommandTheTransportCouldNotPlaceFailsTheCoordinatorOnceAndIsNotResent() {
        // The sender retries in place, in order; a final RETRY_LATER means it gave up.
        LoopFixture f = open(1, 2);
        f.dispatcher.responder =
                e ->
                        AdmissionAck.retryLater(
                                e.targetAttemptId(), 50, ReasonCode.MAILBOX_COUNT_FULL);
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        assertEquals(2, f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size());
        f.timer.advance(Duration.ofSeconds(10));
        f.drain();
        assertEquals(
                2, f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT).size(), "no coordinator resend");
        assertEquals(2, f.count(Counter.ASSIGNMENT_SEND_FAILURES));
        assertEquals(1, f.failures.size(), "the coordinator failed once: " + f.failures);
        assertEquals(AssignmentState.DISPATCHED, f.loop.tracker().bySplit("s0").state());
    }

    @Test
    void aTransportFailureFailsTheCoordinatorToo() {
        LoopFixture f = open(1, 1);
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        f.dispatcher.sent.get(0).callback.onTransportFailure(new TimeoutException("lost"));
        f.drain();
        assertEquals(1, f.count(Counter.ASSIGNMENT_SEND_FAILURES));
        assertEquals(1, f.failures.size(), f.failures.toString());
        assertTrue(f.failures.get(0).contains("ADMISSION_RESULT"), f.failures.toString());
    }

    @Test
    void sourceEventsToReadersAreUnsequencedAndDroppedWithoutAReader() {
        LoopFixture f =
                new LoopFixture(LoopFixture.config(2).build(), LoopFixture.splits(0), false, null);
        f.loop.open();
        f.loop.registerReader(0, 1);
        f.drain();
        // Drive the context from inside a callback, as a connector would.
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("handleSplitRequest")) {
                        f.enumerator.context.sendEventToSourceReader(0, EVENT);
                        f.enumerator.context.sendEventToSourceReader(1, EVENT);
                    }
                };
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        // No event serializer configured: the connector gets a clear failure.
        assertEquals(Arrays.asList("SPLIT_REQUEST"), f.failures);
        assertTrue(f.failureCauses.get(0) instanceof UnsupportedOperationException);
    }

    @Test
    void noMoreSplitsFollowsTheSubtasksAssignmentsAndIsSentOncePerAttempt() {
        LoopFixture f = open(1, 1);
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.loop.handleSplitRequest(0, 1);
        f.drain();
        // The transport keeps the subtask's commands in order: no-more-splits goes right behind
        // the last assignment, without waiting for its admission.
        assertEquals(2, f.dispatcher.sent.size());
        f.dispatcher.acceptAll();
        f.drain();
        f.loop.handleSplitRequest(0, 1); // crossed no-more-splits: not forwarded
        f.drain();
        assertEquals(1, f.count(Counter.SPLIT_REQUESTS_AFTER_NO_MORE_SPLITS));
        List<SourceCommandEnvelope> all = f.dispatcher.sent.stream().map(s -> s.envelope).toList();
        assertEquals(2, all.size());
        assertEquals(CommandKind.SPLIT_ASSIGNMENT, all.get(0).commandKind());
        assertEquals(CommandKind.NO_MORE_SPLITS, all.get(1).commandKind());
        assertTrue(all.get(1).senderSequence() > all.get(0).senderSequence());
        assertFalse(f.loop.tracker().entries().isEmpty());
    }
}
