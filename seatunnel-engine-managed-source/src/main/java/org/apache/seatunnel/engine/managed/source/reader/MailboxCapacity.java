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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * The capacity accounting of one {@link ReaderMailbox}: command count and payload bytes of the
 * normal capacity (also drawn from the member-wide {@link WorkerMailboxBudget}) and of the reserved
 * control capacity, whose worker bytes the mailbox takes once at construction. Reservations are
 * lock-free compare-and-set loops that never exceed a bound.
 *
 * <p>Threading: any thread reserves (admission) and reads the gauges; the mailbox's consumer
 * releases. Every field is atomic.
 */
final class MailboxCapacity {
    private final MailboxLimits limits;
    private final WorkerMailboxBudget workerBudget;
    private final AtomicInteger normalCount = new AtomicInteger();
    private final AtomicLong normalBytes = new AtomicLong();
    private final AtomicInteger reservedCount = new AtomicInteger();
    private final AtomicLong reservedBytes = new AtomicLong();

    MailboxCapacity(MailboxLimits limits, WorkerMailboxBudget workerBudget) {
        this.limits = limits;
        this.workerBudget = workerBudget;
    }

    /**
     * Takes the reserved control bytes from the worker budget, once per mailbox.
     *
     * @throws IllegalStateException if the worker budget cannot hold them
     */
    void reserveControlBytes() {
        if (!workerBudget.tryReserve(limits.reservedBytes())) {
            throw new IllegalStateException(
                    "worker.mailbox-max-bytes cannot hold the reserved control bytes of another"
                            + " reader mailbox ("
                            + limits.reservedBytes()
                            + " bytes); raise it or lower reader-mailbox.reserved-control-bytes");
        }
    }

    /** Gives the reserved control bytes back to the worker budget (the mailbox closed). */
    void releaseControlBytes() {
        workerBudget.release(limits.reservedBytes());
    }

    /** Takes one command of {@code bytes} from the normal capacity; NONE, or why it is full. */
    ReasonCode reserveNormal(int bytes) {
        if (!reserveOne(normalCount, limits.maxCommands())) {
            return ReasonCode.MAILBOX_COUNT_FULL;
        }
        if (!reserveBytes(normalBytes, limits.maxBytes(), bytes)) {
            normalCount.decrementAndGet();
            return ReasonCode.MAILBOX_BYTES_FULL;
        }
        if (!workerBudget.tryReserve(bytes)) {
            normalBytes.addAndGet(-bytes);
            normalCount.decrementAndGet();
            return ReasonCode.WORKER_BUDGET_FULL;
        }
        return ReasonCode.NONE;
    }

    /** Takes one command of {@code bytes} from the reserved control capacity, if it has room. */
    boolean reserveControl(int bytes) {
        if (!reserveOne(reservedCount, limits.reservedCommands())) {
            return false;
        }
        if (!reserveBytes(reservedBytes, limits.reservedBytes(), bytes)) {
            reservedCount.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Gives back a command's capacity, from the pool it was taken from. */
    void release(boolean reserved, int bytes) {
        if (reserved) {
            reservedBytes.addAndGet(-bytes);
            reservedCount.decrementAndGet();
        } else {
            workerBudget.release(bytes);
            normalBytes.addAndGet(-bytes);
            normalCount.decrementAndGet();
        }
    }

    private static boolean reserveOne(AtomicInteger count, int max) {
        for (; ; ) {
            int c = count.get();
            if (c >= max) {
                return false;
            }
            if (count.compareAndSet(c, c + 1)) {
                return true;
            }
        }
    }

    private static boolean reserveBytes(AtomicLong used, long max, int bytes) {
        for (; ; ) {
            long u = used.get();
            if (u + bytes > max) {
                return false;
            }
            if (used.compareAndSet(u, u + bytes)) {
                return true;
            }
        }
    }

    /** Commands admitted and not completed (normal + reserved); approximate. */
    int commandCount() {
        return normalCount.get() + reservedCount.get();
    }

    int reservedCommandCount() {
        return reservedCount.get();
    }

    /** Payload bytes admitted and not completed; approximate. */
    long payloadBytes() {
        return normalBytes.get() + reservedBytes.get();
    }
}
