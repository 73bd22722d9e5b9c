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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.poll-linger} on the loop, with a manual clock: availability that comes within the
 * linger after a {@code NOTHING_AVAILABLE} turn neither wakes the driver nor earns a poll before
 * the linger's end; commands still run at once; data after a longer quiet is polled at once.
 */
class ReaderLoopLingerTest {
    private static final long IDLE_MS = 1000;
    private static final long LINGER_MS = 20;

    /** LoopHarness's budget, whose reader.idle-wait is the default {@value #IDLE_MS} ms. */
    private static PollBudget budget(long lingerMs) {
        return LoopHarness.budget(64, 4L << 20, 5)
                .withLinger(TimeUnit.MILLISECONDS.toNanos(lingerMs));
    }

    /** A reader fed by a "fetch thread" (the test): a fresh future each time it runs dry. */
    private static final class Fed {
        final LoopHarness h;
        final ArrayDeque<String> fetched = new ArrayDeque<>();

        Fed(long lingerMs) {
            this(budget(lingerMs));
        }

        Fed(PollBudget budget) {
            h = new LoopHarness(MailboxLimits.defaults(), budget, 256L << 20);
            h.reader.onPoll =
                    (out, ctx) -> {
                        while (!fetched.isEmpty() && ctx.remainingRecords() > 0) {
                            out.collect(fetched.poll());
                        }
                        if (!fetched.isEmpty()) {
                            return PollStatus.MORE_AVAILABLE;
                        }
                        h.reader.available = new CompletableFuture<>();
                        return PollStatus.NOTHING_AVAILABLE;
                    };
        }

        void fetch(String... rows) {
            fetched.addAll(Arrays.asList(rows));
            h.reader.available.complete(null);
        }

        /**
         * {@code afterMs} later the fetch thread hands over {@code rows}; true if that woke the
         * driver.
         */
        boolean arrive(long afterMs, String... rows) {
            h.signal.clear();
            h.clock.advanceMillis(afterMs);
            fetch(rows);
            return h.signal.isPending();
        }

        long polls() {
            return h.reader.trace.stream().filter("poll"::equals).count();
        }
    }

    @Test
    void dataWithinTheLingerWaitsForItsEndWithoutWakingTheDriver() throws Exception {
        Fed f = new Fed(LINGER_MS);
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        assertEquals(1, f.polls());
        f.h.signal.clear();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(LINGER_MS), f.h.loop.nanosUntilIdlePoll());

