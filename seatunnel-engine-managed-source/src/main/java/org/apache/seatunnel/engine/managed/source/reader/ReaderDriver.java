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

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drive policy of a reader host, engine-neutral: what one engine call into the reader (Zeta's
 * {@code pollNext}) does with the attempt's loop — how many turns it runs, when it steps aside for
 * an announced barrier or waits for output room (lock released), how long an idle reader waits for
 * a signal before the call returns, and when a call that emitted rows returns. The engine binding
 * supplies only the lock, the between-turn {@link FlowControl} and the final-barrier check; so the
 * model world can run the same policy the engine runs.
 *
 * <p>Threading: {@link #drive} runs on the engine's task thread, one call at a time; it takes the
 * given lock around every loop iteration and releases it between them, so a barrier thread holding
 * the same lock never drives the loop at once. Not bound to one thread with {@code OwnerThread}: an
 * engine may run successive calls of one task on different threads of its pool.
 */
public final class ReaderDriver {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderDriver.class);

    /** How one {@link #drive} call ended; the host ends its engine call accordingly. */
    public enum Outcome {
        /**
         * The call ran its turn cap, its wait ran out (after rows or not), or output room did not
         * come in time.
         */
        RETURNED,
        /** The engine took its final barrier: graceful close offered, controls ran. */
        FINAL_BARRIER,
        /** The attempt terminated: the host throws its failure or cancel. */
        TERMINATED,
        /** The reader reached end of input: the host tells its engine (once). */
        FINISHED,
        /** A schema change is in progress: the engine triggers its checkpoint after the call. */
        SCHEMA_CHANGE
    }

    /**
     * What the host does between turns with the lock released: hand the lock to an announced
     * barrier, and wait for room when the output is full. Driving thread only.
     */
    public interface FlowControl {
        /** Steps aside until an announced barrier was taken (or gave up on it). */
        void awaitAnnouncedBarrier();

        /** True when the last turn ended because the output had no room. */
        boolean outputBlocked();

        /** Waits for output room, at most {@code maxNanos}. */
        void awaitRoom(long maxNanos);

        /** The turn that just ended left work for the next one ({@code leftWork}) or not. */
        void turnEnded(boolean leftWork);

        /** The reader waited for data (or a command) with nothing to do. */
        void readerIdled();

        /**
         * Waits at most {@code maxNanos} for the loop's {@code signal} (a command, availability or
         * an announced barrier), consuming it; lock released. An engine host waits on the signal
         * itself; a simulated host may let its own time pass instead.
         */
        default void awaitSignal(LoopSignal signal, long maxNanos) {
            signal.await(maxNanos);
        }

        /** No flow control: turns run back to back, nothing is waited for between them. */
        FlowControl NONE =
                new FlowControl() {
                    @Override
                    public void awaitAnnouncedBarrier() {}

                    @Override
                    public boolean outputBlocked() {
                        return false;
                    }

                    @Override
                    public void awaitRoom(long maxNanos) {}

                    @Override
                    public void turnEnded(boolean leftWork) {}

                    @Override
                    public void readerIdled() {}
                };
    }

    /**
     * Several turns per engine call spread the engine's per-call work over more rows: at the
     * default 64 records per turn, up to 1,024 rows a call, what one Lane B call of the managed
     * readers emits.
     */
    public static final int MAX_TURNS_PER_CALL = 16;

    private final ReaderAttempt<?, ?> attempt;
    private final ReaderEventLoop<?, ?> loop;
    private final LoopSignal signal;
    private final NanoClock clock;
    private final long idleWaitNanos;
    private final BooleanSupplier finalBarrierTaken;
    private final TurnYields yields;

    // The current drive call's state: the record count last seen, the end of its wait once set,
    // and the turns that emitted. Reset by each call, so nothing carries from one call (or thread)
    // to the next.
    private long callRecords;
    private long callDeadline;
    private boolean callDeadlineSet;
    private int callTurns;

    /**
     * @param idleWaitNanos how long one call waits for work before it returns ({@code
     *     reader.idle-wait})
     * @param finalBarrierTaken called under the lock before each iteration: true once the engine
     *     latched its final barrier (after which no record may follow)
     */
    public ReaderDriver(
            ReaderAttempt<?, ?> attempt,
            NanoClock clock,
            long idleWaitNanos,
            BooleanSupplier finalBarrierTaken) {
        this(attempt, clock, idleWaitNanos, finalBarrierTaken, 0, TurnYields.ALWAYS_CROWDED);
    }

    /**
     * @param checkpointIntervalNanos the job's checkpoint interval, 0 if none or unknown: the call
     *     steps aside between turns from three quarters of it after the last barrier ({@link
     *     TurnYields})
     * @param crowded true while the member hosts more Lane A readers than it has cores ({@link
     *     #crowdedWhenReadersExceed}); the call steps aside between turns only then
     */
    public ReaderDriver(
            ReaderAttempt<?, ?> attempt,
            NanoClock clock,
            long idleWaitNanos,
            BooleanSupplier finalBarrierTaken,
            long checkpointIntervalNanos,
            BooleanSupplier crowded) {
        this.attempt = attempt;
        this.loop = attempt.loop();
        this.signal = attempt.signal();
        this.clock = clock;
        this.idleWaitNanos = idleWaitNanos;
        this.finalBarrierTaken = finalBarrierTaken;
        this.yields = new TurnYields(clock, checkpointIntervalNanos, crowded);
    }

    /**
     * One engine call: runs loop iterations under {@code lock} until the call should return.
     *
     * <p>Why each iteration is a method of its own: one call lasts as long as the reader keeps
     * finding rows or waits for them (up to {@code reader.idle-wait}), so a host on slow data makes
     * about one call a second and runs its iterations, one per row, inside it. The JIT compiles a
     * method after some hundreds of calls, and a loop inside one only after tens of thousands of
     * iterations: with the iterations inline, this loop ran interpreted for minutes.
     *
     * @throws InterruptedException if the thread was interrupted while it waited
     */
    public Outcome drive(Object lock, FlowControl flow) throws InterruptedException {
        callRecords = attempt.loopMetrics().records();
        // Read lazily: a call that emits rows returns after a few turns and never needs it.
        callDeadlineSet = false;
        callTurns = 0;
        for (; ; ) {
            Outcome outcome = iterate(lock, flow);
            if (outcome != null) {
                return outcome;
            }
        }
    }

    /** One iteration of {@link #drive}: the outcome that ends the call, or null to go on. */
    private Outcome iterate(Object lock, FlowControl flow) throws InterruptedException {
        // Lock released: an announced barrier takes it now, and a full output is waited for
        // here rather than inside the engine's collector with the lock held.
        flow.awaitAnnouncedBarrier();
        if (flow.outputBlocked()) {
            long left = nanosLeft();
            if (left <= 0) {
                return Outcome.RETURNED;
            }
            flow.awaitRoom(left);
            checkInterrupted();
        }
        LoopStatus status;
        boolean moreWork;
        synchronized (lock) {
            if (finalBarrierTaken.getAsBoolean()) {
                // The engine took its final barrier: no record may follow it.
                attempt.gracefulClose();
                loop.runControls();
                return Outcome.FINAL_BARRIER;
            }
            status = loop.runOnce();
            moreWork = loop.hasWork();
            if (!moreWork) {
                // Idle, or about to wait after a turn that emitted its last available rows.
                attempt.onIdle();
            }
        }
        flow.turnEnded(status == LoopStatus.BUSY && moreWork);
        if (status == LoopStatus.TERMINATED) {
            return Outcome.TERMINATED;
        }
        if (status == LoopStatus.FINISHED) {
            return Outcome.FINISHED;
        }
        if (!loop.schemaChange().phase().allowsPolling()) {
            return Outcome.SCHEMA_CHANGE;
        }
        long records = attempt.loopMetrics().records();
        boolean turnEmitted = status == LoopStatus.BUSY && records != callRecords;
        callRecords = records;
        if (turnEmitted) {
            // The lock is released between turns, so a barrier still waits one turn at most.
            // Each turn is time-bounded, so counting them bounds the call without a clock.
            if (++callTurns >= MAX_TURNS_PER_CALL) {
                return Outcome.RETURNED;
            }
            if (moreWork) {
                // Zeta yields the core after every poll call that emitted (a zero sleep), so
                // that on a loaded machine its checkpoint threads run between calls; turns
                // within one call keep that point while a checkpoint is in flight or due, and
                // every fourth turn in between, on a member with more readers than cores
                // (TurnYields).
                if (yields.yieldAfter(loop.lastProcessedBarrier(), loop.checkpointInFlight())) {
                    Thread.yield();
                }
                return null;
            }
            // The reader said nothing more is available: its rows are already in the
            // engine's queue, so the call waits for the next signal below instead of
            // returning. A return would only cost one more engine call, loop iteration and
            // idle check per batch, which for a trickling reader doubles its task thread's
            // work per row.
        }
        long left = nanosLeft();
        if (left <= 0) {
            return Outcome.RETURNED;
        }
        if (moreWork) {
            // Busy without rows (applying commands): bounded by the same wait as idling.
            return null;
        }
        // Nothing to do now. Returning without a row costs an engine sleep (100 ms in Zeta),
        // so the host waits here (lock released) for a command, availability or barrier
        // signal instead; after a barrier it only has to leave once the engine latched its
        // final barrier, which the next iteration checks under the lock.
        // The loop polls an idle reader by itself after reader.idle-wait, in case its
        // availability future never completes: wake up for that too.
        flow.awaitSignal(signal, Math.min(left, loop.nanosUntilIdlePoll()));
        flow.readerIdled();
        checkInterrupted();
        return null;
    }

    /**
     * The {@code crowded} test of a host on a member: true while {@code readers} (the member's Lane
     * A readers now; any thread may call it, at most once per turn) outnumber {@code cores}.
     */
    public static BooleanSupplier crowdedWhenReadersExceed(int cores, IntSupplier readers) {
        return () -> readers.getAsInt() > cores;
    }

    /** What is left of this call's wait ({@code reader.idle-wait} from its first look). */
    private long nanosLeft() {
        long now = clock.nanoTime();
        if (!callDeadlineSet) {
            callDeadline = now + idleWaitNanos;
            callDeadlineSet = true;
        }
        return callDeadline - now;
    }

    /**
     * Before the host closes the attempt: the engine notifies the checkpoint its final barrier
     * belonged to (a savepoint, the end of a bounded job) after its calls stopped driving the loop,
     * so the notice would only sit in the mailbox. This applies it, under {@code lock}, so the
     * connector hears it (a Kafka reader commits its offsets there). Not after a cancel or failure,
     * where nothing must reach the connector, nor before the first call ({@code lock} null).
     */
    public void applyLastCheckpointNotices(Object lock) {
        if (lock == null || loop.terminalSignal() != null) {
            return;
        }
        try {
            synchronized (lock) {
                loop.runControls();
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Lane A reader {} attempt {} could not apply its last checkpoint notices before"
                            + " closing ({})",
                    loop.identity(),
                    attempt.attemptId(),
                    e.getClass().getSimpleName());
        }
    }

    private static void checkInterrupted() throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("Lane A reader interrupted");
        }
    }
}
