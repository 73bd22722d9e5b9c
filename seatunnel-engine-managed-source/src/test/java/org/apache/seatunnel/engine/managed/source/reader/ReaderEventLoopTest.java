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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.apache.seatunnel.engine.managed.source.reader.LoopHarness.budget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** Poll budgets, overruns, duplicates, attempt fencing and the coordinator-cut hold. */
class ReaderEventLoopTest {

    private static LoopHarness greedy(PollBudget budget) throws Exception {
        LoopHarness h = new LoopHarness(MailboxLimits.defaults(), budget, 256L << 20);
        h.reader.onPoll =
                (out, ctx) -> {
                    while (!ctx.shouldYield()) {
                        out.collect("0123456789");
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.start(0);
        return h;
    }

    @Test
    void pollTurnYieldsAtTheRecordBudget() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        assertEquals(LoopStatus.BUSY, h.loop.runOnce());
        assertEquals(64, h.emitted.size());
        assertEquals(1, h.loop.metrics().pollTurns());
    }

    @Test
    void hasWorkIsFalseOnlyAfterAQuietTurnWithNothingComeInSince() throws Exception {
        LoopHarness h = new LoopHarness();
        AtomicReference<PollStatus> answer = new AtomicReference<>(PollStatus.MORE_AVAILABLE);
        h.reader.onPoll =
                (out, ctx) -> {
                    out.collect("r");
                    if (answer.get() == PollStatus.NOTHING_AVAILABLE) {
                        h.reader.available = new CompletableFuture<>();
                    }
                    return answer.get();
                };
        h.loop.start(0);
        assertTrue(h.loop.hasWork(), "a started loop polls first");
        assertEquals(LoopStatus.BUSY, h.loop.runOnce());
        assertTrue(h.loop.hasWork(), "the reader said more is available");
        answer.set(PollStatus.NOTHING_AVAILABLE);
        assertEquals(LoopStatus.BUSY, h.loop.runOnce());
        assertFalse(h.loop.hasWork(), "nothing available and nothing came in");
        assertEquals(LoopStatus.IDLE, h.loop.runOnce(), "the iteration hasWork() spares is idle");
        assertEquals(2, h.emitted.size());
        h.reader.available.complete(null);
        assertTrue(h.loop.hasWork(), "availability came in");
        assertEquals(LoopStatus.BUSY, h.loop.runOnce());
        assertEquals(3, h.emitted.size());
    }

    @Test
    void pollTurnYieldsAtTheByteBudget() throws Exception {
        LoopHarness h = greedy(budget(64, 95, 5));
        h.loop.runOnce();
        assertEquals(10, h.emitted.size(), "10-byte records against a 95-byte budget");
        assertEquals(100, h.loop.metrics().bytes());
    }

    @Test
    void aRecordTheSizerRejectsCountsNoBytesAndTheTurnGoesOn() throws Exception {
        LoopHarness h =
                new LoopHarness(
                        MailboxLimits.defaults(),
                        budget(64, 1 << 20, 5),
                        256L << 20,
                        s -> {
                            if (s.startsWith("bad")) {
                                throw new UnsupportedOperationException("Unsupported type: " + s);
                            }
                            return s.length();
                        });
        h.reader.onPoll =
                (out, ctx) -> {
                    // Marks sample records 1, 9, 17, ...: the 1st and the 9th are rejected.
                    for (int i = 0; !ctx.shouldYield(); i++) {
                        out.collect(i % 8 == 0 && i < 16 ? "bad" : "0123456789");
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.start(0);
        assertEquals(LoopStatus.BUSY, h.loop.runOnce());
        assertEquals(64, h.emitted.size(), "every record reached the engine's collector");
        assertEquals("bad", h.emitted.get(8));
        assertEquals(2, h.loop.metrics().unsizedRecords());
        // Records 1-16 stand for the rejected samples (0 bytes), 17-64 for a 10-byte one.
        assertEquals(48 * 10, h.loop.metrics().bytes());
        assertEquals(LoopStatus.BUSY, h.loop.runOnce(), "the attempt did not fail");
    }

    @Test
    void pollTurnYieldsAtTheSoftDeadline() throws Exception {
        LoopHarness h = greedy(budget(1000, 1 << 20, 5));
        h.reader.onPoll =
                (out, ctx) -> {
                    while (!ctx.shouldYield()) {
                        out.collect("r");
                        h.clock.advanceMillis(1);
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        // A first turn knows nothing of its records' cost, so it reads the clock every
        // PollTurn.CONTROL_EVERY calls after the first: at 1 ms per record the first read past the
        // 5 ms deadline is the 9th call, so the turn stops after 8 records.
        assertEquals(PollTurn.CONTROL_EVERY, h.emitted.size());
        // Having measured ~1 ms per call, the next turn reads the clock at every call and stops at
        // the first call at or past its deadline.
        h.emitted.clear();
        h.loop.runOnce();
        assertEquals(5, h.emitted.size());
    }

    @Test
    void cheapRecordsReadNoClockExceptInOneMeasuredTurnOfSixteen() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        // The first turn is measured (nothing is known yet); the clock here never moves, so its
        // records cost nothing and no later turn needs an in-turn clock read.
        h.loop.runOnce();
        long before = h.clock.reads();
        for (int i = 0; i < PollTurn.MEASURE_EVERY - 1; i++) {
            h.loop.runOnce();
        }
        assertEquals(before, h.clock.reads(), "unmeasured turns read no clock");
        h.loop.runOnce();
        assertEquals(before + 2, h.clock.reads(), "the 16th turn is measured: start and end");
        assertEquals(64L * (PollTurn.MEASURE_EVERY + 1), h.loop.metrics().records());
    }

    @Test
    void pollNanosCountsEachMeasuredTurnForTheTurnsItStandsFor() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        // Every turn takes 1 µs: cheap, so only the first and then one turn in 16 are measured.
        h.reader.onPoll =
                (out, ctx) -> {
                    h.clock.advanceNanos(1_000);
                    while (!ctx.shouldYield()) {
                        out.collect("r");
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        assertEquals(1_000, h.loop.metrics().pollNanos(), "the first turn is measured");
        for (int i = 0; i < PollTurn.MEASURE_EVERY - 1; i++) {
            h.loop.runOnce();
        }
        assertEquals(1_000, h.loop.metrics().pollNanos(), "unmeasured turns add nothing yet");
        h.loop.runOnce();
        assertEquals(
                1_000 + 1_000L * PollTurn.MEASURE_EVERY,
                h.loop.metrics().pollNanos(),
                "the 16th turn after stands for itself and the 15 before it");
    }

    @Test
    void recordsThatBecomeSlowAreTimedAgainWithinSixteenTurns() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.loop.runOnce(); // learns that records are cheap
        h.reader.onPoll =
                (out, ctx) -> {
                    while (!ctx.shouldYield()) {
                        out.collect("r");
                        h.clock.advanceMillis(1);
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        int turns = 0;
        long overrunsBefore = h.loop.metrics().softOverruns();
        for (; turns < PollTurn.MEASURE_EVERY; turns++) {
            h.emitted.clear();
            h.loop.runOnce();
            if (h.loop.metrics().softOverruns() > overrunsBefore) {
                break;
            }
        }
        assertTrue(turns < PollTurn.MEASURE_EVERY, "a measured turn saw the slow records");
        // From then on every turn is timed and yields at its soft deadline.
        h.emitted.clear();
        h.loop.runOnce();
        assertEquals(5, h.emitted.size());
    }

    @Test
    void askingForTheDeadlineStartsTheClockOfAnUnmeasuredTurn() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.loop.runOnce(); // learns that records are cheap: the next turn is unmeasured
        long[] seen = new long[2];
        h.reader.onPoll =
                (out, ctx) -> {
                    seen[0] = ctx.deadlineNanos();
                    seen[1] = ctx.nanoTime();
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        assertEquals(seen[1] + TimeUnit.MILLISECONDS.toNanos(5), seen[0]);
    }

    @Test
    void softOverrunIsRecordedAsADiagnostic() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.reader.onPoll =
                (out, ctx) -> {
                    h.clock.advanceMillis(7);
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        assertEquals(1, h.loop.metrics().softOverruns());
        assertEquals(0, h.reader.wakeups.get(), "a soft overrun does not call wakeup()");
    }

    @Test
    void pollTurnYieldsWhenAControlArrivesAndTheControlRunsBeforeTheNextTurn() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.reader.onPoll =
                (out, ctx) -> {
                    for (int i = 0; !ctx.shouldYield(); i++) {
                        out.collect("r");
                        if (i == 2) {
                            h.offer(h.assign("late"));
                        }
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        // Controls are looked for every PollTurn.CONTROL_EVERY calls: the one admitted after the
        // 3rd record is seen at the 9th call, so the turn stops after 8 records.
        assertEquals(PollTurn.CONTROL_EVERY, h.emitted.size());
        h.loop.runOnce();
        assertEquals(Arrays.asList("open", "poll", "addSplits:[late]", "poll"), h.reader.trace);
    }

    /**
     * A reader whose records take {@code nanosPerRecord} each and which, in its second turn, sees a
     * split assignment admitted after its 3rd record. Returns how many records that turn emitted
     * before it yielded to the control (the first turn, 64 records, is measured and sets the
     * strides).
     */
    private static int recordsBeforeAControlIsSeen(long nanosPerRecord) throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        int[] turn = new int[1];
        h.reader.onPoll =
                (out, ctx) -> {
                    turn[0]++;
                    for (int i = 0; !ctx.shouldYield(); i++) {
                        h.clock.advanceNanos(nanosPerRecord);
                        out.collect("r");
                        if (turn[0] == 2 && i == 2) {
                            h.offer(h.assign("late"));
                        }
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        assertEquals(64, h.emitted.size());
        h.emitted.clear();
        h.loop.runOnce();
        int emitted = h.emitted.size();
        h.loop.runOnce();
        assertEquals(
                Arrays.asList("open", "poll", "poll", "addSplits:[late]", "poll"),
                h.reader.trace,
                "the control runs before the next turn");
        return emitted;
    }

    @Test
    void cheapRecordsLookForControlsAbout256TimesPerSoftBudget() throws Exception {
        // 1 µs records: a look every (5 ms / 256) / 1 µs = 19 calls, not every 8.
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(5) / PollTurn.CONTROL_SHARE / 1_000,
                recordsBeforeAControlIsSeen(1_000));
    }

    @Test
    void slowerRecordsStillLookForControlsEveryEightCalls() throws Exception {
        // 10 µs records: 8 calls already take longer than 1/256 of the soft budget.
        assertEquals(PollTurn.CONTROL_EVERY, recordsBeforeAControlIsSeen(10_000));
    }

    @Test
    void hardOverrunCallsWakeupOnce() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.reader.onPoll =
                (out, ctx) -> {
                    h.loop.checkTurnBudget(); // the watchdog first sees the turn
                    h.clock.advanceMillis(999);
                    h.loop.checkTurnBudget();
                    assertEquals(0, h.reader.wakeups.get(), "not before the hard budget");
                    h.clock.advanceMillis(1);
                    h.loop.checkTurnBudget();
                    h.loop.checkTurnBudget();
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.runOnce();
        assertEquals(1, h.reader.wakeups.get());
        assertEquals(1, h.loop.metrics().hardWakeups());
        h.loop.checkTurnBudget();
        assertEquals(1, h.reader.wakeups.get(), "no wakeup outside a turn");
        assertEquals(ReaderLifecycle.RUNNING, h.loop.lifecycle());
    }

    @Test
    void eachTurnIsTimedAfreshByTheWatchdog() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        h.reader.onPoll =
                (out, ctx) -> {
                    h.loop.checkTurnBudget();
                    h.clock.advanceMillis(600);
                    h.loop.checkTurnBudget();
                    return PollStatus.MORE_AVAILABLE;
                };
        // Two 600 ms turns back to back: neither reaches the 1 s hard budget on its own.
        h.loop.runOnce();
        h.loop.runOnce();
        assertEquals(0, h.reader.wakeups.get());
        assertEquals(0, h.loop.metrics().hardWakeups());
    }

    @Test
    void notReturningWithinTheCancellationTimeoutFailsTheTask() throws Exception {
        LoopHarness h = greedy(budget(64, 1 << 20, 5));
        AtomicBoolean hook = new AtomicBoolean();
        h.loop.setCancellationTimeoutHook(() -> hook.set(true));
        h.reader.onPoll =
                (out, ctx) -> {
                    h.loop.checkTurnBudget();
                    h.clock.advanceMillis(1000);
                    h.loop.checkTurnBudget();
                    h.clock.advanceMillis(28_999);
                    h.loop.checkTurnBudget();
                    assertEquals(null, h.loop.terminalSignal(), "not before the timeout");
                    h.clock.advanceMillis(1);
                    h.loop.checkTurnBudget();
                    return PollStatus.MORE_AVAILABLE;
                };
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertTrue(hook.get(), "the host hook (interrupt) runs");
        assertEquals(ReasonCode.POLL_CANCELLATION_TIMEOUT, h.loop.terminalSignal().reason());
        assertEquals(ReaderLifecycle.FAILED, h.loop.lifecycle());
    }

    @Test
    void aCommandDeliveredTwiceHasOneBusinessEffect() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        SourceCommandEnvelope a = h.assign("a");
        h.offer(a);
        assertEquals(AdmissionStatus.DUPLICATE, h.offer(a).status());
        // A redelivery that escaped the admission window (new command id, same sender sequence).
        SourceCommandEnvelope again = a.toBuilder().commandId(999).build();
        assertEquals(AdmissionStatus.ACCEPTED, h.offer(again).status());
        h.runUntilQuiet();
        assertEquals(1, Collections.frequency(h.reader.trace, "addSplits:[a]"));
        assertEquals(1, h.loop.metrics().duplicatesSkipped());
        assertEquals(1, h.appliedAcks.size());
    }

    @Test
    void outOfOrderDeliveryIsAppliedOnceAndTheWatermarkCatchesUp() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        SourceCommandEnvelope first = h.assign("a");
        SourceCommandEnvelope second = h.assign("b");
        SourceCommandEnvelope third = h.assign("c");
        h.offer(first);
        h.offer(third);
        h.local.barrier(1);
        h.runUntilQuiet();
        assertEquals(Long.valueOf(1), h.cuts.get(0).appliedSenderWatermarks().get(1L));
        assertEquals(Collections.singletonList(3L), h.cuts.get(0).appliedAboveWatermark().get(1L));
        h.offer(second);
        h.local.barrier(2);
        h.runUntilQuiet();
        ReaderCheckpointCut cut = h.cuts.get(1);
        assertEquals(Long.valueOf(3), cut.appliedSenderWatermarks().get(1L));
        assertTrue(cut.appliedAboveWatermark().isEmpty());
    }

    @Test
    void commandsForAnOldAttemptNeverReachTheReader() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        assertEquals(
                AdmissionStatus.STALE_TARGET,
                h.offer(
                                h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "old")
                                        .targetAttemptId(LoopHarness.ATTEMPT - 1)
                                        .build())
                        .status());
        h.runUntilQuiet();
        assertFalse(h.reader.trace.contains("addSplits:[old]"));
    }

    @Test
    void assignmentCutAfterCoordinatorSnapshotIsHeldPastThisReadersBarrier() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        // The coordinator snapshotted checkpoint 1, then assigned split "post".
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "post").coordinatorCutId(1).build());
        h.runUntilQuiet();
        assertEquals(1, h.loop.heldCommands());
        assertEquals(1, h.loop.metrics().cutDeferrals());
        assertFalse(h.reader.trace.contains("addSplits:[post]"));
        h.local.barrier(1);
        h.runUntilQuiet();
        assertEquals(Arrays.asList("1:[]"), h.checkpoints, "checkpoint 1 must not hold 'post'");
        assertTrue(h.reader.trace.contains("addSplits:[post]"), "applied right after barrier 1");
        assertEquals(0, h.loop.heldCommands());
        assertEquals(0, h.mailbox.commandCount(), "capacity released once applied");
    }

    @Test
    void heldCommandsCountAgainstTheMailboxBound() throws Exception {
        LoopHarness h =
                new LoopHarness(
                        new MailboxLimits(2, 1000, 2, 100, 100, 64, 10),
                        PollBudget.defaults(),
                        1 << 20);
        h.loop.start(0);
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "p1").coordinatorCutId(1).build());
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "p2").coordinatorCutId(1).build());
        h.runUntilQuiet();
        assertEquals(2, h.loop.heldCommands());
        assertEquals(
                AdmissionStatus.RETRY_LATER,
                h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "p3").build()).status());
        assertEquals(AdmissionStatus.ACCEPTED, h.local.barrier(1).status());
        h.runUntilQuiet();
        assertEquals(0, h.mailbox.commandCount());
    }

    @Test
    void aHoldLongerThanTheCutHoldTimeoutFailsTheAttempt() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "post").coordinatorCutId(1).build());
        h.runUntilQuiet();
        h.clock.advanceMillis(60_001);
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertEquals(ReasonCode.CUT_HOLD_TIMEOUT, h.loop.terminalSignal().reason());
    }

    @Test
    void anAbortedCheckpointReleasesCommandsHeldForItsCut() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "post").coordinatorCutId(4).build());
        h.runUntilQuiet();
        assertEquals(1, h.loop.heldCommands());
        h.offer(
                h.coordinator(CommandKind.CHECKPOINT_ABORTED, "")
                        .payload(LongPayload.encode(4))
                        .build());
        h.runUntilQuiet();
        assertEquals(0, h.loop.heldCommands());
        assertTrue(h.reader.trace.contains("aborted:4"));
        assertTrue(h.reader.trace.contains("addSplits:[post]"));
    }

    @Test
    void aRestoredAttemptDoesNotHoldCommandsCutAtItsRestoredCheckpoint() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(5);
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "r").coordinatorCutId(5).build());
        h.runUntilQuiet();
        assertTrue(h.reader.trace.contains("addSplits:[r]"));
    }

    @Test
    void checkpointCompleteIsDeliveredOncePerIdInIncreasingOrder() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        h.local.checkpointComplete(3);
        h.local.checkpointComplete(3);
        h.local.checkpointComplete(2);
        h.local.checkpointComplete(4);
        h.runUntilQuiet();
        assertEquals(1, Collections.frequency(h.reader.trace, "complete:3"));
        assertFalse(h.reader.trace.contains("complete:2"));
        assertTrue(h.reader.trace.contains("complete:4"));
    }

    @Test
    void theBarrierResultCarriesWhatTheCallbackReturnedOrWhyItFailed() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        ReaderSnapshot snap =
                new ReaderSnapshot(
                        3,
                        h.mailbox.subtask(),
                        Collections.emptyList(),
                        Collections.emptyList(),
                        new byte[0]);
        h.snapshotToReturn = snap;
        h.local.barrier(3);
        BarrierResult taken = h.loop.runControlsUntilBarrier(3, 0);
        assertTrue(taken.isTaken());
        assertSame(snap, taken.snapshot(), "the callback's snapshot comes back as the value");

        IllegalStateException refused = new IllegalStateException("registration refused");
        h.checkpointFailure = refused;
        h.local.barrier(4);
        BarrierResult failed = h.loop.runControlsUntilBarrier(4, 0);
        assertFalse(failed.isTaken());
        assertNull(failed.snapshot());
        assertSame(refused, failed.failure());
        assertEquals(Collections.singletonList(4L), h.failedCheckpoints);

        BarrierResult notReached = h.loop.runControlsUntilBarrier(5, 0);
        assertFalse(notReached.isTaken());
        assertNull(notReached.failure(), "barrier 5 never reached the mailbox");
    }

    @Test
    void endOfInputFinishesAndBarriersStillWork() throws Exception {
        LoopHarness h = new LoopHarness();
        h.reader.onPoll = (out, ctx) -> PollStatus.END_OF_INPUT;
        h.loop.start(0);
        assertEquals(LoopStatus.FINISHED, h.loop.runOnce());
        assertEquals(1, h.endOfInput);
        assertEquals(ReaderLifecycle.DRAINING, h.loop.lifecycle());
        h.local.barrier(7);
        assertTrue(h.loop.runControlsUntilBarrier(7, TimeUnit.SECONDS.toNanos(1)).isTaken());
        assertEquals(Arrays.asList("7:[]"), h.checkpoints);
        assertEquals(LoopStatus.FINISHED, h.loop.runOnce());
        assertEquals(1, h.loop.metrics().pollTurns(), "no poll turn after end of input");
    }

    @Test
    void aConnectorFailureInApplyFailsTheAttemptWithoutEscapingTheLoop() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        h.reader.failOnEvent = true;
        h.offer(h.coordinator(CommandKind.SOURCE_EVENT, "boom").build());
        h.local.barrier(1);
        assertEquals(LoopStatus.TERMINATED, h.runUntilQuiet());
        assertEquals(ReasonCode.CONNECTOR_FAILURE, h.loop.terminalSignal().reason());
        assertEquals(ReaderLifecycle.FAILED, h.loop.lifecycle());
        assertTrue(h.checkpoints.isEmpty(), "the barrier behind the failure does not succeed");
    }

    @Test
    void closeIsIdempotentAndReleasesHeldCapacity() throws Exception {
        LoopHarness h = new LoopHarness();
        h.loop.start(0);
        h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "p").coordinatorCutId(3).build());
        h.runUntilQuiet();
        h.loop.close();
        h.loop.close();
        assertEquals(ReaderLifecycle.CLOSED, h.loop.lifecycle());
        assertEquals(0, h.mailbox.commandCount());
        assertEquals(0, h.budget.usedBytes());
        assertEquals(1, Collections.frequency(h.reader.trace, "close"));
    }
}
