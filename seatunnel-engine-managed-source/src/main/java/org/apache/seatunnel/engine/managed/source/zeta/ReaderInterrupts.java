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

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.TurnWatch;
import org.apache.seatunnel.engine.managed.source.zeta.member.InterruptWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns Zeta's interrupt of a Lane A reader's task thread (how Zeta cancels a task or restarts its
 * pipeline) into the attempt's cancel signal, which calls the reader's {@code wakeup()}: a reader
 * waiting inside a turn may honour only that. The interrupt is seen on the interrupting thread
 * while the task thread is inside {@code pollNext} ({@link TaskInterruptListener}), or by the
 * member's periodic check ({@link InterruptWatch}) for a turn that outlasts it; either hands the
 * cancel to the member's watchdog thread, so connector code never runs while the JDK holds the task
 * thread's interrupt lock.
 *
 * <p>Threading: {@link #arm}/{@link #disarm} on the task thread T; the listener's callback on the
 * interrupting thread; {@link #cancelOnInterrupt} and the check on the watchdog thread; {@link
 * #interruptTaskThread} on the turn watchdog. Shared fields are volatile or atomic.
 */
final class ReaderInterrupts {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderInterrupts.class);

    private final ReaderMailbox mailbox;
    private final ReaderIdentity identity;
    private final Executor watchdog;
    private final AtomicLong cancels = new AtomicLong();
    private final TaskInterruptListener listener = new TaskInterruptListener(this::onInterrupt);
    private volatile Thread taskThread;
    // Set by watch(); read by the check on the watchdog thread.
    private volatile InterruptWatch.Registration check;

    ReaderInterrupts(ReaderMailbox mailbox, ReaderIdentity identity, Executor watchdog) {
        this.mailbox = mailbox;
        this.identity = identity;
        this.watchdog = watchdog;
    }

    /**
     * Only a turn runs connector code that can hide an interrupt from the host: between turns the
     * host's own waits end on it. So the fallback check runs for a turn the member's turn watchdog
     * found still running, and ends with that turn: a reader on slow data runs turns of
     * microseconds many times a second, and a timer armed for each cost more CPU than its reading.
     */
    void watch(InterruptWatch watch, long intervalNanos, TurnWatch turns) {
        InterruptWatch.Registration r = watch.watch(intervalNanos, () -> checkInterrupted(turns));
        check = r;
        turns.onLongTurn(r::activate);
    }

    /** T enters {@code pollNext}: an interrupt from now on reaches the reader at once. */
    void arm() {
        taskThread = Thread.currentThread();
        listener.arm();
    }

    /** T leaves {@code pollNext}. */
    void disarm() {
        listener.disarm();
    }

    /** The poll watchdog's answer to a turn past the cancellation timeout. */
    void interruptTaskThread() {
        Thread t = taskThread;
        if (t != null) {
            t.interrupt();
        }
    }

    /** Cancels made from an interrupt, for the host's metric. */
    long cancels() {
        return cancels.get();
    }

    /** The reader closes: the periodic check stops. */
    void close() {
        InterruptWatch.Registration r = check;
        if (r != null) {
            r.cancel();
        }
    }

    /** Inside {@code Thread.interrupt()}, on the interrupting thread: hands the cancel over. */
    private void onInterrupt() {
        try {
            watchdog.execute(this::cancelOnInterrupt);
        } catch (RuntimeException e) {
            // The member is shutting down: cancel here rather than not at all.
            cancelOnInterrupt();
        }
    }

    /**
     * Watchdog thread, every {@code reader.interrupt-check-interval} from the turn watchdog's first
     * sight of a running turn until that turn ended: the fallback of the listener for a task thread
     * whose interrupt registration connector I/O displaced during the current engine call, while
     * the interrupt flag is still set.
     */
    private void checkInterrupted(TurnWatch turns) {
        Thread t = taskThread;
        if (t != null && t.isInterrupted()) {
            cancelOnInterrupt();
        } else if (!turns.turnRunning()) {
            // The turn ended (the host sees the flag itself between turns); a later long turn is
            // found by the turn watchdog again.
            check.deactivate();
        }
    }

    /**
     * The interrupt becomes the attempt's cancel signal; the turn returns and the host ends the
     * engine's call. Runs on the member's watchdog thread. The first terminal signal wins, so a
     * failure already signalled (the poll watchdog interrupts the thread itself) is never replaced
     * by a cancel.
     */
    void cancelOnInterrupt() {
        if (mailbox.terminalSignal() == null && mailbox.terminate(TerminalSignal.cancel())) {
            cancels.incrementAndGet();
            LOG.info(
                    "Lane A reader of {} (attempt {}): task thread interrupted by the engine;"
                            + " cancelling the attempt and waking the reader",
                    identity,
                    mailbox.attemptId());
        }
    }
}
