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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;

/**
 * The watchdog's view of one reader attempt's poll turns: whether a turn is running, since when,
 * and what to do when it runs past the hard budget or the cancellation timeout. The turn
 * bookkeeping is cheap enough for every turn; the member-wide {@link TurnWatchdog} checks a reader
 * only while it is active (from its first turn after being quiet until it is quiet again: a turn
 * reported {@code NOTHING_AVAILABLE} or end of input, or the attempt ended), a flag the driver
 * raises and lowers, and is told only when it is raised, so it has no periodic work while every
 * reader idles. (Names: a {@code TurnWatch} is one attempt's, the {@code TurnWatchdog} the member's
 * timer over them, and Zeta's {@code InterruptWatch} the member's interrupt checks a long turn
 * switches on; they are kept apart because each has a different owner and thread.)
 *
 * <p>How turns are timed. The first turn of an active spell is timed from its start, read once when
 * the reader becomes active, and needs its first check only when it reaches the hard budget or
 * {@value #FIRST_LOOK_MAX_MILLIS} ms, whichever comes first (the cap starts the host's interrupt
 * check in time when {@code poll.hard-duration} is long); the budget and the cancellation timeout
 * of such a turn are acted on when they fall due. A reader on slow data runs one such turn per
 * wake-up, so it costs the watchdog about one check per {@code poll.hard-duration} however often
 * its rows come, where a check every period cost a wake-up of the watchdog's thread ten times a
 * second. A later turn of turns back to back is timed from the first check that sees it running,
 * with a check every watchdog period, and acted on at most one period late: reading the clock at
 * every turn is measurable against cheap records.
 *
 * <p>Threading: {@link #turnStarted}, {@link #turnEnded}, {@link #quiet} — the loop's driving
 * thread only (one at a time, as for {@link ReaderEventLoop}); {@link #check} — any thread,
 * serialized by this object's monitor (the watchdog; tests), and with it the {@link #onLongTurn}
 * listener; {@link #attach}/{@link #detach} — any thread (the host, at open and close); {@link
 * #isActive} — any thread, a volatile read. The turn epoch is bumped with ordered stores only; the
 * start of an active spell is written before the epoch of its first turn, so a check that reads
 * that epoch also reads that start (or a later one, which only makes it act later).
 */
public final class TurnWatch {
    /** {@link #check} asks to be checked again within the watchdog's period. */
    public static final long EVERY_PERIOD = -1;

    /** The latest first check of a reader's first turn after being quiet. */
    static final long FIRST_LOOK_MAX_MILLIS = 1000;

    private static final long FIRST_LOOK_MAX_NANOS =
            TimeUnit.MILLISECONDS.toNanos(FIRST_LOOK_MAX_MILLIS);

    /** What the loop does when a turn overruns; called on the checking thread. */
    interface Overrun {
        /** Past {@code poll.hard-duration}: wake the reader, once per turn. */
        void hardBudgetExceeded();

        /** Past {@code poll.cancellation-timeout}: fail the attempt; the host's hook runs. */
        void cancellationTimeout(long elapsedNanos);
    }

    private final PollBudget budget;
    private final NanoClock clock;
    private final Overrun overrun;

    // Odd while a poll turn runs.
    private final AtomicLong turnEpoch = new AtomicLong();
    private long turnEpochLocal;
    // The first turn of the current active spell (odd) and when it started, written by the driver
    // before that turn's epoch.
    private volatile long spellEpoch;
    private volatile long spellStartNanos;
    // Written by the driver only (its first turn after being quiet, and quiet), read by the
    // watchdog's checks.
    private volatile boolean active;
    private volatile TurnWatchdog watchdog;
    // Told on the checking thread of a turn a check found running (the host's interrupt check).
    private volatile Runnable longTurnListener;

    // Guarded by this (check is synchronized): the turn being timed and since when.
    @GuardedBy("this")
    private long watchedEpoch;

    @GuardedBy("this")
    private long watchedSince;

