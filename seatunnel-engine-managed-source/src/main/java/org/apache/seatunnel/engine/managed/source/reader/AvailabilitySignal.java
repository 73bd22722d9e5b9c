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

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The coalesced "data may be available" flag of one reader attempt and its {@code
 * reader.poll-linger} deadline: the part of poll scheduling other threads touch. The loop side
 * (when to poll, the idle re-poll, the linger's end) is {@link PollScheduler}.
 *
 * <p>Threading: {@link #signal()} any thread, never blocks; the rest belongs to the loop's driving
 * thread. The deadline is written by the driver and read by signalling threads ({@code lingering}
 * written last), so both are volatile.
 */
public final class AvailabilitySignal {
    private final NanoClock clock;
    private final LoopSignal wake;
    private final AtomicBoolean pending = new AtomicBoolean();
    // Until when an availability signal only sets the flag (see lingerUntil).
    private volatile long lingerUntilNanos;
    private volatile boolean lingering;

    AvailabilitySignal(NanoClock clock, LoopSignal wake) {
        this.clock = clock;
        this.wake = wake;
    }

    /**
     * Coalesced availability: at most one pending flag, no queue slot. Any thread. During a linger
     * ({@link #lingerUntil}) the flag is set without waking the driver, which times its wait to the
     * linger's end instead.
     */
    public void signal() {
        if (!pending.getAndSet(true)) {
            if (lingering && clock.nanoTime() - lingerUntilNanos < 0) {
                return;
            }
            wake.signal();
        }
    }

    /**
     * Driver: availability signalled before {@code untilNanos} does not wake the driver ({@code
     * reader.poll-linger}). The loop wakes itself at that time and then takes the flag, so a signal
     * skipped here is never lost: the flag is set before the deadline is read, and the loop reads
     * the flag after the deadline passed.
     */
    void lingerUntil(long untilNanos) {
        lingerUntilNanos = untilNanos;
        lingering = true;
    }

    /** Driver: the deadline of the last {@link #lingerUntil}. */
    long lingerDeadline() {
        return lingerUntilNanos;
    }

    /** Whether availability is pending, without taking it. Any thread; approximate. */
    boolean isPending() {
        return pending.get();
    }

    /** Driver: takes the pending flag. */
    boolean take() {
        // A plain read first: the common answer is "nothing", and an RMW per iteration is not free.
        return pending.get() && pending.getAndSet(false);
    }
}
