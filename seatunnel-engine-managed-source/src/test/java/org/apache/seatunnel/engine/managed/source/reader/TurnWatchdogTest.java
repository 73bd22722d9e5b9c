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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.junit.jupiter.api.Test;

/**
 * The member-wide turn watchdog: no scheduled work while every reader is quiet, one check per
 * period for active readers only, the hard-budget wakeup and the cancellation timeout kept.
 */
class TurnWatchdogTest {
    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(100);

    /** Tasks run only when the test says so. */
    private static final class ManualScheduler implements TurnWatchdog.Scheduler {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        final List<Long> delays = new ArrayList<>();

        @Override
        public void schedule(Runnable task, long delayNanos) {
            tasks.add(task);
            delays.add(delayNanos);
        }

        /** Runs the tasks scheduled so far (not the ones they schedule). */
        int tick() {
            int n = tasks.size();
            for (int i = 0; i < n; i++) {
                tasks.poll().run();
            }
            return n;
        }
    }

    /** Counts what the watch asks of its loop. */
    private static final class CountingOverrun implements TurnWatch.Overrun {
        final AtomicInteger hard = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();

        @Override
        public void hardBudgetExceeded() {
            hard.incrementAndGet();
        }

        @Override
        public void cancellationTimeout(long elapsedNanos) {
            cancelled.incrementAndGet();
        }
    }

