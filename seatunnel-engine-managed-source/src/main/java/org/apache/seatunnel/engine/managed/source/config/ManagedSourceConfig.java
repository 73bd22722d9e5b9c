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

package org.apache.seatunnel.engine.managed.source.config;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorConfig;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.PollLinger;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * The validated {@code seatunnel.engine.managed-source} section. Immutable and serializable as
 * plain values, so a deployment can carry the settings it was planned with. (The Zeta binding's
 * {@code OperatorSettings} loads the section; its {@code MemberSettings} are the member-wide values
 * taken from it.)
 *
 * <p>Threading: immutable, any thread.
 */
public final class ManagedSourceConfig implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final boolean enabled;
    private final Set<String> allowedJobs;
    private final Set<String> allowedConnectors;
    private final LaneFallback fallback;
    private final int mailboxMaxCommands;
    private final long mailboxMaxBytes;
    private final int reservedCommands;
    private final long reservedBytes;
    private final long workerMailboxBytes;
    private final int maxPayloadBytes;
    private final int dedupWindow;
    private final int pollMaxRecords;
    private final long pollMaxBytes;
    private final int maxSequenceGaps;
    private final long pollSoftNanos;
    private final long pollHardNanos;
    private final long pollCancelNanos;
    private final long retryInitialMillis;
    private final long retryMaxMillis;
    private final int retryMaxAttempts;
    private final int asyncMaxConcurrency;
    private final int asyncQueueCapacity;
    private final int discoveryThreads;
    private final int discoveryQueue;
    private final int computeThreads;
    private final int computeQueue;
    private final int trackerMaxEntries;
    private final long trackerMaxBytes;
    private final int trackerMaxUnassignedEntries;
    private final long trackerMaxUnassignedBytes;
    private final int maxSplitsPerCommand;
    private final long cutHoldNanos;
    private final long schemaChangeTimeoutNanos;
    private final long idleWaitNanos;
    private final long pollLingerNanos;
    private final int wakeBudget;
    private final boolean offLoopCheckEnabled;
    private final int offLoopCheckInterval;
    private final ReaderMetricsLevel readerMetricsLevel;
    private final int maxOutstandingRequests;
    private final int splitWindow;
    private final long interruptCheckNanos;
    private final long barrierHandoffNanos;
    private final long outputInFlightTargetNanos;
    private final long admissionBudgetNanos;
    private final long reportBatchWindowNanos;
    private final int reportBatchMaxReports;
    private final int commandBatchMaxCommands;
    private final long closeTimeoutNanos;
    private final long snapshotTimeoutNanos;
    private final long snapshotSlowNanos;

    private ManagedSourceConfig(ConfigSectionReader raw) {
        this.enabled = raw.bool(ManagedSourceOptions.ENABLED);
        this.allowedJobs = raw.names(ManagedSourceOptions.ALLOWED_JOBS);
        this.allowedConnectors = raw.names(ManagedSourceOptions.ALLOWED_CONNECTORS);
        this.fallback = raw.enumValue(ManagedSourceOptions.INELIGIBLE_FALLBACK, LaneFallback.class);
        this.mailboxMaxCommands = raw.count(ManagedSourceOptions.MAILBOX_MAX_COMMANDS);
        this.mailboxMaxBytes = raw.ranged(ManagedSourceOptions.MAILBOX_MAX_BYTES);
        this.reservedCommands = raw.count(ManagedSourceOptions.MAILBOX_RESERVED_COMMANDS);
        this.reservedBytes = raw.ranged(ManagedSourceOptions.MAILBOX_RESERVED_BYTES);
        this.workerMailboxBytes = raw.ranged(ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES);
        this.maxPayloadBytes = raw.count(ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES);
        this.dedupWindow = raw.count(ManagedSourceOptions.DEDUP_WINDOW);
        this.maxSequenceGaps = raw.count(ManagedSourceOptions.MAILBOX_MAX_SEQUENCE_GAPS);
        this.pollMaxRecords = raw.count(ManagedSourceOptions.POLL_MAX_RECORDS);
        this.pollMaxBytes = raw.ranged(ManagedSourceOptions.POLL_MAX_BYTES);
        this.pollSoftNanos = raw.ranged(ManagedSourceOptions.POLL_SOFT_DURATION);
        this.pollHardNanos = raw.ranged(ManagedSourceOptions.POLL_HARD_DURATION);
        this.pollCancelNanos = raw.ranged(ManagedSourceOptions.POLL_CANCELLATION_TIMEOUT);
        this.admissionBudgetNanos = raw.ranged(ManagedSourceOptions.ADMISSION_P99_BUDGET);
        this.reportBatchWindowNanos = raw.ranged(ManagedSourceOptions.REPORT_BATCH_WINDOW);
        this.reportBatchMaxReports = raw.count(ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS);
        this.commandBatchMaxCommands = raw.count(ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS);
        this.retryInitialMillis =
                raw.ranged(ManagedSourceOptions.RETRY_INITIAL_BACKOFF) / 1_000_000L;
        this.retryMaxMillis = raw.ranged(ManagedSourceOptions.RETRY_MAX_BACKOFF) / 1_000_000L;
        this.retryMaxAttempts = raw.count(ManagedSourceOptions.RETRY_MAX_ATTEMPTS);
        this.asyncMaxConcurrency =
                raw.count(ManagedSourceOptions.COORDINATOR_ASYNC_MAX_CONCURRENCY);
        this.asyncQueueCapacity = raw.count(ManagedSourceOptions.COORDINATOR_ASYNC_QUEUE_CAPACITY);
        this.discoveryThreads = raw.count(ManagedSourceOptions.ASYNC_DISCOVERY_THREADS);
        this.discoveryQueue = raw.count(ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE);
        this.computeThreads = raw.count(ManagedSourceOptions.ASYNC_COMPUTE_THREADS);
        this.computeQueue = raw.count(ManagedSourceOptions.ASYNC_COMPUTE_QUEUE);
        this.trackerMaxEntries = raw.count(ManagedSourceOptions.TRACKER_MAX_ENTRIES);
        this.trackerMaxBytes = raw.ranged(ManagedSourceOptions.TRACKER_MAX_BYTES);
        this.trackerMaxUnassignedEntries =
                raw.count(ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_ENTRIES);
        this.trackerMaxUnassignedBytes =
                raw.ranged(ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_BYTES);
        this.maxSplitsPerCommand =
                raw.count(ManagedSourceOptions.COORDINATOR_MAX_SPLITS_PER_COMMAND);
        this.cutHoldNanos = raw.ranged(ManagedSourceOptions.CUT_HOLD_TIMEOUT);
        this.schemaChangeTimeoutNanos = raw.ranged(ManagedSourceOptions.SCHEMA_CHANGE_TIMEOUT);
        this.idleWaitNanos = raw.ranged(ManagedSourceOptions.IDLE_WAIT);
        this.pollLingerNanos = raw.ranged(ManagedSourceOptions.POLL_LINGER);
        this.wakeBudget = raw.count(ManagedSourceOptions.WAKE_BUDGET);
        this.offLoopCheckEnabled = raw.bool(ManagedSourceOptions.OFF_LOOP_CHECK_ENABLED);
        this.offLoopCheckInterval = raw.count(ManagedSourceOptions.OFF_LOOP_CHECK_INTERVAL);
        this.readerMetricsLevel =
                raw.enumValue(ManagedSourceOptions.READER_METRICS_LEVEL, ReaderMetricsLevel.class);
        this.maxOutstandingRequests =
                raw.count(ManagedSourceOptions.READER_MAX_OUTSTANDING_REQUESTS);
        this.splitWindow = raw.count(ManagedSourceOptions.READER_SPLIT_WINDOW);
        this.interruptCheckNanos = raw.ranged(ManagedSourceOptions.READER_INTERRUPT_CHECK_INTERVAL);
        this.barrierHandoffNanos = raw.ranged(ManagedSourceOptions.BARRIER_HANDOFF_TIMEOUT);
        this.outputInFlightTargetNanos = raw.ranged(ManagedSourceOptions.OUTPUT_IN_FLIGHT_TARGET);
        this.closeTimeoutNanos = raw.ranged(ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT);
        this.snapshotTimeoutNanos = raw.ranged(ManagedSourceOptions.COORDINATOR_SNAPSHOT_TIMEOUT);
        this.snapshotSlowNanos =
                raw.ranged(ManagedSourceOptions.COORDINATOR_SNAPSHOT_SLOW_THRESHOLD);
        if (retryMaxMillis < retryInitialMillis) {
            throw ConfigSectionReader.invalid(
                    ManagedSourceOptions.RETRY_MAX_BACKOFF,
                    "("
                            + retryMaxMillis
                            + " ms) must be at least "
                            + ConfigSectionReader.PREFIX
                            + ManagedSourceOptions.RETRY_INITIAL_BACKOFF.key()
                            + " ("
                            + retryInitialMillis
                            + " ms)");
        }
        if (pollLingerNanos > idleWaitNanos) {
            throw ConfigSectionReader.invalid(
                    ManagedSourceOptions.POLL_LINGER,
                    "("
                            + pollLingerNanos / 1_000_000L
                            + " ms) must be at most "
                            + ConfigSectionReader.PREFIX
                            + ManagedSourceOptions.IDLE_WAIT.key()
                            + " ("
                            + idleWaitNanos / 1_000_000L
                            + " ms)");
        }
        if (workerMailboxBytes < reservedBytes) {
            // Every reader mailbox takes its reserved control bytes from the worker budget when it
            // opens: no reader could open.
            throw ConfigSectionReader.invalid(
                    ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES,
                    "("
                            + workerMailboxBytes
                            + " bytes) cannot hold one reader's "
                            + ConfigSectionReader.PREFIX
                            + ManagedSourceOptions.MAILBOX_RESERVED_BYTES.key()
                            + " ("
                            + reservedBytes
                            + " bytes)");
        }
        // Cross-field rules are checked by the settings objects, which name the keys.
        try {
            mailboxLimits();
            pollBudget();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Invalid "
                            + ConfigSectionReader.PREFIX.substring(
                                    0, ConfigSectionReader.PREFIX.length() - 1)
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** The section with every default: Lane A off. */
    public static ManagedSourceConfig defaults() {
        return fromMap(Collections.<String, Object>emptyMap());
    }

    /**
     * Parses the section's content (nested maps or dotted keys), rejecting unknown keys, wrong
     * types, non-positive bounds and unknown enum values with a message that names the full key.
     */
    public static ManagedSourceConfig fromMap(Map<String, ?> section) {
        return new ManagedSourceConfig(ConfigSectionReader.of(section));
    }

    public MailboxLimits mailboxLimits() {
        return new MailboxLimits(
                        mailboxMaxCommands,
                        mailboxMaxBytes,
                        reservedCommands,
                        reservedBytes,
                        maxPayloadBytes,
                        dedupWindow,
                        retryInitialMillis)
                .withMaxSequenceGaps(maxSequenceGaps);
    }

    public PollBudget pollBudget() {
        return new PollBudget(
                        pollMaxRecords,
                        pollMaxBytes,
                        pollSoftNanos,
                        pollHardNanos,
                        pollCancelNanos,
                        cutHoldNanos,
                        idleWaitNanos)
                .withLinger(pollLingerNanos);
    }

    /**
     * The linger after a poll turn that found nothing: {@code reader.poll-linger} when set, else
     * adaptive from {@code reader.wake-budget} and the member's Lane A reader count, else none.
     *
     * @param readersOnMember the Lane A readers on this member now; any thread
     */
    public PollLinger pollLinger(IntSupplier readersOnMember) {
        if (pollLingerNanos > 0) {
            return PollLinger.fixed(pollLingerNanos);
        }
        if (wakeBudget == 0) {
            return PollLinger.NONE;
        }
        return PollLinger.adaptive(
                readersOnMember,
                wakeBudget,
                Math.min(PollLinger.ADAPTIVE_CAP_NANOS, idleWaitNanos));
    }

    public int wakeBudget() {
        return wakeBudget;
    }

    /**
     * A coordinator's settings from this section — tracker bounds, async share ({@code
     * coordinator.async-*}) and retries ({@code retry.*}) — for the host to complete with the
     * deployment's ids.
     */
    public CoordinatorConfig.Builder coordinatorConfig() {
        return CoordinatorConfig.builder()
                .maxTrackerEntries(trackerMaxEntries)
                .maxTrackerBytes(trackerMaxBytes)
                .maxUnassigned(trackerMaxUnassignedEntries, trackerMaxUnassignedBytes)
                .maxSplitsPerCommand(maxSplitsPerCommand)
                .maxPayloadBytes(maxPayloadBytes)
                .asyncBounds(asyncMaxConcurrency, asyncQueueCapacity)
                .retryPolicy(retryPolicy())
                .snapshotTimeout(Duration.ofNanos(snapshotTimeoutNanos))
                .snapshotSlowThreshold(Duration.ofNanos(snapshotSlowNanos));
    }

    public boolean enabled() {
        return enabled;
    }

    public Set<String> allowedJobs() {
        return allowedJobs;
    }

    public Set<String> allowedConnectors() {
        return allowedConnectors;
    }

    public LaneFallback fallback() {
        return fallback;
    }

    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    public long workerMailboxBytes() {
        return workerMailboxBytes;
    }

    public long retryInitialMillis() {
        return retryInitialMillis;
    }

    public long retryMaxMillis() {
        return retryMaxMillis;
    }

    /** {@code retry.max-attempts}. */
    public int retryMaxAttempts() {
        return retryMaxAttempts;
    }

    /** The {@code retry.*} settings as the one retry policy of the runtime. */
    public RetryPolicy retryPolicy() {
        return new RetryPolicy(retryInitialMillis, retryMaxMillis, retryMaxAttempts);
    }

    /** {@code coordinator.async-max-concurrency}: one coordinator's running async tasks. */
    public int asyncMaxConcurrency() {
        return asyncMaxConcurrency;
    }

    /** {@code coordinator.async-queue-capacity}: one coordinator's waiting async tasks. */
    public int asyncQueueCapacity() {
        return asyncQueueCapacity;
    }

    /** {@code async-worker.<class>-threads}: member-wide. */
    public int asyncThreads(WorkerClass workerClass) {
        return workerClass == WorkerClass.DISCOVERY ? discoveryThreads : computeThreads;
    }

    /** {@code async-worker.<class>-queue-capacity}: member-wide. */
    public int asyncQueueCapacity(WorkerClass workerClass) {
        return workerClass == WorkerClass.DISCOVERY ? discoveryQueue : computeQueue;
    }

    public int trackerMaxEntries() {
        return trackerMaxEntries;
    }

    public long trackerMaxBytes() {
        return trackerMaxBytes;
    }

    /** {@code reader.schema-change-timeout}: the bound of one reader schema change. */
    public long schemaChangeTimeoutNanos() {
        return schemaChangeTimeoutNanos;
    }

    public long idleWaitNanos() {
        return idleWaitNanos;
    }

    /** {@code reader.off-loop-check.enabled}. */
    public boolean offLoopCheckEnabled() {
        return offLoopCheckEnabled;
    }

    /** {@code reader.off-loop-check.interval}: used only when the check is enabled. */
    public int offLoopCheckInterval() {
        return offLoopCheckInterval;
    }

    /** {@code reader.metrics-level}. */
    public ReaderMetricsLevel readerMetricsLevel() {
        return readerMetricsLevel;
    }

    /** {@code reader.max-outstanding-requests}. */
    public int maxOutstandingRequests() {
        return maxOutstandingRequests;
    }

    /** {@code reader.split-window}. */
    public int splitWindow() {
        return splitWindow;
    }

    /** {@code reader.interrupt-check-interval}. */
    public long interruptCheckNanos() {
        return interruptCheckNanos;
    }

    /** {@code reader.barrier-handoff-timeout}; 0 turns the handoff off. */
    public long barrierHandoffNanos() {
        return barrierHandoffNanos;
    }

    /** {@code reader.output-in-flight-target}; 0 keeps the in-flight bound at its maximum. */
    public long outputInFlightTargetNanos() {
        return outputInFlightTargetNanos;
    }

    /** {@code coordinator.close-timeout}. */
    public long closeTimeoutNanos() {
        return closeTimeoutNanos;
    }

    /** {@code coordinator.snapshot-timeout}. */
    public long snapshotTimeoutNanos() {
        return snapshotTimeoutNanos;
    }

    /** {@code coordinator.snapshot-slow-threshold}. */
    public long snapshotSlowNanos() {
        return snapshotSlowNanos;
    }

    /** {@code transport.report-batch-window}. */
    public long reportBatchWindowNanos() {
        return reportBatchWindowNanos;
    }

    /** {@code transport.report-batch-max-reports}. */
    public int reportBatchMaxReports() {
        return reportBatchMaxReports;
    }

    public long admissionBudgetNanos() {
        return admissionBudgetNanos;
    }

    /** {@code transport.command-batch-max-commands}. */
    public int commandBatchMaxCommands() {
        return commandBatchMaxCommands;
    }

    @Override
    public String toString() {
        return "ManagedSourceConfig{enabled="
                + enabled
                + ", allowedJobs="
                + ConfigSectionReader.shownNames(allowedJobs)
                + ", allowedConnectors="
                + allowedConnectors
                + ", fallback="
                + fallback
                + ", "
                + mailboxLimits()
                + '}';
    }
}
