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

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one reader attempt's loop tells operators when its reader breaks the poll contract: every
 * breach is counted in {@link ReaderLoopMetrics}; the log says so once per attempt (availability
 * not signalled, records past the budget) or at most once per {@link #SOFT_OVERRUN_REPORT_NANOS}
 * (soft overruns, rate-limited by the loop's clock), naming the reader by its {@link
 * ReaderIdentity}; a state change off the loop ({@code reader.off-loop-check}) is logged once per
 * attempt. Messages carry ids and budgets only, never records, split ids or exception text.
 *
 * <p>Threading: the loop's driving thread only (the host serializes drivers), except {@link
 * #cancellationTimeout}, which the watchdog calls and which touches no field.
 */
final class ReaderContractReports {
    static final long SOFT_OVERRUN_REPORT_NANOS = TimeUnit.MINUTES.toNanos(1);

    // The loop's logger: operators filter by it.
    private static final Logger LOG = LoggerFactory.getLogger(ReaderEventLoop.class);

    private final ReaderIdentity identity;
    private final long attemptId;
    private final PollBudget budget;
    private final ReaderLoopMetrics metrics;

    private boolean availabilityWarned;
    private boolean recordBudgetWarned;
    private boolean offLoopWarned;
    private boolean softOverrunReported;
    private long softOverrunReportedAt;
    private long softOverrunsUnreported;

    ReaderContractReports(
            ReaderIdentity identity, long attemptId, PollBudget budget, ReaderLoopMetrics metrics) {
        this.identity = identity;
        this.attemptId = attemptId;
        this.budget = budget;
        this.metrics = metrics;
    }

    /**
     * A measured turn took {@code took} ns, past the soft budget; {@code now} is the loop clock.
     */
    void softOverrun(long took, long now) {
        metrics.softOverruns.incrementAndGet();
        softOverrunsUnreported++;
        if (softOverrunReported && now - softOverrunReportedAt < SOFT_OVERRUN_REPORT_NANOS) {
            return;
        }
        LOG.warn(
                "Lane A reader of {} (attempt {}): a poll turn took {} ms, past"
                        + " poll.soft-duration ({} ms); {} such turn(s) since the last report."
                        + " A turn should return soon after PollContext.shouldYield() is true.",
                identity,
                attemptId,
                // Tenths of a millisecond: a turn just past a budget of whole milliseconds would
                // otherwise read as taking exactly the budget.
                (took / 100_000) / 10.0,
                TimeUnit.NANOSECONDS.toMillis(budget.softNanos()),
                softOverrunsUnreported);
        softOverrunReported = true;
        softOverrunReportedAt = now;
        softOverrunsUnreported = 0;
    }

    /** A turn emitted {@code emitted} records, more than the record budget. */
    void recordBudgetOverrun(int emitted) {
        metrics.recordBudgetOverruns.incrementAndGet();
        if (recordBudgetWarned) {
            return;
        }
        recordBudgetWarned = true;
        LOG.warn(
                "Lane A reader of {} (attempt {}) emitted {} records in one poll turn, past its"
                        + " budget of {} (PollContext.remainingRecords()); reported once per"
                        + " attempt, counted in ManagedSourcePollRecordBudgetOverruns",
                identity,
                attemptId,
                emitted,
                budget.maxRecords());
    }

    /** A turn after NOTHING_AVAILABLE produced records the availability future did not announce. */
    void availabilityNotSignalled() {
        metrics.availabilityNotSignalled.incrementAndGet();
        if (availabilityWarned) {
            return;
        }
        availabilityWarned = true;
        LOG.warn(
                "Lane A reader of {} (attempt {}): availability not signalled. A poll turn"
                        + " produced records after NOTHING_AVAILABLE while the future from"
                        + " isAvailable() was still incomplete; the runtime polls such a reader"
                        + " only after commands and every reader.idle-wait ({} ms). Complete the"
                        + " future when data arrives. Reported once per attempt, counted in"
                        + " ManagedSourceAvailabilityNotSignalled",
                identity,
                attemptId,
                TimeUnit.NANOSECONDS.toMillis(budget.idlePollNanos()));
    }

    /** reader.off-loop-check compared a sampled barrier's state with a later one. */
    void offLoopStateChecked() {
        metrics.offLoopStateChecks.incrementAndGet();
    }

    /**
     * reader.off-loop-check found the state of barrier {@code checkpointId} changed before the next
     * call into the reader. Names no split: split ids are connector data.
     */
    void offLoopStateChanged(long checkpointId) {
        metrics.offLoopStateChanges.incrementAndGet();
        if (offLoopWarned) {
            return;
        }
        offLoopWarned = true;
        LOG.warn(
                "Lane A reader of {} (attempt {}): checkpoint-visible state changed while no poll"
                        + " turn or callback ran (after checkpoint {}, before the next call into"
                        + " the reader). A thread other than the reader loop moves split state, so"
                        + " a restore can lose or repeat records. Advance positions only where"
                        + " records are emitted, inside pollNextManaged (the conformance rules"
                        + " NO_BACKGROUND_STATE_CHANGE and SNAPSHOT_EMIT_ATOMIC show where)."
                        + " Reported once per attempt, counted in"
                        + " ManagedSourceOffLoopStateChanges; the job goes on",
                identity,
                attemptId,
                checkpointId);
    }

    /** The cause of the attempt's POLL_CANCELLATION_TIMEOUT failure; the job's error shows it. */
    IllegalStateException cancellationTimeoutCause() {
        return new IllegalStateException(
                "a poll turn of "
                        + identity
                        + " did not return within poll.cancellation-timeout ("
                        + TimeUnit.NANOSECONDS.toMillis(budget.cancellationNanos())
                        + " ms)");
    }

    /** Watchdog: a turn has run {@code elapsedNanos}, past the cancellation timeout. */
    void cancellationTimeout(long elapsedNanos) {
        LOG.error(
                "Lane A reader of {} (attempt {}): a poll turn ran {} ms, past"
                        + " poll.cancellation-timeout ({} ms); failing the attempt with"
                        + " POLL_CANCELLATION_TIMEOUT and interrupting its thread",
                identity,
                attemptId,
                TimeUnit.NANOSECONDS.toMillis(elapsedNanos),
                TimeUnit.NANOSECONDS.toMillis(budget.cancellationNanos()));
    }
}
