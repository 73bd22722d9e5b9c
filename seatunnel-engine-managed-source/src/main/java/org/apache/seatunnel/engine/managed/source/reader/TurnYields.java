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

/**
 * Decides whether a reader host gives up its core between two poll turns of one engine call.
 *
 * <p>Threading: the driving thread of one {@link ReaderDriver}, like the driver itself; no other
 * thread calls it.
 *
 * <p>A yield lets other runnable threads of the member run. The engine's own checkpoint work needs
 * that on a loaded machine: Zeta 2.3.8 triggers and announces a checkpoint from one coordinator
 * thread, task by task, and at a parallelism of tens of readers per core that thread gets little
 * CPU unless the task threads step aside. Yet a yield costs a context switch, and a reader whose
 * next task drains faster than it emits pays more than that: the next task empties the queue while
 * the reader is off its core and waits on it, so the reader's next rows wake it every few. So a
 * host yields after a turn only while the engine is likely at work on this job's checkpoint:
 *
 * <ul>
 *   <li>from a barrier the reader took until the reader heard that checkpoint complete (the engine
 *       acks, stores and then announces it task by task);
 *   <li>from three quarters of the expected gap after the latest barrier (after the host started,
 *       before the first), until the next barrier: the engine is about to trigger the next
 *       checkpoint, task by task. The expected gap is the shorter of the job's checkpoint interval
 *       (when its plan told it) and the last gap between two barriers: the interval alone covers
 *       the first checkpoint, and a checkpoint that came late because the engine's threads were
 *       starved does not push the next yields later still.
 * </ul>
 *
 * In between, a reader of a job that takes periodic checkpoints yields after every {@value
 * #TURNS_PER_YIELD_BETWEEN}th turn: Zeta 2.3.8 triggers the next checkpoint only once every task
 * answered the last one's completion and end notices, which its operation threads deliver task by
 * task after the checkpoint completed, and at the trigger time it otherwise retries every 500 ms.
 * At 64 readers on two cores, with turns back to back in between, those notices took most of a 1 s
 * interval and every second or third checkpoint came 1.5 s after the one before it (32 checkpoints
 * where Lane B completed 40 in the same 40 s); with a yield every fourth turn, 39 against 35.
 * Otherwise the engine's own yield after each call (a zero sleep after every poll call that
 * emitted) is the only one, as for a Lane B reader. A job without checkpoints has no barriers and
 * never yields between turns.
 *
 * <p>All these yields happen only while the member is crowded: it hosts more Lane A readers than it
 * has cores. With a core per reader the engine's checkpoint threads get a core when they wake
 * without the readers' help, and a yield per 64-row turn only takes the source off its core for the
 * sink to drain the queue and park on it: a bounded Iceberg scan at p=2 on two cores, with a
 * checkpoint every second, woke its sinks about every 20 rows and cost 1.15–1.2 × the stock
 * source's CPU per row, and at 0.97 × without those yields.
 */
final class TurnYields {
    /** For hosts that cannot tell: the rules apply whatever the member's load. */
    static final BooleanSupplier ALWAYS_CROWDED = () -> true;

    /** Turns per yield of a crowded reader between the windows of the two rules. */
    static final int TURNS_PER_YIELD_BETWEEN = 4;

    private final NanoClock clock;
    private final long intervalNanos;
    private final BooleanSupplier crowded;
    private long barrier;
    // The latest barrier's time; the host's start before the first.
    private long barrierAtNanos;
    // The gap between the last two barriers this reader took; 0 until it took two.
    private long gapNanos;
    // Turns since the last turn a rule asked the member whether it is crowded.
    private int turnsSinceAsked;

    /**
     * Without a known checkpoint interval (the next is due by the last gap only), on a member taken
     * to be crowded.
     */
    TurnYields(NanoClock clock) {
        this(clock, 0, ALWAYS_CROWDED);
    }

    /**
     * @param intervalNanos the job's checkpoint interval; 0 if it takes no periodic checkpoints or
     *     the interval is unknown
     * @param crowded whether the member hosts more Lane A readers than it has cores now; asked only
     *     when a rule would yield
     */
    TurnYields(NanoClock clock, long intervalNanos, BooleanSupplier crowded) {
        this.clock = clock;
        this.intervalNanos = Math.max(0, intervalNanos);
        this.crowded = crowded;
        this.barrierAtNanos = clock.nanoTime();
    }

    /**
     * Whether to yield after a turn of a call that goes on: every turn while a checkpoint is in
     * flight or due, every {@value #TURNS_PER_YIELD_BETWEEN}th turn in between (when the job
     * checkpoints), and only on a crowded member.
     *
     * @param lastBarrier the latest barrier the reader took
     * @param inFlight whether that barrier's checkpoint is not known complete yet
     */
    boolean yieldAfter(long lastBarrier, boolean inFlight) {
        boolean ask =
                engineAtWork(lastBarrier, inFlight)
                        || (expectedGapNanos() > 0
                                && turnsSinceAsked + 1 >= TURNS_PER_YIELD_BETWEEN);
        if (!ask) {
            turnsSinceAsked++;
            return false;
        }
        turnsSinceAsked = 0;
        return crowded.getAsBoolean();
    }

    // Also keeps the barrier gap current on a member that is not crowded now.
    private boolean engineAtWork(long lastBarrier, boolean inFlight) {
        if (lastBarrier != barrier) {
            // A new barrier: the next due time counts from now.
            noteBarrier(lastBarrier, clock.nanoTime());
            return inFlight;
        }
        if (inFlight) {
            return true;
        }
        long expected = expectedGapNanos();
        return expected > 0 && clock.nanoTime() - barrierAtNanos >= expected - expected / 4;
    }

    private long expectedGapNanos() {
        if (gapNanos > 0 && intervalNanos > 0) {
            return Math.min(gapNanos, intervalNanos);
        }
        return gapNanos > 0 ? gapNanos : intervalNanos;
    }

    private void noteBarrier(long id, long now) {
        if (barrier != 0) {
            gapNanos = Math.max(0, now - barrierAtNanos);
        }
        barrier = id;
        barrierAtNanos = now;
    }

    /** The gap between the last two barriers seen, 0 before two; for tests. */
    long gapNanos() {
        return gapNanos;
    }
}