        f.h.clock.advanceMillis(5);
        f.fetch("a", "b");
        assertFalse(f.h.signal.isPending(), "availability within the linger wakes no one");
        f.h.clock.advanceMillis(5);
        f.fetch("c");
        for (int i = 0; i < 3; i++) {
            assertEquals(LoopStatus.IDLE, f.h.loop.runOnce());
            assertFalse(f.h.loop.hasWork());
        }
        assertEquals(1, f.polls(), "no turn before the linger's end");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), f.h.loop.nanosUntilIdlePoll());

        f.h.clock.advanceMillis(10);
        assertEquals(0, f.h.loop.nanosUntilIdlePoll());
        f.h.runUntilQuiet();
        assertEquals(2, f.polls(), "one turn for everything that came during the linger");
        assertEquals(Arrays.asList("a", "b", "c"), f.h.emitted);
        assertEquals(1, f.h.loop.metrics().pollsLingered());
    }

    @Test
    void anAdaptiveLingerFollowsTheMembersReaderCountAfterEachTurnWithRows() throws Exception {
        AtomicInteger readers = new AtomicInteger(4);
        // 100 wake-ups/s for the member: 10 ms per reader on it.
        PollLinger adaptive =
                PollLinger.adaptive(readers::get, 100, TimeUnit.MILLISECONDS.toNanos(100));
        Fed f = new Fed(LoopHarness.budget(64, 4L << 20, 5).withLinger(adaptive));
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(IDLE_MS),
                f.h.loop.nanosUntilIdlePoll(),
                "a turn that emitted nothing starts no adaptive linger");
        f.h.signal.clear();
        f.h.clock.advanceMillis(5);
        f.fetch("a");
        assertTrue(f.h.signal.isPending(), "an idle reader's data wakes the driver at once");
        f.h.runUntilQuiet();
        assertEquals(Arrays.asList("a"), f.h.emitted);
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(40),
                f.h.loop.nanosUntilIdlePoll(),
                "after a turn with rows: 4 readers' share, 40 ms");
        f.h.signal.clear();
        f.h.clock.advanceMillis(20);
        f.fetch("b");
        assertFalse(f.h.signal.isPending(), "within the linger: no wake-up");

        // Four readers joined the member: the next turn with rows lingers twice as long.
        readers.set(8);
        f.h.clock.advanceMillis(20);
        f.h.runUntilQuiet();
        assertEquals(Arrays.asList("a", "b"), f.h.emitted);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(80), f.h.loop.nanosUntilIdlePoll());
        assertEquals(1, f.h.loop.metrics().pollsLingered());
    }

    @Test
    void anAdaptiveLingerThatCaughtNothingIsLeftOutUntilDataComesWithinOneAgain() throws Exception {
        // 4 readers at 100 wake-ups/s: a 40 ms linger after each turn with rows.
        PollLinger adaptive = PollLinger.adaptive(() -> 4, 100, TimeUnit.MILLISECONDS.toNanos(100));
        Fed f = new Fed(LoopHarness.budget(64, 4L << 20, 5).withLinger(adaptive));
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        f.arrive(5, "a");
        f.h.runUntilQuiet();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(40), f.h.loop.nanosUntilIdlePoll());

        // The linger ends with no data: the host woke for nothing.
        f.h.clock.advanceMillis(40);
        assertEquals(LoopStatus.IDLE, f.h.loop.runOnce());

        // Data 60 ms later (a reader paced slower than its linger): polled at once, and the next
        // quiet is not lingered, so the host sleeps until data or reader.idle-wait.
        assertTrue(f.arrive(60, "b"));
        f.h.runUntilQuiet();
        assertEquals(Arrays.asList("a", "b"), f.h.emitted);
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(IDLE_MS),
                f.h.loop.nanosUntilIdlePoll(),
                "the last linger caught nothing: no wake-up at a linger's end");

        // Still slower than a linger: still none.
        assertTrue(f.arrive(50, "c"), "no linger: data wakes the host at once");
        f.h.runUntilQuiet();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(IDLE_MS), f.h.loop.nanosUntilIdlePoll());

        // Data within 40 ms of the quiet: a linger would have caught it, so the next one lingers.
        assertTrue(f.arrive(10, "d"));
        f.h.runUntilQuiet();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(40), f.h.loop.nanosUntilIdlePoll());
        assertFalse(f.arrive(10, "e"), "lingering again: data within it wakes no one");
        f.h.clock.advanceMillis(30);
        f.h.runUntilQuiet();
        assertEquals(Arrays.asList("a", "b", "c", "d", "e"), f.h.emitted);
        assertEquals(1, f.h.loop.metrics().pollsLingered());
    }

    @Test
    void anAdaptiveLingerCountsFromTheReadersLastWakeUp() throws Exception {
        // 4 readers at 100 wake-ups/s: each may wake every 40 ms; 2 rows per turn.
        PollLinger adaptive = PollLinger.adaptive(() -> 4, 100, TimeUnit.MILLISECONDS.toNanos(100));
        Fed f = new Fed(LoopHarness.budget(2, 4L << 20, 5).withLinger(adaptive));
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());

        // Woken, then busy for 30 ms before its data pauses: it lingers only the other 10 ms.
        assertTrue(f.arrive(5, "a", "b", "c", "d"));
        assertEquals(LoopStatus.BUSY, f.h.loop.runOnce());
        f.h.clock.advanceMillis(30);
        f.h.loop.runOnce();
        assertEquals(Arrays.asList("a", "b", "c", "d"), f.h.emitted);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), f.h.loop.nanosUntilIdlePoll());
        assertFalse(f.arrive(5, "e", "f", "g", "h", "i", "j"), "within the linger's rest");

        // Woken at the linger's end, then busy for 50 ms, longer than a linger (a scan whose
        // fetch thread paused to open its next file): the pause is not lingered.
        f.h.clock.advanceMillis(5);
        assertEquals(LoopStatus.BUSY, f.h.loop.runOnce());
        f.h.clock.advanceMillis(25);
        f.h.loop.runOnce();
        f.h.clock.advanceMillis(25);
        f.h.loop.runOnce();
        assertEquals(Arrays.asList("a", "b", "c", "d", "e", "f", "g", "h", "i", "j"), f.h.emitted);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(IDLE_MS), f.h.loop.nanosUntilIdlePoll());
        assertTrue(f.arrive(1, "k"), "data after the pause wakes the driver at once");
        f.h.runUntilQuiet();
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(40),
                f.h.loop.nanosUntilIdlePoll(),
                "a wake-up that found one batch lingers in full");
    }

    @Test
    void aTurnAtTheEndOfALingerOverDataAlreadyThereIsAWakeUpToo() throws Exception {
        // 4 readers at 100 wake-ups/s: a 40 ms linger. This reader emits one row per turn and
        // says nothing more is available while its future stays complete (data already there).
        PollLinger adaptive = PollLinger.adaptive(() -> 4, 100, TimeUnit.MILLISECONDS.toNanos(100));
        LoopHarness h =
                new LoopHarness(
                        MailboxLimits.defaults(),
                        LoopHarness.budget(64, 4L << 20, 5).withLinger(adaptive),
                        256L << 20);
        ArrayDeque<String> rows = new ArrayDeque<>(Arrays.asList("a", "b"));
        h.reader.available = CompletableFuture.completedFuture(null);
        h.reader.onPoll =
                (out, ctx) -> {
                    if (!rows.isEmpty()) {
                        out.collect(rows.poll());
                    }
                    return PollStatus.NOTHING_AVAILABLE;
                };
        h.loop.start(0);
        h.clock.advanceMillis(100);
        h.loop.runOnce();
        assertEquals(Arrays.asList("a"), h.emitted);
        assertTrue(
                h.loop.hasWork(),
                "busy for 100 ms since it started, longer than its linger: polled again at once");
        h.loop.runOnce();
        assertEquals(Arrays.asList("a", "b"), h.emitted);
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(40),
                h.loop.nanosUntilIdlePoll(),
                "woken by data already there at the quiet: the next linger counts from this turn");
    }

    @Test
    void aFixedLingerStaysAfterOneThatCaughtNothing() throws Exception {
        Fed f = new Fed(LINGER_MS);
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        for (String row : new String[] {"a", "b"}) {
            // Each linger ends with no data, and the next data comes 100 ms later.
            f.h.clock.advanceMillis(LINGER_MS);
            assertEquals(LoopStatus.IDLE, f.h.loop.runOnce());
            f.h.signal.clear();
            f.h.clock.advanceMillis(100);
            f.fetch(row);
            f.h.runUntilQuiet();
        }
        assertEquals(Arrays.asList("a", "b"), f.h.emitted);
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(LINGER_MS),
                f.h.loop.nanosUntilIdlePoll(),
                "reader.poll-linger is the operator's minimum gap between turns, kept as set");
    }

    @Test
    void withoutALingerAvailabilityWakesTheDriverAndIsPolledAtOnce() throws Exception {
        Fed f = new Fed(0);
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        f.h.signal.clear();
        f.h.clock.advanceMillis(5);
        f.fetch("a");
        assertTrue(f.h.signal.isPending());
        f.h.runUntilQuiet();
        assertEquals(2, f.polls());
        assertEquals(Arrays.asList("a"), f.h.emitted);
        assertEquals(0, f.h.loop.metrics().pollsLingered());
    }

    @Test
    void dataAfterALongerQuietIsPolledAtOnce() throws Exception {
        Fed f = new Fed(LINGER_MS);
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        f.h.clock.advanceMillis(LINGER_MS);
        // The host wakes at the linger's end, finds nothing, and waits for a signal again.
        assertEquals(LoopStatus.IDLE, f.h.loop.runOnce());
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(IDLE_MS - LINGER_MS), f.h.loop.nanosUntilIdlePoll());
        f.h.signal.clear();

        f.h.clock.advanceMillis(100);
        f.fetch("late");
        assertTrue(f.h.signal.isPending(), "after the linger availability wakes the driver");
        f.h.runUntilQuiet();
        assertEquals(2, f.polls());
        assertEquals(Arrays.asList("late"), f.h.emitted);
        assertEquals(0, f.h.loop.metrics().pollsLingered(), "nothing waited for the linger");
    }

    @Test
    void aBarrierDuringTheLingerIsTakenAtOnce() throws Exception {
        Fed f = new Fed(LINGER_MS);
        f.h.loop.start(0);
        assertEquals(LoopStatus.IDLE, f.h.runUntilQuiet());
        f.h.clock.advanceMillis(1);
        f.h.local.barrier(1);
        assertTrue(f.h.signal.isPending(), "a command wakes the driver during a linger");
        f.h.loop.runOnce();
        assertEquals(1, f.h.checkpoints.size(), "the barrier did not wait for the linger");
    }

    @Test
    void aFutureAlreadyCompleteWhenTheTurnEndedIsPolledAtTheLingerEnd() throws Exception {
        LoopHarness h = new LoopHarness(MailboxLimits.defaults(), budget(LINGER_MS), 256L << 20);
        h.reader.available.complete(null);
        h.loop.start(0);
        h.loop.runOnce();
        assertEquals(1, h.reader.trace.stream().filter("poll"::equals).count());
        for (int i = 0; i < 3; i++) {
            assertEquals(LoopStatus.IDLE, h.loop.runOnce());
        }
        assertEquals(1, h.reader.trace.stream().filter("poll"::equals).count());
        h.clock.advanceMillis(LINGER_MS);
        h.loop.runOnce();
        assertEquals(2, h.reader.trace.stream().filter("poll"::equals).count());
        assertEquals(1, h.loop.metrics().pollsLingered());
    }

    @Test
    void aLingerLongerThanTheIdleWaitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> budget(IDLE_MS + 1));
        assertThrows(IllegalArgumentException.class, () -> budget(-1));
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(IDLE_MS), budget(IDLE_MS).lingerNanos(), "the bound");
    }
}
