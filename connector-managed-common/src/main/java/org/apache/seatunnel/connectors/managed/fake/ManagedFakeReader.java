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

package org.apache.seatunnel.connectors.managed.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * Threading: the owner is the thread that polls ({@link #pollNext} on Lane B, {@link
 * #pollNextManaged} on Lane A; the engine's task thread either way). On Lane B the engine also
 * calls {@link #addSplits} and {@link #handleNoMoreSplits} on Hazelcast operation threads and
 * {@link #snapshotState} on another task pool thread while holding the checkpoint lock, all
 * concurrently with a poll; on Lane A the runtime serializes every call except {@link #wakeup()}.
 * So all split state is guarded by {@code stateLock}, which is only held for short, non-blocking
 * sections (never across a wait or {@code collect}), and the wait signal and the availability
 * future are guarded by a separate monitor {@code signal} so that {@link #wakeup()} never blocks
 * behind a poll turn. Lock order: checkpoint lock, then {@code stateLock}, then {@code signal}.
 *
 * <p>The reader of the managed FakeSource, with both lanes (see the package documentation).
 *
 * <p>Slow data is modelled per reader: with {@code slow.data.millis > 0}, data arrives in chunks of
 * {@value #CHUNK_ROWS} rows and the next chunk is "there" only at a {@code dataReadyAt} time on the
 * injected clock, drawn when the previous chunk is used up. A rate limit ({@code rows.per.second})
 * is a token bucket on the same clock.
 *
 * <p>No lost wakeup for {@link #isAvailable()}: readiness is evaluated and the pending future is
 * installed inside one {@code stateLock} section; every event that can make data ready ({@code
 * addSplits}, {@code handleNoMoreSplits}) changes state inside {@code stateLock} and completes the
 * pending future afterwards, and {@link #wakeup()} completes it too. So an event either happens
 * before the readiness check (the caller gets a completed future) or after the future is installed
 * (the event completes it). Time-based readiness (a chunk's {@code dataReadyAt} passing, rate
 * tokens refilling) needs no timer: every {@code isAvailable()} call re-reads the clock and returns
 * a completed future once the time has come, and every poll attempt that finds data ready completes
 * the pending future. A future handed out before the time has come is completed by a timer at that
 * time (the SPI's contract: after {@code NOTHING_AVAILABLE} the loop polls again only when this
 * future completes or a command arrives), or earlier by a poll attempt or a wakeup. Readers built
 * with an injected clock get no timer: their tests drive time and poll themselves.
 */
public final class ManagedFakeReader
        implements ManagedSourceReader<SeaTunnelRow, ManagedFakeSplit> {

    /** Rows per legacy {@code pollNext} batch and per slow-data chunk, like today's readers. */
    public static final int CHUNK_ROWS = 64;

    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    private final SourceReader.Context context;
    private final ManagedFakeConfig config;
    private final LongSupplier clock;
    private final String tableId;

    private final Object stateLock = new Object();
    // guarded by stateLock
    private final List<Cursor> cursors = new ArrayList<>();
    private final Random random;
    private int roundRobin;
    private boolean noMoreSplits;
    private boolean endSignalled;
    private long chunkRemaining;
    private boolean chunkPending;
    private long dataReadyAtNanos;
    private double rateTokens = 1.0;
    private long rateTokensAtNanos = Long.MIN_VALUE;
    private long rowsEmitted;

    private final Object signal = new Object();
    // guarded by signal
    private boolean wakeupPending;
    private CompletableFuture<Void> availability;
    private ScheduledFuture<?> availabilityTimer;

    /** Null when time is driven by the caller (an injected test clock). */
    private final ScheduledExecutorService timer;

    public ManagedFakeReader(SourceReader.Context context, ManagedFakeConfig config) {
        this(
                context,
                config,
                System::nanoTime,
                new Random(System.nanoTime() ^ (31L * context.getIndexOfSubtask())),
                Timer.INSTANCE);
    }

    /**
     * @param clock the time source for {@code dataReadyAt}, rate tokens and deadlines; on Lane A it
     *     must be the runtime clock of {@link PollContext#nanoTime()} (both are {@code
     *     System.nanoTime} in production; tests inject one fake clock into both)
     * @param random the jitter source, injectable for deterministic tests
     */
    public ManagedFakeReader(
            SourceReader.Context context,
            ManagedFakeConfig config,
            LongSupplier clock,
            Random random) {
        this(context, config, clock, random, null);
    }

    private ManagedFakeReader(
            SourceReader.Context context,
            ManagedFakeConfig config,
            LongSupplier clock,
            Random random,
            ScheduledExecutorService timer) {
        this.context = context;
        this.config = config;
        this.clock = clock;
        this.random = random;
        this.timer = timer;
        this.tableId = ManagedFakeRows.TABLE_PATH.toString();
    }

    /**
     * Threading: one daemon thread shared by every reader of this JVM; its tasks only complete a
     * future. Lazily created, never shut down (a daemon with nothing scheduled costs nothing).
     */
    private static final class Timer {
        static final ScheduledExecutorService INSTANCE = create();

        private static ScheduledExecutorService create() {
            ScheduledThreadPoolExecutor e =
                    new ScheduledThreadPoolExecutor(
                            1,
                            r -> {
                                Thread t = new Thread(r, "managed-fake-availability-timer");
                                t.setDaemon(true);
                                return t;
                            });
            // Most timers are cancelled by an earlier poll, wakeup or close.
            e.setRemoveOnCancelPolicy(true);
            return e;
        }
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public void open() {}

    @Override
    public void close() {
        // Nothing to release; end any wait so a closing task thread is not held up.
        wakeup();
    }

    // ---------------------------------------------------------------- Lane B (stock engine)

    /**
     * Today's reader shape: one batch of up to {@value #CHUNK_ROWS} rows inside {@code synchronized
     * (output.getCheckpointLock())}. With slow data it first waits {@code slow.data.millis}
     * (jittered) <b>while holding the checkpoint lock</b>, as today's JDBC and HTTP readers do
     * around their query, so a barrier waits behind it (apache/seatunnel#5694).
     */
    @Override
    public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
        synchronized (output.getCheckpointLock()) {
            boolean hasWork;
            synchronized (stateLock) {
                hasWork = hasUnfinishedSplit();
            }
            if (config.slowDataMillis() > 0 && hasWork) {
                long delay;
                synchronized (stateLock) {
                    delay = slowDelayNanos();
                }
                // Deliberately inside the checkpoint lock: this is the Lane B failure mode.
                awaitSignal(clock.getAsLong() + delay);
            }
            emit(output, null, CHUNK_ROWS, false);
            boolean signalEnd;
            synchronized (stateLock) {
                signalEnd = endOfInput() && !endSignalled;
                if (signalEnd) {
                    endSignalled = true;
                }
            }
            if (signalEnd) {
                // Like today's readers: the end is signalled from inside the poll, under the lock.
                context.signalNoMoreElement();
            }
        }
    }

    // ---------------------------------------------------------------- Lane A (managed)

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext pollContext)
            throws Exception {
        long readyAt;
        long now = clock.getAsLong();
        synchronized (stateLock) {
            if (endOfInput()) {
                return PollStatus.END_OF_INPUT;
            }
            if (!hasUnfinishedSplit()) {
                // Waiting for splits or for no-more-splits: only a command can change that, and
                // on Lane A commands never arrive during a turn, so waiting here is pointless.
                return PollStatus.NOTHING_AVAILABLE;
            }
            refresh(now);
            readyAt = nextReadyAt(now);
        }
        if (readyAt > now) {
            // "Not yet there": wait for the data, the deadline or a wakeup, whichever is first.
            awaitSignal(Math.min(readyAt, pollContext.deadlineNanos()));
            synchronized (stateLock) {
                long after = clock.getAsLong();
                refresh(after);
                if (nextReadyAt(after) > after) {
                    return PollStatus.NOTHING_AVAILABLE;
                }
            }
        }
        // Data is there now: a host waiting on an older availability future may go.
        completeAvailability();
        emit(output, pollContext, pollContext.remainingRecords(), true);
        synchronized (stateLock) {
            if (endOfInput()) {
                return PollStatus.END_OF_INPUT;
            }
            long t = clock.getAsLong();
            refresh(t);
            return hasUnfinishedSplit() && nextReadyAt(t) <= t
                    ? PollStatus.MORE_AVAILABLE
                    : PollStatus.NOTHING_AVAILABLE;
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        synchronized (stateLock) {
            long now = clock.getAsLong();
            if (endOfInput()) {
                return CompletableFuture.completedFuture(null);
            }
            long readyAt = Long.MAX_VALUE;
            if (hasUnfinishedSplit()) {
                refresh(now);
                readyAt = nextReadyAt(now);
                if (readyAt <= now) {
                    return CompletableFuture.completedFuture(null);
                }
            }
            synchronized (signal) {
                if (availability == null || availability.isDone()) {
                    availability = new CompletableFuture<>();
                }
                if (timer != null && readyAt != Long.MAX_VALUE && availabilityTimer == null) {
                    // Time-gated data (slow data, rate limit): nothing else would complete the
                    // future when the time comes, and the loop waits for exactly that.
                    availabilityTimer =
                            timer.schedule(
                                    this::completeAvailability,
                                    readyAt - now,
                                    TimeUnit.NANOSECONDS);
                }
                return availability;
            }
        }
    }

    @Override
    public void wakeup() {
        CompletableFuture<Void> pending;
        synchronized (signal) {
            wakeupPending = true;
            signal.notifyAll();
            pending = availability;
            availability = null;
            cancelTimer();
        }
        if (pending != null) {
            pending.complete(null);
        }
    }

    // ---------------------------------------------------------------- splits and state

    @Override
    public void addSplits(List<ManagedFakeSplit> splits) {
        synchronized (stateLock) {
            for (ManagedFakeSplit split : splits) {
                if (find(split.splitNumber()) != null) {
                    // A retried delivery: keep the cursor we have, it is ahead or equal.
                    continue;
                }
                cursors.add(new Cursor(split.splitNumber(), split.offset()));
            }
        }
        completeAvailability();
    }

    @Override
    public void handleNoMoreSplits() {
        synchronized (stateLock) {
            noMoreSplits = true;
        }
        completeAvailability();
    }

    /** Copies of every assigned split (finished ones included) with the next offset to read. */
    @Override
    public List<ManagedFakeSplit> snapshotState(long checkpointId) {
        ManagedFakeProbe.readerSnapshot(checkpointId);
        synchronized (stateLock) {
            List<ManagedFakeSplit> copies = new ArrayList<>(cursors.size());
            for (Cursor c : cursors) {
                copies.add(new ManagedFakeSplit(c.splitNumber, c.next));
            }
            return copies;
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        // Nothing to commit; repeated notifications (after a restore) are harmless.
    }

    /**
     * Records a {@link ManagedFakeEvent}'s receipt for its run; one addressed to another subtask is
     * recorded under {@code -1 - thisSubtask}, so a misrouted event is visible.
     */
    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {
        if (sourceEvent instanceof ManagedFakeEvent) {
            ManagedFakeEvent e = (ManagedFakeEvent) sourceEvent;
            int mine = context.getIndexOfSubtask();
            ManagedFakeFaults.recordEvent(e.runId(), e.targetSubtask() == mine ? mine : -1 - mine);
        }
    }

    // ---------------------------------------------------------------- internals

    /**
     * Emits up to {@code limit} rows, fewer if the data runs out or the poll context asks to yield.
     * Each row is produced and its cursor advanced inside {@code stateLock}, then collected outside
     * it, so a blocked {@code collect} never blocks {@code addSplits} or {@code wakeup}.
     */
    private int emit(
            Collector<SeaTunnelRow> output, PollContext pollContext, int limit, boolean chunked) {
        int emitted = 0;
        while (emitted < limit) {
            if (pollContext != null
                    && (pollContext.shouldYield()
                            || pollContext.remainingRecords() <= 0
                            || pollContext.remainingBytes() <= 0)) {
                break;
            }
            SeaTunnelRow row;
            long dueNanos = Long.MIN_VALUE;
            synchronized (stateLock) {
                long now = clock.getAsLong();
                if (chunked) {
                    refresh(now);
                    if (config.slowDataMillis() > 0 && chunkRemaining <= 0) {
                        break;
                    }
                } else {
                    refillRate(now);
                }
                if (config.rowsPerSecond() > 0 && rateTokens < 1.0) {
                    break;
                }
                injectRowFault();
                row = nextRow();
                if (row == null) {
                    break;
                }
                if (chunked && config.slowDataMillis() > 0) {
                    chunkRemaining--;
                }
                if (config.rowsPerSecond() > 0) {
                    // The token this row spends accrued (rateTokens - 1) token-periods ago.
                    dueNanos =
                            now
                                    - (long)
                                            ((rateTokens - 1.0)
                                                    * TimeUnit.SECONDS.toNanos(1)
                                                    / config.rowsPerSecond());
                    rateTokens -= 1.0;
                }
            }
            output.collect(row);
            if (dueNanos != Long.MIN_VALUE) {
                ManagedFakeProbe.rowEmitted(dueNanos);
            }
            emitted++;
        }
        return emitted;
    }

    /**
     * The injected reader fault ({@code fail.once.at.row}): throws instead of emitting this
     * attempt's N-th row, once per fault id in this JVM, so the restored attempt reads on. Under
     * stateLock, before any state changes.
     */
    private void injectRowFault() {
        long at = config.failOnceAtRow();
        if (at >= 0
                && rowsEmitted >= at
                && !config.faultId().isEmpty()
                && hasUnfinishedSplit()
                && ManagedFakeFaults.fireOnce(config.faultId() + "/reader")) {
            throw new IllegalStateException(
                    "ManagedFake injected reader failure at row "
                            + rowsEmitted
                            + " of subtask "
                            + context.getIndexOfSubtask()
                            + " (fault.id "
                            + config.faultId()
                            + ")");
        }
    }

    /** Round-robin over unfinished splits so unbounded splits all make progress. */
    private SeaTunnelRow nextRow() {
        int n = cursors.size();
        for (int i = 0; i < n; i++) {
            Cursor c = cursors.get((roundRobin + i) % n);
            if (!c.finished()) {
                roundRobin = (roundRobin + i + 1) % n;
                long seq = c.next++;
                rowsEmitted++;
                return ManagedFakeRows.row(
                        c.splitNumber, config.splitCount(), seq, tableId, config.datesColumn());
            }
        }
        return null;
    }

    /** Advances the slow-data chunk and the rate bucket to {@code now}. Under stateLock. */
    private void refresh(long now) {
        refillRate(now);
        if (config.slowDataMillis() <= 0) {
            return;
        }
        if (chunkRemaining <= 0 && !chunkPending && hasUnfinishedSplit()) {
            chunkPending = true;
            dataReadyAtNanos = now + slowDelayNanos();
        }
        if (chunkPending && now - dataReadyAtNanos >= 0) {
            chunkPending = false;
            chunkRemaining = CHUNK_ROWS;
        }
    }

    private void refillRate(long now) {
        long rate = config.rowsPerSecond();
        if (rate <= 0) {
            return;
        }
        if (rateTokensAtNanos != Long.MIN_VALUE && now > rateTokensAtNanos) {
            double cap = Math.max(1.0, (double) rate);
            rateTokens =
                    Math.min(
                            cap,
                            rateTokens
                                    + (now - rateTokensAtNanos)
                                            * (double) rate
                                            / TimeUnit.SECONDS.toNanos(1));
        }
        rateTokensAtNanos = now;
    }

    /** When data is there at the earliest; {@code <= now} means now. Under stateLock. */
    private long nextReadyAt(long now) {
        long at = now;
        if (config.slowDataMillis() > 0 && chunkRemaining <= 0 && chunkPending) {
            at = Math.max(at, dataReadyAtNanos);
        }
        long rate = config.rowsPerSecond();
        if (rate > 0 && rateTokens < 1.0) {
            long refill = (long) Math.ceil((1.0 - rateTokens) * TimeUnit.SECONDS.toNanos(1) / rate);
            at = Math.max(at, now + Math.max(1L, refill));
        }
        return at;
    }

    private long slowDelayNanos() {
        long base = TimeUnit.MILLISECONDS.toNanos(config.slowDataMillis());
        if (!config.slowDataJitter()) {
            return base;
        }
        // Uniform in [0.5x, 1.5x].
        return (long) (base * (0.5 + random.nextDouble()));
    }

    /**
     * Waits on {@code signal} until the clock reaches {@code untilNanos} or {@link #wakeup()} is
     * called, whichever is first; a wakeup that came earlier ends the next wait at once. A bounded
     * monitor wait, never a sleep, so a wakeup or an interrupt (cancel) ends it promptly.
     *
     * @return true if a wakeup ended the wait
     */
    private boolean awaitSignal(long untilNanos) throws InterruptedException {
        synchronized (signal) {
            while (!wakeupPending) {
                long remaining = untilNanos - clock.getAsLong();
                if (remaining <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(signal, remaining);
            }
            wakeupPending = false;
            return true;
        }
    }

    private void completeAvailability() {
        CompletableFuture<Void> pending;
        synchronized (signal) {
            pending = availability;
            availability = null;
            cancelTimer();
        }
        if (pending != null) {
            pending.complete(null);
        }
    }

    /** Under signal. */
    private void cancelTimer() {
        if (availabilityTimer != null) {
            // Not interrupting: the timer task may be this very call.
            availabilityTimer.cancel(false);
            availabilityTimer = null;
        }
    }

    private boolean hasUnfinishedSplit() {
        for (Cursor c : cursors) {
            if (!c.finished()) {
                return true;
            }
        }
        return false;
    }

    /** Bounded, told no more splits will come, and every assigned split is read to its end. */
    private boolean endOfInput() {
        return config.bounded() && noMoreSplits && !hasUnfinishedSplit();
    }

    private Cursor find(int splitNumber) {
        for (Cursor c : cursors) {
            if (c.splitNumber == splitNumber) {
                return c;
            }
        }
        return null;
    }

    /** Threading: guarded by the reader's stateLock. The read position of one split. */
    private final class Cursor {
        final int splitNumber;
        long next;

        Cursor(int splitNumber, long next) {
            this.splitNumber = splitNumber;
            this.next = next;
        }

        boolean finished() {
            return config.bounded() && next >= config.rowsPerSplit();
        }
    }
}
