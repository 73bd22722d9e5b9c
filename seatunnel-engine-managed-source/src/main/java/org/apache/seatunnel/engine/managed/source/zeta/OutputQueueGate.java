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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.OutputGate;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * Keeps the rows a reader has in flight to the next task within what that task drains in {@code
 * reader.output-in-flight-target}, and ends poll turns when that much is queued.
 *
 * <p>Threading: every method on the task thread T (poll turns and the host's waits); the metrics it
 * writes are read by any thread.
 *
 * <p>Zeta moves a source task's rows to the next task of its group through a bounded queue (2,048
 * rows): its collector {@code put}s each row while the reader holds the checkpoint lock, so a full
 * queue blocks the reader inside the lock, and a barrier written after it waits behind every queued
 * row (about a second at 2,000 rows/s). This gate reads how many rows are queued before a turn and
 * whenever its last answer runs out, and grants only what fits under the limit, so the collector
 * never blocks and a barrier finds few rows ahead of it.
 *
 * <p>The limit adapts, in the spirit of Flink's buffer debloating: the rate at which the next task
 * drains is learnt from how the queue's length and this reader's emitted count move between samples
 * taken at least {@value #SAMPLE_NANOS} ns apart: smoothed while rows were queued at both ends of a
 * sample; a queue that ran dry since the last look at least doubles it, up to the rate that gives
 * the largest limit (the next task waited for rows); a sample of a queue empty at both ends may
 * only raise it. The limit is that rate times the target, at least {@value #MIN_LIMIT} rows and at
 * most the queue's capacity less a slack for the rows a connector emits between two {@code
 * shouldYield()} calls. Until a rate is known the limit is that maximum.
 */
final class OutputQueueGate implements OutputGate {
    static final int MIN_LIMIT = 32;
    static final long SAMPLE_NANOS = 2_000_000L;
    // The estimate moves a quarter of the way to each new sample.
    private static final double SMOOTHING = 0.25;
    static final long MIN_WAIT_NANOS = 50_000L;

    private final List<BlockingQueue<?>> queues;
    private final int maxLimit;
    private final long targetNanos;
    private final NanoClock clock;
    private final BackpressureMetrics metrics;
    // The highest drain rate the estimate may hold: a whole bound drained per shortest wait, past
    // which neither the bound nor a wait changes; a queue that keeps running dry would otherwise
    // double it past infinity, where the next backlogged sample makes it NaN and the bound stops
    // adapting. Not the rate that merely gives the largest bound at the target: the waits for
    // room are timed by this rate too, and one held that low slept a fast next task's 448-row
    // refill mark for 12.5 ms where it drains in under one, starving it.
    private final double maxRowsPerNano;

    // T only.
    private int limit;
    private double rowsPerNano;
    private long sampleNanos = Long.MIN_VALUE;
    private long sampleEmitted;
    private int sampleQueued;
    private long lastEmitted;
    private boolean blocked;
    private long blockedSince;

    /**
     * @param queues the queues every emitted row goes into (one per downstream task)
     * @param capacity the smallest capacity among them
     * @param targetNanos the time the next task may need to drain what is queued; 0 keeps the limit
     *     at its maximum (turns still end before the collector would block)
     */
    OutputQueueGate(
            List<BlockingQueue<?>> queues,
            int capacity,
            long targetNanos,
            NanoClock clock,
            BackpressureMetrics metrics) {
        this.queues = queues;
        this.maxLimit = Math.max(1, capacity - Math.min(256, capacity / 2));
        this.targetNanos = targetNanos;
        this.clock = clock;
        this.metrics = metrics;
        this.limit = maxLimit;
        this.maxRowsPerNano = maxLimit / (double) MIN_WAIT_NANOS;
        metrics.outputInFlightLimit.set(limit);
    }

    @Override
    public int credit(long emittedTotal) {
        lastEmitted = emittedTotal;
        int queued = queued();
        long now = clock.nanoTime();
        learn(now, queued, emittedTotal);
        int credit = limit - queued;
        if (credit <= 0) {
            if (!blocked) {
                blocked = true;
                blockedSince = now;
            }
        } else {
            unblock(now);
        }
        return credit;
    }

    /** True since a turn found no room, until a later look finds some. */
    boolean isBlocked() {
        return blocked;
    }

    int limit() {
        return limit;
    }

    /**
     * Waits, lock released, until the queue has drained to three quarters of the limit, at most
     * {@code maxNanos}; a pending control, barrier announcement or terminal signal (which the
     * loop's signal wakes it for) ends the wait early. The next task cannot signal room, so between
     * looks it waits as long as draining to that mark should take at the learnt rate. Refilling at
     * three quarters rather than lower leaves the next task most of the target's worth of rows
     * while the reader's thread waits to be scheduled on a busy machine: a late refill of a short
     * queue would leave it idle, where a full 2,048-row queue on the stock path hides the delay.
     *
     * @return true if there is room now
     */
    boolean awaitRoom(LoopSignal signal, ReaderMailbox mailbox, long maxNanos) {
        long deadline = clock.nanoTime() + maxNanos;
        for (; ; ) {
            int queued = queued();
            long now = clock.nanoTime();
            learn(now, queued, lastEmitted);
            int lowWater = limit - limit / 4;
            if (queued <= lowWater) {
                unblock(now);
                return true;
            }
            long left = deadline - now;
            if (left <= 0
                    || mailbox.hasPendingControlOrTerminal()
                    || Thread.currentThread().isInterrupted()) {
                return false;
            }
            signal.await(Math.min(left, drainWaitNanos(queued - lowWater)));
        }
    }

    /**
     * How long the next task should take to drain {@code rows} at the learnt rate: at least {@value
     * #MIN_WAIT_NANOS} ns, at most the longer of the target and {@value #SAMPLE_NANOS} ns; {@value
     * #SAMPLE_NANOS} ns until a rate is known.
     */
    long drainWaitNanos(int rows) {
        long wait = rowsPerNano > 0 ? (long) (rows / rowsPerNano) : SAMPLE_NANOS;
        return Math.max(MIN_WAIT_NANOS, Math.min(wait, Math.max(SAMPLE_NANOS, targetNanos)));
    }

    private void unblock(long now) {
        if (blocked) {
            blocked = false;
            metrics.outputBlockedNanos.addAndGet(Math.max(0, now - blockedSince));
        }
    }

    private int queued() {
        int max = 0;
        for (int i = 0; i < queues.size(); i++) {
            max = Math.max(max, queues.get(i).size());
        }
        return max;
    }

    private void learn(long now, int queued, long emitted) {
        if (sampleNanos == Long.MIN_VALUE) {
            resample(now, queued, emitted);
            return;
        }
        long dt = now - sampleNanos;
        if (dt < SAMPLE_NANOS) {
            return;
        }
        long drained = (emitted - sampleEmitted) - (queued - sampleQueued);
        double sample = Math.max(0, drained) / (double) dt;
        if (sampleQueued > 0 && queued > 0) {
            rowsPerNano =
                    rowsPerNano == 0 ? sample : rowsPerNano + SMOOTHING * (sample - rowsPerNano);
        } else if (sampleQueued > 0) {
            // Ran dry since the last look: the next task waited for rows, so it takes more than
            // the estimate says. Doubling escapes the trap where a low estimate paces the refills
            // and the refills are all that an emptied queue lets it measure; a source that is
            // merely slower than the next task only raises a bound it never reaches.
            rowsPerNano = Math.max(sample, 2 * rowsPerNano);
        } else if (sample > rowsPerNano) {
            rowsPerNano = sample;
        }
        rowsPerNano = Math.min(rowsPerNano, maxRowsPerNano);
        resample(now, queued, emitted);
        if (targetNanos > 0 && rowsPerNano > 0) {
            double rows = Math.ceil(rowsPerNano * targetNanos);
            int next = (int) Math.min(maxLimit, Math.max(MIN_LIMIT, rows));
            if (next != limit) {
                limit = next;
                metrics.outputInFlightLimit.set(next);
            }
        }
    }

    private void resample(long now, int queued, long emitted) {
        sampleNanos = now;
        sampleQueued = queued;
        sampleEmitted = emitted;
    }
}
