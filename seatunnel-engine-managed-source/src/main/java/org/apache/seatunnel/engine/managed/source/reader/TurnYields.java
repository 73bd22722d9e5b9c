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

/**
 * Decides whether a reader host gives up its core between two poll turns of one engine call.
 *
 * <p>Threading: the driving thread of one {@link ReaderDriver}, like the driver itself; no other
 * thread calls it.
 *
 * <p>A yield lets other runnable threads of the member run. The engine's own checkpoint work needs
 * that on a loaded machine: Zeta 2.3.8 triggers and announces a checkpoint from one coordinator
 * thread, task by task, and at a parallelism of tens of readers per core that thread gets little
 * CPU unless the task threads step aside. Yet a yield after every turn of a reader with data
 * strideOrInFlight there costs a context switch every {@code poll.max-records-per-turn} rows, which
 * on two cores with 16 readers cut the rows moved by about a third. So a host yields after every
 * turn only while the engine is likely at work on this job's checkpoint, and after every {@value
 * #QUIET_STRIDE}th turn otherwise:
 *
 * <ul>
 *   <li>from a barrier the reader took until the reader heard that checkpoint complete (the engine
 *       acks, stores and then announces it task by task);
 *   <li>from three quarters of the last gap between two barriers after the latest one, until the
 *       next: the engine is about to trigger the next checkpoint, task by task.
 * </ul>
 *
 * A job without checkpoints has no barriers and yields every {@value #QUIET_STRIDE}th turn; the
 * engine still yields after every call.
 */
final class TurnYields {
    /** Turns between two yields while no checkpoint is in flight or due. */
    static final int QUIET_STRIDE = 4;

    private final NanoClock clock;
    private long barrier;
    private long barrierAtNanos;
    // The gap between the last two barriers this reader took; 0 until it took two.
    private long gapNanos;

    TurnYields(NanoClock clock) {
        this.clock = clock;
    }

    /**
     * Whether to yield after the {@code turn}th turn (1-based) of a call.
     *
     * @param lastBarrier the latest barrier the reader took
     * @param inFlight whether that barrier's checkpoint is not known complete yet
     */
    boolean yieldAfter(int turn, long lastBarrier, boolean inFlight) {
        boolean strideOrInFlight = turn % QUIET_STRIDE == 0 || inFlight;
        if (lastBarrier != barrier) {
            // A new barrier: the next due time counts from now.
            noteBarrier(lastBarrier, clock.nanoTime());
            return strideOrInFlight;
        }
        return strideOrInFlight
                || gapNanos > 0 && clock.nanoTime() - barrierAtNanos >= gapNanos - gapNanos / 4;
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
