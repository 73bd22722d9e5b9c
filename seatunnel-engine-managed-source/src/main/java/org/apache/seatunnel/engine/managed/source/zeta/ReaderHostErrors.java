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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.reader.ReaderIdentity;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The errors a Lane A reader host throws at Zeta once its attempt terminated, and the wait for the
 * engine's close that a barrier reaching a failed attempt needs before it throws (see {@link
 * #failedBarrier}). The texts name the connector, the job, the subtask, the attempt and the reason
 * code: Zeta reports the first error it sees as the job's.
 *
 * <p>Threading: {@link #rethrowTerminal} on the task thread T; {@link #failedBarrier} on the
 * barrier thread A; {@link #closed()} and {@link #schemaChangePause} on T. The pause flag and the
 * latch are the only shared state (volatile, and a latch).
 */
final class ReaderHostErrors {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderHostErrors.class);

    private final ReaderIdentity identity;
    private final long attemptId;
    private final long cancellationNanos;
    // Counted down when the engine closes this reader: its task has ended.
    private final CountDownLatch closed = new CountDownLatch(1);
    // Set when a poll call returned for a schema change, cleared when the engine calls pollNext
    // again: meanwhile Zeta does not call pollNext at all (it waits for its schema-change
    // checkpoint), so a failed barrier must not wait for the task thread to notice the failure.
    private volatile boolean schemaChangePause;

    ReaderHostErrors(ReaderIdentity identity, long attemptId, long cancellationNanos) {
        this.identity = identity;
        this.attemptId = attemptId;
        this.cancellationNanos = cancellationNanos;
    }

    /** The engine closed the reader: its task has ended. */
    void closed() {
        closed.countDown();
    }

    /** A poll call returns for a schema change ({@code true}) or the engine polls again. */
    void schemaChangePause(boolean paused) {
        schemaChangePause = paused;
    }

    /**
     * Ends the engine's call after the attempt terminated. A failure is thrown with the text of
     * {@link #failure}. A cancel (the engine interrupted the task) is thrown as the interrupt it
     * is, which the engine does not count as a task failure while it cancels.
     */
    void rethrowTerminal(TerminalSignal t) throws InterruptedException {
        if (t.kind() == TerminalSignal.Kind.FATAL) {
            throw failure(t, "");
        }
        // Always thrown, even if the reader cleared the interrupt flag: a call that returned
        // normally would have the engine poll a cancelled reader until its next sleep noticed.
        Thread.interrupted();
        throw new InterruptedException("Lane A reader of " + identity + " cancelled");
    }

    /**
     * The error of a barrier that reached a failed attempt, thrown once the engine has closed this
     * reader. Zeta reports the first error it sees as the job's, and a checkpoint error reaching
     * the master first also cancels this task's group, which then ends CANCELED and the task's own
     * failure is dropped: the job would report a checkpoint error instead of the cause. The task
     * thread closes the reader right after it reported the failure to its group, so the barrier
     * waits for that, at most {@code poll.cancellation-timeout}. The engine interrupts this thread
     * as soon as the task failed, which is too early: the wait outlasts interrupts and restores the
     * flag afterwards. The error names the same cause in any case.
     */
    IllegalStateException failedBarrier(TerminalSignal t, long checkpointId) {
        if (schemaChangePause) {
            return notTaken(t, checkpointId);
        }
        long deadline = System.nanoTime() + cancellationNanos;
        boolean interrupted = false;
        try {
            for (; ; ) {
                long left = deadline - System.nanoTime();
                try {
                    if (closed.await(left, TimeUnit.NANOSECONDS)) {
                        break;
                    }
                    LOG.warn(
                            "Lane A reader of {}: checkpoint {} reached the failed attempt and the"
                                    + " reader was not closed within poll.cancellation-timeout",
                            identity,
                            checkpointId);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return notTaken(t, checkpointId);
    }

    /** The failure of a checkpoint the failed attempt did not take. */
    IllegalStateException notTaken(TerminalSignal t, long checkpointId) {
        return failure(t, "; checkpoint " + checkpointId + " not taken");
    }

    IllegalStateException failure(TerminalSignal t, String suffix) {
        return new IllegalStateException(
                "Lane A reader of "
                        + identity
                        + " (attempt "
                        + attemptId
                        + ") failed: "
                        + t.reason()
                        + suffix,
                t.cause());
    }
}
