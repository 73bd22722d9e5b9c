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

import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;

/**
 * The watchdog's view of one reader attempt's poll turns: whether a turn is running, since when a
 * check first saw it, and what to do when it runs past the hard budget or the cancellation timeout.
 * The turn bookkeeping is cheap enough for every turn; a member-wide {@link TurnWatchdog} is told
 * only when a reader becomes active (its first turn after being quiet) or quiet (a turn reported
 * {@code NOTHING_AVAILABLE} or end of input, or the attempt ended), so it has no periodic work
 * while every reader idles. (Names: a {@code TurnWatch} is one attempt's, the {@code TurnWatchdog}
 * the member's timer over them, and Zeta's {@code InterruptWatch} the member's interrupt checks a
 * long turn switches on; they are kept apart because each has a different owner and thread.)
 *
 * <p>Threading: {@link #turnStarted}, {@link #turnEnded}, {@link #quiet} — the loop's driving
 * thread only (one at a time, as for {@link ReaderEventLoop}); {@link #check} — any thread,
 * serialized by this object's monitor (the watchdog; tests), and with it the {@link #onLongTurn}
 * listener; {@link #attach}/{@link #detach} — any thread (the host, at open and close). The turn
 * epoch is bumped with ordered stores only (a volatile write or a clock read per turn is measurable
 * against cheap records); a check therefore times a turn from the first check that sees it, and
 * acts at most one watchdog period late.
 */
public final class TurnWatch {
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
    // Driver only: told the watchdog it is active and not yet that it is quiet.
    private boolean active;
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
        turnEpoch.lazySet(++turnEpochLocal);
        if (!active) {
            active = true;
            TurnWatchdog w = watchdog;
            if (w != null) {
                w.activate(this);
            }
        }
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
            TurnWatchdog w = watchdog;
            if (w != null) {
                w.deactivate(this);
            }
        }
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
     * is picked up by its next {@link #turnStarted} after being quiet; the host attaches before the
     * first turn, so in practice none is missed.
     */
    public void attach(TurnWatchdog w) {
        watchdog = w;
    }

    /** Stops watching (the host closes the reader). Idempotent. */
    public void detach() {
        TurnWatchdog w = watchdog;
        watchdog = null;
        if (w != null) {
            w.deactivate(this);
        }
    }

    /** True while a turn runs (the epoch is odd); any thread, a relaxed read. */
    public boolean turnRunning() {
        return (turnEpoch.get() & 1) == 1;
    }

    /**
     * One check: a turn is timed from the first check that sees it running, so with checks every
     * period a budget is acted on at most one period late. Past the hard budget the reader is woken
     * once; past the cancellation timeout the attempt is failed.
     */
    public synchronized void check() {
        long epoch = turnEpoch.get();
        long now = clock.nanoTime();
        if ((epoch & 1) == 0) {
            return;
        }
        Runnable l = longTurnListener;
        if (l != null) {
            l.run();
        }
        if (epoch != watchedEpoch) {
            watchedEpoch = epoch;
            watchedSince = now;
            watchedWoken = false;
            return;
        }
        long elapsed = now - watchedSince;
        if (elapsed >= budget.hardNanos() && !watchedWoken) {
            watchedWoken = true;
            overrun.hardBudgetExceeded();
        }
        if (elapsed >= budget.cancellationNanos()) {
            overrun.cancellationTimeout(elapsed);
        }
    }
}