    @GuardedBy("this")
    private boolean watchedWoken;

    TurnWatch(PollBudget budget, NanoClock clock, Overrun overrun) {
        this.budget = budget;
        this.clock = clock;
        this.overrun = overrun;
    }

    /** Driver: a poll turn begins. */
    void turnStarted() {
        long epoch = ++turnEpochLocal;
        if (active) {
            turnEpoch.lazySet(epoch);
            return;
        }
        spellStartNanos = clock.nanoTime();
        spellEpoch = epoch;
        turnEpoch.lazySet(epoch);
        active = true;
        TurnWatchdog w = watchdog;
        if (w != null) {
            w.activated(firstCheckNanos());
        }
    }

    /** How long after its start the first turn of an active spell needs its first check. */
    long firstCheckNanos() {
        return Math.min(budget.hardNanos(), FIRST_LOOK_MAX_NANOS);
    }

    /** Driver: the turn ended (returned or threw). */
    void turnEnded() {
        turnEpoch.lazySet(++turnEpochLocal);
    }

    /**
     * Driver: no turn will run until something wakes the reader (nothing available, end of input,
     * the attempt ended): the watchdog may stop checking it.
     */
    void quiet() {
        if (active) {
            active = false;
        }
    }

    /** True from the reader's first turn after being quiet until it is quiet again. Any thread. */
    boolean isActive() {
        return active;
    }

    /**
     * Runs {@code l} on the checking thread whenever a check finds a poll turn running, so that
     * work needed only for long turns (the host's interrupt check) starts then rather than with
     * every turn: a turn on slow data lasts microseconds, and starting a timer for each would cost
     * the driver a scheduling call and the watchdog thread a wake-up, many times a second per
     * reader. Set before the first turn; {@code l} must be short and non-blocking.
     */
    public void onLongTurn(Runnable l) {
        longTurnListener = l;
    }

    /**
     * Watches this reader's turns with {@code w} from now on. A reader that is active at this point
     * is checked within the watchdog's period; the host attaches before the first turn.
     */
    public void attach(TurnWatchdog w) {
        watchdog = w;
        w.watch(this);
    }

    /** Stops watching (the host closes the reader). Idempotent. */
    public void detach() {
        TurnWatchdog w = watchdog;
        watchdog = null;
        if (w != null) {
            w.unwatch(this);
        }
    }

    /** True while a turn runs (the epoch is odd); any thread, a relaxed read. */
    public boolean turnRunning() {
        return (turnEpoch.get() & 1) == 1;
    }

    /**
     * One check. The first turn of an active spell is timed from its start, a later one from the
     * first check that sees it running. Past the hard budget the reader is woken once; past the
     * cancellation timeout the attempt is failed.
     *
     * @return how long until this reader needs its next check, in nanoseconds, or {@link
     *     #EVERY_PERIOD} if it needs one within the watchdog's period (a turn timed from sight, or
     *     none running now in a spell of turns back to back)
     */
    public synchronized long check() {
        long epoch = turnEpoch.get();
        long now = clock.nanoTime();
        if ((epoch & 1) == 0) {
            return EVERY_PERIOD;
        }
        Runnable l = longTurnListener;
        if (l != null) {
            l.run();
        }
        boolean firstOfSpell = epoch == spellEpoch;
        if (epoch != watchedEpoch) {
            watchedEpoch = epoch;
            watchedSince = firstOfSpell ? spellStartNanos : now;
            watchedWoken = false;
        }
        long elapsed = now - watchedSince;
        if (elapsed >= budget.hardNanos() && !watchedWoken) {
            watchedWoken = true;
            overrun.hardBudgetExceeded();
        }
        if (elapsed >= budget.cancellationNanos()) {
            overrun.cancellationTimeout(elapsed);
            return EVERY_PERIOD;
        }
        if (!firstOfSpell) {
            return EVERY_PERIOD;
        }
        long due = watchedWoken ? budget.cancellationNanos() : budget.hardNanos();
        return Math.max(0, due - elapsed);
    }
}
