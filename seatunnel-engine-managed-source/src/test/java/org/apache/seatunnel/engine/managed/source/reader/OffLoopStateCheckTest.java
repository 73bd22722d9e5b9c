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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.off-loop-check} on the deterministic in-process loop: a state that moves between a
 * sampled barrier and the next call into the reader, with no turn in between (what a fetch thread
 * that advances positions itself does), is counted and warned about once per attempt, naming the
 * reader and never a split; so is one made while the reader waits after a later turn of the sample;
 * a reader that moves its state only in its turns and callbacks is never reported, whatever the
 * runtime calls between barriers; a checkpoint callback does not end the sample; a sample watches a
 * bounded number of windows; only sampled barriers begin one; with the check off, nothing is
 * snapshotted twice and nothing is counted.
 */
class OffLoopStateCheckTest {
    private static final String WARNING = "checkpoint-visible state changed while no poll turn";
    // A split id that must never reach a log line or a metric.
    private static final String SPLIT = "orders-secret-split-17";

    /** The test split's id and position: what a connector's split serializer would keep. */
    private static final Serializer<TestSplit> SERIALIZER =
            new Serializer<TestSplit>() {
                @Override
                public byte[] serialize(TestSplit s) {
                    return (s.id + "@" + s.position).getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public TestSplit deserialize(byte[] b) {
                    String[] p = new String(b, StandardCharsets.UTF_8).split("@");
                    return new TestSplit(p[0], Long.parseLong(p[1]));
                }
            };

    private LogCapture logs;

    @BeforeEach
    void captureLogs() {
        logs = LogCapture.attach(ReaderEventLoop.class.getName());
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    /**
     * A harness whose reader owns {@link #SPLIT} and, in each turn, emits one record and moves the
     * split's position by one: state that moves on the loop, as the contract wants.
     */
    private static LoopHarness started(OffLoopStateCheck<TestSplit> check) throws Exception {
        LoopHarness h = new LoopHarness();
        h.reader.positions.put(SPLIT, 0L);
        h.reader.onPoll =
                (out, ctx) -> {
                    long next = h.reader.positions.get(SPLIT) + 1;
                    out.collect("row-" + next);
                    h.reader.positions.put(SPLIT, next);
                    return PollStatus.NOTHING_AVAILABLE;
                };
        h.reader.available.complete(null);
        h.loop.setOffLoopCheck(check);
        h.loop.start(0);
        h.offer(h.assign(SPLIT));
        h.loop.runOnce();
        return h;
    }

    /** Barrier {@code id} alone, as the engine's snapshot call runs it: controls, no turn. */
    private static void barrier(LoopHarness h, long id) {
        h.local.barrier(id);
        h.loop.runControls();
    }

    /** What a fetch thread that breaks the contract does: moves the position outside any turn. */
    private static void moveOffTheLoop(LoopHarness h) {
        h.reader.positions.merge(SPLIT, 100L, Long::sum);
    }

    private static long allSnapshots(LoopHarness h) {
        return h.reader.trace.stream().filter(t -> t.startsWith("snapshot:")).count();
    }

    private static long snapshots(LoopHarness h, long checkpointId) {
        String prefix = "snapshot:" + checkpointId + "[";
        return h.reader.trace.stream().filter(t -> t.startsWith(prefix)).count();
    }

    @Test
    void aStateMovedBetweenABarrierAndTheNextTurnIsCountedAndWarnedOncePerAttempt()
            throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1, SERIALIZER));
        barrier(h, 1);
        moveOffTheLoop(h);
        h.loop.runOnce();

