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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * Enumerator context calls made off the coordinator loop (a thread the enumerator started itself)
 * are marshalled onto the loop through its bounded command queue: applied in the order one thread
 * made them, counted, refused with the reason when the queue is full or the loop closed. The loop
 * is driven by hand (manual executor); the foreign thread is a real thread joined before the loop
 * drains.
 */
class EnumeratorCallMarshallingTest {
    private static final SourceEvent EVENT = new SourceEvent() {};

    private static LoopFixture open(int parallelism) {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(parallelism).build(),
                        LoopFixture.splits(0),
                        false,
                        null);
        f.loop.open();
        f.drain();
        return f;
    }

    /** Runs {@code body} on a new plain thread and waits for it; rethrows what it threw. */
    private static void onOwnThread(Runnable body) throws Exception {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t =
                new Thread(
                        () -> {
                            try {
                                body.run();
                            } catch (Throwable e) {
                                failed.set(e);
                            }
                        },
                        "enumerator-own-thread");
        t.start();
        t.join(10_000);
        assertTrue(!t.isAlive(), "the calls never block");
        if (failed.get() instanceof RuntimeException) {
            throw (RuntimeException) failed.get();
        }
        if (failed.get() != null) {
            throw new AssertionError(failed.get());
        }
    }

    private static List<String> assignedSplitIds(LoopFixture f) throws Exception {
        List<String> ids = new ArrayList<>();
        for (SourceCommandEnvelope e : f.dispatcher.of(CommandKind.SPLIT_ASSIGNMENT)) {
            for (byte[] split : AssignmentPayload.decode(e.payload())) {
                ids.add(new TestSplit.Ser().deserialize(split).splitId());
            }
        }
        return ids;
    }

    @Test
    void callsFromAForeignThreadRunOnTheLoopInTheirOrderAndAreCounted() throws Exception {
        LoopFixture f = open(1);
        f.loop.registerReader(0, 1);
        f.drain();
        List<String> expected = new ArrayList<>();
        onOwnThread(
                () -> {
                    List<TestSplit> reused = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        reused.clear();
                        reused.add(TestSplit.of("t" + i));
                        // The caller reuses its list: the context must have copied it.
                        f.enumerator.context.assignSplit(0, reused);
                        expected.add("t" + i);
                    }
                    f.enumerator.context.signalNoMoreSplits(0);
                });
        assertEquals(51, f.count(Counter.ENUMERATOR_CALLS_MARSHALLED));
        assertTrue(f.loop.tracker().entries().isEmpty(), "nothing applied off the loop");
        assertTrue(f.dispatcher.sent.isEmpty());
        f.drain();
        assertEquals(expected, assignedSplitIds(f), "applied in the order the thread made them");
        f.dispatcher.acceptAll();
        f.drain();
        List<SourceCommandEnvelope> noMore = f.dispatcher.of(CommandKind.NO_MORE_SPLITS);
        assertEquals(1, noMore.size(), "no-more-splits came after every assignment");
        assertTrue(f.failures.isEmpty(), "no call failed the coordinator: " + f.failureCauses);
    }

    @Test
    void callsOnTheLoopAreDirectAndNotCounted() {
        LoopFixture f = open(1);
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("registerReader")) {
                        f.enumerator.context.assignSplit(0, TestSplit.of("direct"));
                        f.enumerator.context.signalNoMoreSplits(0);
                    }
                };
        f.loop.registerReader(0, 1);
        f.drain();
        assertEquals(1, f.loop.tracker().entries().size());
        assertEquals(0, f.count(Counter.ENUMERATOR_CALLS_MARSHALLED));
    }

    @Test
    void oneCallOfMoreSplitsThanABatchIsRecordedWhole() {
        LoopFixture f = open(1);
        int n = 2 * CoordinatorCore.ASSIGN_BATCH + 276;
        Set<String> expected = new HashSet<>();
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("registerReader")) {
                        List<TestSplit> all = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            all.add(TestSplit.of("b" + i));
                            expected.add("b" + i);
                        }
                        f.enumerator.context.assignSplit(0, all);
                    }
                };
        f.loop.registerReader(0, 1);
        f.drain();
        List<AssignmentEntry> entries = f.loop.tracker().entries();
        assertEquals(n, entries.size());
        Set<String> recorded = new HashSet<>();
        for (AssignmentEntry e : entries) {
            recorded.add(e.splitId());
        }
        assertEquals(expected, recorded);
        assertTrue(f.failures.isEmpty(), "no call failed the coordinator: " + f.failureCauses);
    }

    @Test
    void sendEventFromAForeignThreadIsMarshalledToo() throws Exception {
        LoopFixture f = open(1);
        f.loop.registerReader(0, 1);
        f.drain();
        onOwnThread(() -> f.enumerator.context.sendEventToSourceReader(0, EVENT));
        assertEquals(1, f.count(Counter.ENUMERATOR_CALLS_MARSHALLED));
        f.drain();
        // The fixture declares no event serializer: the loop reports what the call would have
        // thrown on the loop, as a coordinator failure.
        assertEquals(List.of(CoordinatorCommandType.ENUMERATOR_CALL.name()), f.failures);
        assertTrue(f.failureCauses.get(0) instanceof UnsupportedOperationException);
    }

    @Test
    void aFullQueueOrAClosedLoopRefusesWithTheReason() throws Exception {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(1).commandQueueCapacity(2).build(),
                        LoopFixture.splits(0),
                        false,
                        null);
        f.loop.open();
        AtomicReference<RejectedExecutionException> full = new AtomicReference<>();
        // The context exists before open is applied; take it from the loop.
        onOwnThread(
                () -> {
                    f.loop.context().assignSplit(0, List.of(TestSplit.of("a")));
                    f.loop.context().assignSplit(0, List.of(TestSplit.of("b")));
                    full.set(
                            assertThrows(
                                    RejectedExecutionException.class,
                                    () ->
                                            f.loop.context()
                                                    .assignSplit(0, List.of(TestSplit.of("c")))));
                });
        assertTrue(full.get().getMessage().contains("full"), full.get().getMessage());
        assertTrue(full.get().getMessage().contains("assignSplit"));
        assertEquals(2, f.count(Counter.ENUMERATOR_CALLS_MARSHALLED), "the refused call is not");
        assertEquals(1, f.count(Counter.QUEUE_FULL));
        f.drain();
        assertEquals(2, f.loop.tracker().entries().size(), "only the admitted calls took effect");

        f.loop.close();
        f.drain();
        AtomicReference<RejectedExecutionException> closed = new AtomicReference<>();
        onOwnThread(
                () ->
                        closed.set(
                                assertThrows(
                                        RejectedExecutionException.class,
                                        () -> f.loop.context().signalNoMoreSplits(0))));
        assertTrue(closed.get().getMessage().contains("closed"), closed.get().getMessage());
    }

    @Test
    void aBadSubtaskFailsOnTheCallersThread() throws Exception {
        LoopFixture f = open(2);
        onOwnThread(
                () ->
                        assertThrows(
                                IllegalArgumentException.class,
                                () -> f.enumerator.context.assignSplit(2, TestSplit.of("x"))));
        assertEquals(0, f.count(Counter.ENUMERATOR_CALLS_MARSHALLED));
    }

    @Test
    void registeredReadersOffTheLoopIsAnImmutableSnapshotOfAppliedRegistrations() throws Exception {
        LoopFixture f = open(3);
        f.loop.registerReader(2, 1);
        f.loop.registerReader(0, 1);
        AtomicReference<Set<Integer>> before = new AtomicReference<>();
        onOwnThread(() -> before.set(f.enumerator.context.registeredReaders()));
        assertEquals(Set.of(), before.get(), "not applied yet");
        f.drain();
        AtomicReference<Set<Integer>> after = new AtomicReference<>();
        onOwnThread(() -> after.set(f.enumerator.context.registeredReaders()));
        assertEquals(Set.of(0, 2), after.get());
        assertThrows(UnsupportedOperationException.class, () -> after.get().add(1));
        f.loop.registerReader(1, 1);
        f.drain();
        assertEquals(Set.of(0, 2), after.get(), "a snapshot, not a live view");
    }

    @Test
    void aDirectCallOnTheLoopTakesEffectAfterCallsAThreadMadeBeforeIt() throws Exception {
        LoopFixture f = open(1);
        f.loop.registerReader(0, 1);
        f.drain();
        // The enumerator's thread assigns; then a callback on the loop signals no-more-splits for
        // the same subtask. As on the stock engine, the assignment must come first: otherwise it
        // would void the no-more-splits and the reader would never finish.
        onOwnThread(() -> f.enumerator.context.assignSplit(0, TestSplit.of("own")));
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("handleSourceEvent")) {
                        f.enumerator.context.signalNoMoreSplits(0);
                    }
                };
        f.loop.handleSourceEvent(0, 1, EVENT);
        f.drain();
        assertEquals(List.of("own"), assignedSplitIds(f));
        f.dispatcher.acceptAll();
        f.drain();
        assertEquals(1, f.dispatcher.of(CommandKind.NO_MORE_SPLITS).size());
        assertTrue(f.failures.isEmpty(), f.failureCauses.toString());
    }

    @Test
    void aCallMadeBeforeTheEnumeratorSnapshotReturnedIsInTheSameCut() throws Exception {
        LoopFixture f = open(1);
        // A thread of the enumerator hands split "own" out (the enumerator no longer holds it);
        // the checkpoint's snapshot command is already ahead of that call on the loop.
        CompletableFuture<byte[]> snap = f.loop.snapshot(1);
        onOwnThread(() -> f.enumerator.context.assignSplit(0, TestSplit.of("own")));
        f.drain();
        CoordinatorSnapshotCodec.Decoded cut = CoordinatorSnapshotCodec.decode(snap.get());
        AssignmentTrackerCodec.Decoded tracker = AssignmentTrackerCodec.decode(cut.trackerState());
        assertEquals(1, tracker.entries().size(), "the split is in the tracker half of the cut");
    }
}