    @Test
    void sixteenQuietReadersScheduleNothing() {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        ManualClock clock = new ManualClock();
        List<TurnWatch> watches = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            TurnWatch w = new TurnWatch(PollBudget.defaults(), clock, new CountingOverrun());
            w.attach(dog);
            watches.add(w);
        }
        assertTrue(scheduler.tasks.isEmpty());
        // Each polls once, finds nothing and goes quiet: one check is scheduled, then none.
        for (TurnWatch w : watches) {
            w.turnStarted();
            w.turnEnded();
            w.quiet();
        }
        assertEquals(1, scheduler.tasks.size(), "one member-wide check, not one per reader");
        assertEquals(PERIOD, scheduler.delays.get(0));
        scheduler.tick();
        assertTrue(scheduler.tasks.isEmpty(), "no periodic work while all readers are quiet");
        assertFalse(dog.armed());
        assertEquals(0, dog.checks(), "quiet readers are not even checked");
    }

    @Test
    void activeReadersAreCheckedEveryPeriodUntilTheyGoQuiet() {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        ManualClock clock = new ManualClock();
        TurnWatch busy = new TurnWatch(PollBudget.defaults(), clock, new CountingOverrun());
        TurnWatch idle = new TurnWatch(PollBudget.defaults(), clock, new CountingOverrun());
        busy.attach(dog);
        idle.attach(dog);
        busy.turnStarted();
        for (int i = 0; i < 5; i++) {
            assertEquals(1, scheduler.tick());
            busy.turnEnded();
            busy.turnStarted();
        }
        assertEquals(5, dog.checks(), "only the active reader was checked");
        busy.turnEnded();
        busy.quiet();
        assertEquals(1, scheduler.tick());
        assertEquals(0, scheduler.tick(), "disarmed");
    }

    @Test
    void aLongTurnIsWokenOnceAndFailedAtTheCancellationTimeout() {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        ManualClock clock = new ManualClock();
        CountingOverrun overrun = new CountingOverrun();
        TurnWatch w = new TurnWatch(PollBudget.defaults(), clock, overrun);
        w.attach(dog);
        w.turnStarted();
        scheduler.tick(); // first sighting
        clock.advanceMillis(999);
        scheduler.tick();
        assertEquals(0, overrun.hard.get(), "not before poll.hard-duration");
        clock.advanceMillis(1);
        scheduler.tick();
        scheduler.tick();
        assertEquals(1, overrun.hard.get(), "woken once per turn");
        clock.advanceMillis(29_000);
        scheduler.tick();
        assertEquals(1, overrun.cancelled.get());
        assertEquals(1, scheduler.tasks.size(), "a stuck turn stays watched");
    }

    /**
     * The long-turn listener (the host's interrupt check) hears only of turns a check found
     * running: short turns, however many, cost it nothing.
     */
    @Test
    void onlyATurnACheckFindsRunningIsReportedAsLong() {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        TurnWatch w =
                new TurnWatch(PollBudget.defaults(), new ManualClock(), new CountingOverrun());
        AtomicInteger longTurns = new AtomicInteger();
        w.onLongTurn(longTurns::incrementAndGet);
        w.attach(dog);
        // Slow data: many short turns between two checks, each ended before the check.
        for (int i = 0; i < 50; i++) {
            w.turnStarted();
            w.turnEnded();
            if (i % 2 == 0) {
                w.quiet();
            }
        }
        scheduler.tick();
        assertEquals(0, longTurns.get(), "no check found a turn running");
        w.turnStarted();
        scheduler.tick();
        assertEquals(1, longTurns.get(), "found running");
        assertTrue(w.turnRunning());
        scheduler.tick();
        assertEquals(2, longTurns.get(), "reported at every check while it runs");
        w.turnEnded();
        assertFalse(w.turnRunning());
        scheduler.tick();
        assertEquals(2, longTurns.get());
    }

    @Test
    void aDetachedReaderIsNoLongerChecked() {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        TurnWatch w =
                new TurnWatch(PollBudget.defaults(), new ManualClock(), new CountingOverrun());
        w.attach(dog);
        w.turnStarted();
        w.detach();
        assertEquals(0, dog.activeReaders());
        scheduler.tick();
        assertEquals(0, dog.checks());
        assertFalse(dog.armed());
    }

    @Test
    void aReaderLoopThatFindsNothingLeavesTheWatchdogIdle() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        TurnWatchdog dog = new TurnWatchdog(scheduler, PERIOD);
        LoopHarness h = new LoopHarness();
        h.loop.turnWatch().attach(dog);
        h.loop.start(0);
        h.loop.runOnce();
        assertEquals(1, h.loop.metrics().pollTurns());
        assertEquals(0, dog.activeReaders(), "NOTHING_AVAILABLE made the reader quiet");
        scheduler.tick();
        assertTrue(scheduler.tasks.isEmpty());
        // A busy reader stays watched across turns.
        h.reader.onPoll = (out, ctx) -> PollStatus.MORE_AVAILABLE;
        h.reader.available.complete(null);
        h.mailbox.signalAvailable();
        h.loop.runOnce();
        h.loop.runOnce();
        assertEquals(1, dog.activeReaders());
        assertEquals(1, scheduler.tasks.size());
        h.loop.close();
        assertEquals(0, dog.activeReaders(), "closing detaches");
    }

    /**
     * Activations racing with the check that disarms the watchdog on a real scheduler with a tiny
     * period: the last, never-ending turn must still be seen and woken. Seeded: {@code
     * -Dstress.seed=S}.
     */
    @Test
    void anActivationRacingWithTheDisarmIsNeverLost() throws Exception {
        long seed = Long.getLong("stress.seed", System.nanoTime());
        System.out.println("TurnWatchdogTest seed " + seed);
        Random random = new Random(seed);
        ScheduledExecutorService exec = Executors.newSingleThreadScheduledExecutor();
        try {
            TurnWatchdog dog =
                    new TurnWatchdog(
                            (task, delay) -> exec.schedule(task, delay, TimeUnit.NANOSECONDS),
                            TimeUnit.MICROSECONDS.toNanos(20));
            AtomicLong now = new AtomicLong();
            // Hard budget of 1 ns on a clock that advances at every read: any turn seen twice is
            // over it.
            PollBudget budget = new PollBudget(64, 1 << 20, 1, 1, Long.MAX_VALUE / 4, 1);
            CountingOverrun overrun = new CountingOverrun();
            TurnWatch w = new TurnWatch(budget, now::incrementAndGet, overrun);
            w.attach(dog);
            int rounds = 20_000 + random.nextInt(20_000);
            for (int i = 0; i < rounds; i++) {
                w.turnStarted();
                for (int s = random.nextInt(64); s > 0; s--) {
                    Thread.onSpinWait();
                }
                w.turnEnded();
                w.quiet();
            }
            int before = overrun.hard.get();
            w.turnStarted(); // never ends
            await().atMost(Duration.ofSeconds(30)).until(() -> overrun.hard.get() > before);
            assertTrue(dog.armed());
        } finally {
            exec.shutdownNow();
        }
    }
}
