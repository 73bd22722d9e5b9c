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

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * When a reader attempt's loop runs its next poll turn: after a turn that said more is available,
 * after every applied command and barrier, when the reader's availability future completes, and at
 * the latest {@code reader.idle-wait} after a {@code NOTHING_AVAILABLE} turn, so a reader whose
 * future never completes is slow, not stalled. With a linger ({@link PollLinger}) a completed
 * future is acted on no sooner than the linger after that turn (commands still at once), so data
 * that trickles in leaves in fewer turns; an adaptive linger is left out while the last one caught
 * no data (see {@link PollLinger#skipsWhileUseless()}). The signalling side other threads touch is
 * the mailbox's {@link AvailabilitySignal}.
 *
 * <p>Threading: confined to the loop's driving thread (whichever thread drives it, one at a time,
 * as {@link ReaderEventLoop} requires); only the availability future's callback runs elsewhere, and
 * it only signals the {@link AvailabilitySignal}. Not checked per call: it runs per turn.
 */
final class PollScheduler {
    private final ReaderMailbox mailbox;
    private final AvailabilitySignal availability;
    private final NanoClock clock;
    private final PollBudget budget;
    private final ReaderLoopMetrics metrics;
    private final BiConsumer<Void, Throwable> availabilityCallback;

    private boolean pollWanted = true;
    private CompletableFuture<Void> armedFuture;
    // Set by a NOTHING_AVAILABLE turn, cleared by the next turn.
    private boolean awaitingAvailability;
    private long quietSinceNanos;
    // When the first turn after the last NOTHING_AVAILABLE turn started (the reader's last
    // wake-up), whether a signal, a linger's end or data already there at the quiet brought it.
    private long wokeNanos;
    private boolean wakePending;
    // A split, no-more-splits or source event applied since the last NOTHING_AVAILABLE turn.
    private boolean dataCommandSinceQuiet;
    // reader.poll-linger: until the linger deadline availability waits (commands do not); a
    // future already complete at NOTHING_AVAILABLE is remembered for the linger's end.
    private boolean lingering;
    private boolean availableAtLingerEnd;
    // An adaptive linger that ends with no data cost a wake-up and saved none: while the data
    // comes more than a linger apart, the linger is left out (uselessLinger) and the quiet it
    // would have covered (skippedLingerNanos) is what the next data's gap is held against.
    private boolean uselessLinger;
    private long skippedLingerNanos;

    PollScheduler(
            ReaderMailbox mailbox, NanoClock clock, PollBudget budget, ReaderLoopMetrics metrics) {
        this.mailbox = mailbox;
        this.availability = mailbox.availability();
        this.clock = clock;
        this.budget = budget;
        this.metrics = metrics;
        AvailabilitySignal signal = availability;
        this.availabilityCallback = (v, t) -> signal.signal();
        this.wokeNanos = clock.nanoTime();
    }

    /**
     * Whether a poll turn is due now, taking the pending availability (unless a linger holds it)
     * and the {@code reader.idle-wait} re-poll into account. Called once per iteration.
     */
    boolean due() {
        if (lingering && !lingerEnded()) {
            // Availability waits for the linger's end; a command may still have wanted a poll.
        } else if (availability.take()) {
            pollWanted = true;
            if (skippedLingerNanos > 0 && awaitingAvailability) {
                // Data within the skipped linger's length: lingering would have caught it.
                uselessLinger = clock.nanoTime() - quietSinceNanos >= skippedLingerNanos;
                skippedLingerNanos = 0;
            }
        } else if (awaitingAvailability
                && !pollWanted
                && clock.nanoTime() - quietSinceNanos >= budget.idlePollNanos()) {
            // The future may never complete (a reader bug): poll anyway, at reader.idle-wait.
            pollWanted = true;
        }
        return pollWanted;
    }

    /**
     * True once the current linger is over, which it then ends: a future that was already complete
     * is a poll now, and whether the data was there before the end is counted.
     */
    private boolean lingerEnded() {
        if (clock.nanoTime() - availability.lingerDeadline() < 0) {
            return false;
        }
        lingering = false;
        boolean caughtData = availableAtLingerEnd || availability.isPending();
        if (caughtData) {
            metrics.pollsLingered.lazySet(metrics.pollsLingered.get() + 1);
        }
        uselessLinger = !caughtData && budget.linger().skipsWhileUseless();
        if (availableAtLingerEnd) {
            availableAtLingerEnd = false;
            pollWanted = true;
        }
        return true;
    }

    /** Mailbox work the loop acts on now: availability only once a linger is over. */
    boolean pendingWork() {
        return lingering ? mailbox.hasPendingCommands() : mailbox.hasPendingWork();
    }

    /** See {@link ReaderEventLoop#hasWork()}. */
    boolean hasWork() {
        return pollWanted || pendingWork();
    }

    /**
     * See {@link ReaderEventLoop#nanosUntilIdlePoll()}; {@code pollingAllowed} is false when the
     * attempt's lifecycle or a schema change holds poll turns back.
     */
    long nanosUntilIdlePoll(boolean pollingAllowed) {
        if (lingering) {
            return Math.max(0, availability.lingerDeadline() - clock.nanoTime());
        }
        if (!awaitingAvailability || !pollingAllowed) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, quietSinceNanos + budget.idlePollNanos() - clock.nanoTime());
    }

    /** A command, barrier or turn earned the reader a poll. */
    void want() {
        pollWanted = true;
    }

    /** A split, no-more-splits or source event was applied: it may make data available. */
    void dataCommandApplied() {
        dataCommandSinceQuiet = true;
    }

    /** A turn begins; true if it follows a {@code NOTHING_AVAILABLE} turn. */
    boolean turnStarting() {
        boolean afterQuiet = awaitingAvailability;
        awaitingAvailability = false;
        if (wakePending) {
            wakePending = false;
            wokeNanos = clock.nanoTime();
        }
        return afterQuiet;
    }

    /**
     * A turn after {@code NOTHING_AVAILABLE} emitted {@code emitted} records: true if the reader
     * would have stalled without the loop's own re-polls (its future is still incomplete and no
     * command that may bring data came in between). Checked after the turn so a future completed
     * while it ran (a fetch thread racing with the poll) is not reported.
     */
    boolean emittedUnsignalled(long emitted) {
        CompletableFuture<Void> f = armedFuture;
        return emitted > 0 && !dataCommandSinceQuiet && f != null && !f.isDone();
    }

    /** The turn reported end of input or nothing available: no turn until something says so. */
    void quiet() {
        pollWanted = false;
    }

    /**
     * After a {@code NOTHING_AVAILABLE} turn, which emitted rows first or not ({@code
     * turnEmitted}): watch the reader's availability future {@code f} (null or complete: poll
     * again, after the linger if there is one).
     */
    void arm(CompletableFuture<Void> f, boolean turnEmitted) {
        long linger = budget.linger().nanosAfter(turnEmitted, clock.nanoTime() - wokeNanos);
        wakePending = true;
        skippedLingerNanos = 0;
        if (linger > 0 && uselessLinger && f != null && !f.isDone()) {
            skippedLingerNanos = linger;
            linger = 0;
        }
        if (linger > 0) {
            startLinger(f == null || f.isDone(), linger);
        }
        if (f == null || f.isDone()) {
            if (!lingering) {
                pollWanted = true;
            }
            return;
        }
        awaitingAvailability = true;
        quietSinceNanos = clock.nanoTime();
        dataCommandSinceQuiet = false;
        if (f != armedFuture) {
            armedFuture = f;
            f.whenComplete(availabilityCallback);
        }
    }

    /**
     * {@code reader.poll-linger}: rows that become available within the linger after a turn found
     * none wait for its end and are then polled in one turn, which trades that much latency for
     * fewer wake-ups of this thread and the engine's downstream when data trickles in small
     * batches. Data arriving after a longer quiet is polled at once, as without a linger.
     */
    private void startLinger(boolean alreadyAvailable, long lingerNanos) {
        lingering = true;
        availableAtLingerEnd = alreadyAvailable;
        availability.lingerUntil(clock.nanoTime() + lingerNanos);
    }
}
