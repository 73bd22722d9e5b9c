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
 * The member-wide turn watchdog: no scheduled work while every reader is quiet; the first turn of
 * an active spell checked when it reaches the hard budget (at most a second after it started), so a
 * reader on slow data costs about one check per hard budget; later turns of turns back to back
 * checked once per period; the hard-budget wakeup and the cancellation timeout kept.
 */
class TurnWatchdogTest {
    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long HARD = PollBudget.defaults().hardNanos();
    private static final long CANCEL = PollBudget.defaults().cancellationNanos();

    /** Runs tasks when the test moves the clock past their delay. */
    private static final class ManualScheduler implements TurnWatchdog.Scheduler {
        final ManualClock clock;
        final List<Long> due = new ArrayList<>();
        final List<Runnable> tasks = new ArrayList<>();
        final List<Long> delays = new ArrayList<>();

        ManualScheduler(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public void schedule(Runnable task, long delayNanos) {
            due.add(clock.nanoTime() + delayNanos);
            tasks.add(task);
            delays.add(delayNanos);
        }

        int pending() {
            return tasks.size();
        }

        /** Runs the tasks due by now (not the ones they schedule); returns how many ran. */
        int runDue() {
            List<Runnable> run = new ArrayList<>();
            for (int i = 0; i < tasks.size(); ) {
                if (due.get(i) - clock.nanoTime() <= 0) {
                    run.add(tasks.remove(i));
                    due.remove(i);
                } else {
                    i++;
                }
            }
            run.forEach(Runnable::run);
            return run.size();
        }

        /** Moves the clock to the next task's due time and runs what is due then. */
        int runNext() {
            if (tasks.isEmpty()) {
                return 0;
            }
            long first = Long.MAX_VALUE;
            for (long d : due) {
                first = Math.min(first, d - clock.nanoTime());
            }
            clock.advanceNanos(Math.max(0, first));
            return runDue();
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

    /**
     * A watchdog on a manual clock and scheduler; the watches made here count overruns together.
     */
    private static final class Rig {
        final ManualClock clock = new ManualClock();
        final ManualScheduler scheduler = new ManualScheduler(clock);
        final TurnWatchdog dog = new TurnWatchdog(scheduler, clock, PERIOD);
        final CountingOverrun overrun = new CountingOverrun();

        /** A watch with {@code budget}, attached to the watchdog. */
        TurnWatch watch(PollBudget budget) {
            TurnWatch w = new TurnWatch(budget, clock, overrun);
            w.attach(dog);
            return w;
        }
    }

    @Test
    void sixteenQuietReadersScheduleNothing() {
        Rig rig = new Rig();
        List<TurnWatch> watches = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            TurnWatch w = rig.watch(PollBudget.defaults());
            watches.add(w);
        }
        assertEquals(0, rig.scheduler.pending());
        // Each polls once, finds nothing and goes quiet: one check is scheduled, then none.
        for (TurnWatch w : watches) {
            w.turnStarted();
            w.turnEnded();
            w.quiet();
        }
        assertEquals(1, rig.scheduler.pending(), "one member-wide check, not one per reader");
        assertEquals(
                HARD, rig.scheduler.delays.get(0), "no turn can overrun before the hard budget");
        assertEquals(1, rig.scheduler.runNext());
        assertEquals(0, rig.scheduler.pending(), "no periodic work while all readers are quiet");
        assertFalse(rig.dog.armed());
        assertEquals(0, rig.dog.checks(), "quiet readers are not even checked");
    }

    /**
     * A reader on slow data runs one short turn per row and goes quiet: 20 rows/s for 10 s cost the
     * watchdog about one wake-up per hard budget (1 s), not one per period (100 ms).
     */
    @Test
    void aReaderOnSlowDataCostsAboutOneCheckPerHardBudget() {
        Rig rig = new Rig();
        TurnWatch w = rig.watch(PollBudget.defaults());
        for (int row = 0; row < 200; row++) {
            w.turnStarted();
            rig.clock.advanceNanos(20_000);
            w.turnEnded();
            w.quiet();
            rig.clock.advanceMillis(50);
            rig.scheduler.runDue();
        }
        assertTrue(
                rig.dog.ticks() <= 11,
                "one wake-up per hard budget at most, was " + rig.dog.ticks());
        assertTrue(rig.dog.ticks() >= 5, "still watched: " + rig.dog.ticks());
        assertTrue(
                rig.scheduler.delays.stream().allMatch(d -> d == HARD), "" + rig.scheduler.delays);
        assertEquals(0, rig.overrun.hard.get());
    }

    @Test
    void aTurnThatHangsAfterAQuietSpellIsWokenAtTheHardBudgetNotAPeriodLater() {
        Rig rig = new Rig();
        TurnWatch w = rig.watch(PollBudget.defaults());
        // A few short turns, then one that hangs 10 ms after the last quiet.
        for (int i = 0; i < 3; i++) {
            w.turnStarted();
            w.turnEnded();
            w.quiet();
            rig.clock.advanceMillis(10);
        }
        long start = rig.clock.nanoTime();
        w.turnStarted();
        while (rig.overrun.hard.get() == 0) {
            assertTrue(rig.scheduler.runNext() > 0, "a hanging turn stays watched");
        }
        assertEquals(HARD, rig.clock.nanoTime() - start, "woken exactly at poll.hard-duration");
        while (rig.overrun.cancelled.get() == 0) {
            assertTrue(rig.scheduler.runNext() > 0);
        }
        assertEquals(CANCEL, rig.clock.nanoTime() - start, "failed at poll.cancellation-timeout");
        assertEquals(1, rig.overrun.hard.get(), "woken once per turn");
        assertEquals(1, rig.scheduler.pending(), "a stuck turn stays watched");
    }

    /**
     * With a long {@code poll.hard-duration} the first check still comes within a second: it is
     * what starts the host's interrupt check (the long-turn listener) for a hanging turn.
     */
    @Test
    void aLongHardBudgetStillHasAHangingTurnSeenWithinASecond() {
        Rig rig = new Rig();
        long hard = TimeUnit.SECONDS.toNanos(60);
        PollBudget budget = new PollBudget(64, 1 << 20, 1, hard, 2 * hard, 1);
        TurnWatch w = rig.watch(budget);
        AtomicInteger longTurns = new AtomicInteger();
        w.onLongTurn(longTurns::incrementAndGet);
        long start = rig.clock.nanoTime();
        w.turnStarted();
        assertEquals(1, rig.scheduler.runNext());
        assertEquals(1, longTurns.get());
        assertEquals(TimeUnit.SECONDS.toNanos(1), rig.clock.nanoTime() - start);
        assertEquals(0, rig.overrun.hard.get());
        assertEquals(1, rig.scheduler.runNext());
        assertEquals(hard, rig.clock.nanoTime() - start, "woken exactly at the hard budget");
        assertEquals(1, rig.overrun.hard.get());
        assertEquals(2, rig.dog.ticks(), "no check in between");
    }

    @Test
    void turnsBackToBackAreCheckedEveryPeriodUntilTheReaderGoesQuiet() {
        Rig rig = new Rig();
        TurnWatch busy = rig.watch(PollBudget.defaults());
        TurnWatch idle = rig.watch(PollBudget.defaults());
        busy.turnStarted();
        busy.turnEnded();
        // Turns of 1 ms back to back until the first check, at the hard budget.
        while (rig.dog.ticks() == 0) {
            rig.clock.advanceMillis(1);
            busy.turnStarted();
            rig.scheduler.runDue();
            busy.turnEnded();
        }
        assertEquals(HARD, rig.scheduler.delays.get(0));
        assertEquals(PERIOD, rig.scheduler.delays.get(1), "a later turn is timed from sight");
        // The next turn hangs: a periodic check sees it and it is woken a hard budget later.
        busy.turnStarted();
        long start = rig.clock.nanoTime();
        while (rig.overrun.hard.get() == 0) {
            assertEquals(1, rig.scheduler.runNext());
        }
        long late = rig.clock.nanoTime() - start - HARD;
        assertTrue(late >= 0 && late <= PERIOD, "at most one period late: " + late);
        assertEquals(rig.dog.ticks(), rig.dog.checks(), "only the active reader was checked");
        busy.turnEnded();
        busy.quiet();
        assertEquals(1, rig.scheduler.runNext());
        assertEquals(0, rig.scheduler.pending(), "disarmed");
    }

    /**
     * The long-turn listener (the host's interrupt check) hears only of turns a check found
     * running: short turns, however many, cost it nothing.
     */
    @Test
    void onlyATurnACheckFindsRunningIsReportedAsLong() {
        Rig rig = new Rig();
        TurnWatch w = rig.watch(PollBudget.defaults());
        AtomicInteger longTurns = new AtomicInteger();
        w.onLongTurn(longTurns::incrementAndGet);
        // Slow data: many short turns between two checks, each ended before the check.
        for (int i = 0; i < 50; i++) {
            w.turnStarted();
            w.turnEnded();
            if (i % 2 == 0) {
                w.quiet();
            }
            rig.clock.advanceMillis(10);
        }
        rig.scheduler.runNext();
        assertEquals(0, longTurns.get(), "no check found a turn running");
        w.turnStarted();
        rig.scheduler.runNext();
        assertEquals(1, longTurns.get(), "found running");
        assertTrue(w.turnRunning());
        rig.scheduler.runNext();
        assertEquals(2, longTurns.get(), "reported at every check while it runs");
        w.turnEnded();
        assertFalse(w.turnRunning());
        rig.scheduler.runNext();
        assertEquals(2, longTurns.get());
    }

    @Test
    void aDetachedReaderIsNoLongerChecked() {
        Rig rig = new Rig();
        TurnWatch w = rig.watch(PollBudget.defaults());
        w.turnStarted();
        w.detach();
        assertEquals(0, rig.dog.activeReaders());
        rig.scheduler.runNext();
        assertEquals(0, rig.dog.checks());
        assertFalse(rig.dog.armed());
    }

    @Test
    void aReaderLoopThatFindsNothingLeavesTheWatchdogIdle() throws Exception {
        LoopHarness h = new LoopHarness();
        ManualScheduler scheduler = new ManualScheduler(h.clock);
        TurnWatchdog dog = new TurnWatchdog(scheduler, h.clock, PERIOD);
        h.loop.turnWatch().attach(dog);
        h.loop.start(0);
        h.loop.runOnce();
        assertEquals(1, h.loop.metrics().pollTurns());
        assertEquals(0, dog.activeReaders(), "NOTHING_AVAILABLE made the reader quiet");
        scheduler.runNext();
        assertEquals(0, scheduler.pending());
        // A busy reader stays watched across turns.
        h.reader.onPoll = (out, ctx) -> PollStatus.MORE_AVAILABLE;
        h.reader.available.complete(null);
        h.mailbox.signalAvailable();
        h.loop.runOnce();
        h.loop.runOnce();
        assertEquals(1, dog.activeReaders());
        assertEquals(1, scheduler.pending());
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
                            NanoClock.SYSTEM,
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