        ReaderLoopMetrics m = h.loop.metrics();
        assertEquals(1, m.offLoopStateChecks());
        assertEquals(1, m.offLoopStateChanges());
        // The check snapshotted once more before the turn, asking with the next checkpoint's id:
        // what a reader remembers for checkpoint 1 (offsets to commit) stays the barrier's.
        assertEquals(1, snapshots(h, 1));
        assertEquals(1, snapshots(h, 2));
        List<String> warnings = logs.matching(Level.WARN, WARNING);
        assertEquals(1, warnings.size(), warnings.toString());
        String w = warnings.get(0);
        assertTrue(w.contains(LoopHarness.IDENTITY.toString()), w);
        assertTrue(w.contains("attempt " + LoopHarness.ATTEMPT), w);
        assertTrue(w.contains("after checkpoint 1"), w);
        assertFalse(w.contains(SPLIT), "no split id in the log: " + w);

        // Again at the next sampled barrier: counted, not warned again in this attempt.
        barrier(h, 2);
        moveOffTheLoop(h);
        h.loop.runOnce();
        assertEquals(2, m.offLoopStateChecks());
        assertEquals(2, m.offLoopStateChanges());
        assertEquals(1, logs.matching(Level.WARN, WARNING).size());
        // A diagnostic: the attempt goes on.
        assertNull(h.loop.terminalSignal());
        assertEquals(ReaderLifecycle.RUNNING, h.loop.lifecycle());
    }

    @Test
    void aStateMovedBetweenTwoBarriersWithNothingBetweenIsFoundByTheSecondBarrier()
            throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1, SERIALIZER));
        barrier(h, 1);
        moveOffTheLoop(h);
        barrier(h, 2);

        assertEquals(1, h.loop.metrics().offLoopStateChecks());
        assertEquals(1, h.loop.metrics().offLoopStateChanges());
        // Compared with barrier 2's own snapshot: no extra call into the reader.
        assertEquals(2, allSnapshots(h));
        assertEquals(1, logs.matching(Level.WARN, WARNING).size());
    }

    @Test
    void aReaderThatMovesStateOnlyInItsTurnsAndCallbacksIsNeverReported() throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1, SERIALIZER));
        long checkpoint = 0;
        for (int round = 0; round < 20; round++) {
            barrier(h, ++checkpoint);
            switch (round % 5) {
                case 0:
                    // A turn moves the position: after the check, which runs before it.
                    h.loop.runOnce();
                    break;
                case 1:
                    // Callbacks, then a turn.
                    h.local.checkpointComplete(checkpoint);
                    h.local.checkpointAborted(checkpoint + 1000);
                    h.loop.runOnce();
                    break;
                case 2:
                    // A new split before the next turn.
                    h.offer(h.assign("more-" + round));
                    h.loop.runOnce();
                    break;
                case 3:
                    // Barrier after barrier, nothing between.
                    break;
                default:
                    // A repeated completion, which the loop does not pass on, then a turn.
                    h.local.checkpointComplete(1);
                    h.loop.runOnce();
            }
        }
        h.loop.runOnce();

        ReaderLoopMetrics m = h.loop.metrics();
        assertTrue(m.offLoopStateChecks() >= 20, "checked: " + m.offLoopStateChecks());
        assertEquals(0, m.offLoopStateChanges());
        assertTrue(logs.matching(Level.WARN, WARNING).isEmpty());
        assertTrue(h.emitted.size() >= 12, "the turns moved the state: " + h.emitted.size());
    }

    @Test
    void theWindowOutlastsACheckpointCallbackThatMayItselfChangeTheState() throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1, SERIALIZER));
        // A reader that drops what a completed checkpoint made final: a change on the loop.
        h.reader.onCheckpointComplete = () -> h.reader.positions.merge(SPLIT, 1000L, Long::sum);
        barrier(h, 1);
        h.local.checkpointComplete(1);
        h.loop.runControls();
        assertEquals(1, h.loop.metrics().offLoopStateChecks());
        assertEquals(0, h.loop.metrics().offLoopStateChanges());

        // The comparison goes on with the state the callback left, until the next turn.
        moveOffTheLoop(h);
        h.loop.runOnce();
        assertEquals(2, h.loop.metrics().offLoopStateChecks());
        assertEquals(1, h.loop.metrics().offLoopStateChanges());
        assertEquals(1, logs.matching(Level.WARN, WARNING).size());
    }

    @Test
    void aStateMovedWhileTheReaderWaitsAfterALaterTurnIsFoundInThatWindow() throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1, SERIALIZER));
        barrier(h, 1);
        // Window 1 (barrier to turn) unchanged; the turn moves the state, on the loop.
        h.loop.runOnce();
        assertEquals(0, h.loop.metrics().offLoopStateChanges());
        // Window 2: from that turn's return to the next turn, a fetch thread moves it.
        moveOffTheLoop(h);
        h.loop.runOnce();
        assertEquals(2, h.loop.metrics().offLoopStateChecks());
        assertEquals(1, h.loop.metrics().offLoopStateChanges());
    }

    @Test
    void aSampleWatchesAtMostItsBoundOfWindows() throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(1000, SERIALIZER));
        barrier(h, 1);
        for (int i = 0; i < 3 * OffLoopStateCheck.WINDOWS_PER_SAMPLE; i++) {
            h.loop.runOnce();
        }
        assertEquals(OffLoopStateCheck.WINDOWS_PER_SAMPLE, h.loop.metrics().offLoopStateChecks());
        // The sample is over: a change now is not seen until the next sampled barrier.
        moveOffTheLoop(h);
        h.loop.runOnce();
        assertEquals(0, h.loop.metrics().offLoopStateChanges());
        assertEquals(
                1 + 2L * OffLoopStateCheck.WINDOWS_PER_SAMPLE - 1,
                allSnapshots(h),
                "the barrier's, then one at each window's start and end");
    }

    @Test
    void onlyTheFirstBarrierAndThenEveryIntervalthIsChecked() throws Exception {
        LoopHarness h = started(new OffLoopStateCheck<>(3, SERIALIZER));
        for (long id = 1; id <= 7; id++) {
            barrier(h, id);
            moveOffTheLoop(h);
            h.loop.runOnce();
        }
        // Barriers 1, 4 and 7 of the attempt: each sample ends at the change it found.
        assertEquals(3, h.loop.metrics().offLoopStateChecks());
        assertEquals(3, h.loop.metrics().offLoopStateChanges());
        assertEquals(7 + 3, allSnapshots(h), "one extra snapshot per sample");
    }

    @Test
    void offByDefaultNothingIsSnapshottedTwiceOrCounted() throws Exception {
        LoopHarness h = started(null);
        for (long id = 1; id <= 3; id++) {
            barrier(h, id);
            moveOffTheLoop(h);
            h.loop.runOnce();
            assertEquals(id, allSnapshots(h), "only the barriers' snapshots");
        }
        assertEquals(0, h.loop.metrics().offLoopStateChecks());
        assertEquals(0, h.loop.metrics().offLoopStateChanges());
        assertTrue(logs.matching(Level.WARN, WARNING).isEmpty());
    }

    @Test
    void theOrderInWhichAReaderListsItsSplitsIsNotState() throws Exception {
        OffLoopStateCheck<TestSplit> check = new OffLoopStateCheck<>(1, SERIALIZER);
        check.remember(
                check.encode(
                        java.util.Arrays.asList(new TestSplit("a", 1), new TestSplit("b", 2))));
        assertTrue(
                check.matchesRemembered(
                        check.encode(
                                java.util.Arrays.asList(
                                        new TestSplit("b", 2), new TestSplit("a", 1)))));
        check.remember(check.encode(java.util.Arrays.asList(new TestSplit("a", 1))));
        assertFalse(
                check.matchesRemembered(
                        check.encode(java.util.Arrays.asList(new TestSplit("a", 2)))));
        check.remember(check.encode(java.util.Arrays.asList(new TestSplit("a", 1))));
        assertFalse(
                check.matchesRemembered(
                        check.encode(
                                java.util.Arrays.asList(
                                        new TestSplit("a", 1), new TestSplit("c", 0)))));
    }
}
