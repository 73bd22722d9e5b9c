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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import org.apache.seatunnel.api.configuration.Option;
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

    private static final String PREFIX = "seatunnel.engine." + ManagedSourceOptions.SECTION + ".";

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

    private ManagedSourceConfig(Map<String, Object> raw) {
        // Read from the raw values, not through ReadonlyConfig, which would take 1 or "yes" as
        // true, split "a,b" into two job names and match enum names ignoring case.
        this.enabled = strictBoolean(raw, ManagedSourceOptions.ENABLED);
        this.allowedJobs = strictNames(raw, ManagedSourceOptions.ALLOWED_JOBS);
        this.allowedConnectors = strictNames(raw, ManagedSourceOptions.ALLOWED_CONNECTORS);
        this.fallback =
                strictEnum(raw, ManagedSourceOptions.INELIGIBLE_FALLBACK, LaneFallback.class);
        this.mailboxMaxCommands = count(raw, ManagedSourceOptions.MAILBOX_MAX_COMMANDS);
        this.mailboxMaxBytes = ranged(raw, ManagedSourceOptions.MAILBOX_MAX_BYTES);
        this.reservedCommands = count(raw, ManagedSourceOptions.MAILBOX_RESERVED_COMMANDS);
        this.reservedBytes = ranged(raw, ManagedSourceOptions.MAILBOX_RESERVED_BYTES);
        this.workerMailboxBytes = ranged(raw, ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES);
        this.maxPayloadBytes = count(raw, ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES);
        this.dedupWindow = count(raw, ManagedSourceOptions.DEDUP_WINDOW);
        this.maxSequenceGaps = count(raw, ManagedSourceOptions.MAILBOX_MAX_SEQUENCE_GAPS);
        this.pollMaxRecords = count(raw, ManagedSourceOptions.POLL_MAX_RECORDS);
        this.pollMaxBytes = ranged(raw, ManagedSourceOptions.POLL_MAX_BYTES);
        this.pollSoftNanos = ranged(raw, ManagedSourceOptions.POLL_SOFT_DURATION);
        this.pollHardNanos = ranged(raw, ManagedSourceOptions.POLL_HARD_DURATION);
        this.pollCancelNanos = ranged(raw, ManagedSourceOptions.POLL_CANCELLATION_TIMEOUT);
        this.admissionBudgetNanos = ranged(raw, ManagedSourceOptions.ADMISSION_P99_BUDGET);
        this.reportBatchWindowNanos = ranged(raw, ManagedSourceOptions.REPORT_BATCH_WINDOW);
        this.reportBatchMaxReports = count(raw, ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS);
        this.commandBatchMaxCommands = count(raw, ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS);
        this.retryInitialMillis =
                ranged(raw, ManagedSourceOptions.RETRY_INITIAL_BACKOFF) / 1_000_000L;
        this.retryMaxMillis = ranged(raw, ManagedSourceOptions.RETRY_MAX_BACKOFF) / 1_000_000L;
        this.retryMaxAttempts = count(raw, ManagedSourceOptions.RETRY_MAX_ATTEMPTS);
        this.asyncMaxConcurrency =
                count(raw, ManagedSourceOptions.COORDINATOR_ASYNC_MAX_CONCURRENCY);
        this.asyncQueueCapacity = count(raw, ManagedSourceOptions.COORDINATOR_ASYNC_QUEUE_CAPACITY);
        this.discoveryThreads = count(raw, ManagedSourceOptions.ASYNC_DISCOVERY_THREADS);
        this.discoveryQueue = count(raw, ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE);
        this.computeThreads = count(raw, ManagedSourceOptions.ASYNC_COMPUTE_THREADS);
        this.computeQueue = count(raw, ManagedSourceOptions.ASYNC_COMPUTE_QUEUE);
        this.trackerMaxEntries = count(raw, ManagedSourceOptions.TRACKER_MAX_ENTRIES);
        this.trackerMaxBytes = ranged(raw, ManagedSourceOptions.TRACKER_MAX_BYTES);
        this.trackerMaxUnassignedEntries =
                count(raw, ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_ENTRIES);
        this.trackerMaxUnassignedBytes =
                ranged(raw, ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_BYTES);
        this.maxSplitsPerCommand =
                count(raw, ManagedSourceOptions.COORDINATOR_MAX_SPLITS_PER_COMMAND);
        this.cutHoldNanos = ranged(raw, ManagedSourceOptions.CUT_HOLD_TIMEOUT);
        this.schemaChangeTimeoutNanos = ranged(raw, ManagedSourceOptions.SCHEMA_CHANGE_TIMEOUT);
        this.idleWaitNanos = ranged(raw, ManagedSourceOptions.IDLE_WAIT);
        this.pollLingerNanos = ranged(raw, ManagedSourceOptions.POLL_LINGER);
        this.wakeBudget = count(raw, ManagedSourceOptions.WAKE_BUDGET);
        this.offLoopCheckEnabled = strictBoolean(raw, ManagedSourceOptions.OFF_LOOP_CHECK_ENABLED);
        this.offLoopCheckInterval = count(raw, ManagedSourceOptions.OFF_LOOP_CHECK_INTERVAL);
        this.maxOutstandingRequests =
                count(raw, ManagedSourceOptions.READER_MAX_OUTSTANDING_REQUESTS);
        this.splitWindow = count(raw, ManagedSourceOptions.READER_SPLIT_WINDOW);
        this.interruptCheckNanos =
                ranged(raw, ManagedSourceOptions.READER_INTERRUPT_CHECK_INTERVAL);
        this.barrierHandoffNanos = ranged(raw, ManagedSourceOptions.BARRIER_HANDOFF_TIMEOUT);
        this.outputInFlightTargetNanos = ranged(raw, ManagedSourceOptions.OUTPUT_IN_FLIGHT_TARGET);
        this.closeTimeoutNanos = ranged(raw, ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT);
        this.snapshotTimeoutNanos = ranged(raw, ManagedSourceOptions.COORDINATOR_SNAPSHOT_TIMEOUT);
        this.snapshotSlowNanos =
                ranged(raw, ManagedSourceOptions.COORDINATOR_SNAPSHOT_SLOW_THRESHOLD);
        if (retryMaxMillis < retryInitialMillis) {
            throw invalid(
                    ManagedSourceOptions.RETRY_MAX_BACKOFF,
                    "("
                            + retryMaxMillis
                            + " ms) must be at least "
                            + PREFIX
                            + ManagedSourceOptions.RETRY_INITIAL_BACKOFF.key()
                            + " ("
                            + retryInitialMillis
                            + " ms)");
        }
        if (pollLingerNanos > idleWaitNanos) {
            throw invalid(
                    ManagedSourceOptions.POLL_LINGER,
                    "("
                            + pollLingerNanos / 1_000_000L
                            + " ms) must be at most "
                            + PREFIX
                            + ManagedSourceOptions.IDLE_WAIT.key()
                            + " ("
                            + idleWaitNanos / 1_000_000L
                            + " ms)");
        }
        if (workerMailboxBytes < reservedBytes) {
            // Every reader mailbox takes its reserved control bytes from the worker budget when it
            // opens: no reader could open.
            throw invalid(
                    ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES,
                    "("
                            + workerMailboxBytes
                            + " bytes) cannot hold one reader's "
                            + PREFIX
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
                    "Invalid " + PREFIX.substring(0, PREFIX.length() - 1) + ": " + e.getMessage(),
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
        Map<String, Object> flat = new LinkedHashMap<>();
        flatten("", section == null ? Collections.<String, Object>emptyMap() : section, flat);
        Set<String> known = new HashSet<>();
        for (Option<?> o : ManagedSourceOptions.all()) {
            known.add(o.key());
        }
        Set<String> unknown = new TreeSet<>();
        for (String k : flat.keySet()) {
            if (!known.contains(k)) {
                unknown.add(PREFIX + k);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "Unknown key(s) in seatunnel.yaml: "
                            + unknown
                            + "; known keys under "
                            + PREFIX
                            + " are "
                            + new TreeSet<>(known));
        }
        return new ManagedSourceConfig(flat);
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, ?> in, Map<String, Object> out) {
        for (Map.Entry<String, ?> e : in.entrySet()) {
            String key = prefix + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map && !isMapOption(key)) {
                flatten(key + ".", (Map<String, ?>) v, out);
            } else {
                out.put(key, v);
            }
        }
    }

    private static boolean isMapOption(String key) {
        return false;
    }

    private static boolean strictBoolean(Map<String, Object> raw, Option<Boolean> option) {
        Object v = raw.get(option.key());
        if (v == null) {
            return option.defaultValue();
        }
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        if ("true".equals(v) || "false".equals(v)) {
            return Boolean.parseBoolean((String) v);
        }
        throw invalid(option, "must be true or false, not " + shown(v));
    }

    private static Set<String> strictNames(Map<String, Object> raw, Option<List<String>> option) {
        Object v = raw.get(option.key());
        if (v == null) {
            return names(option.defaultValue());
        }
        if (!(v instanceof List)) {
            throw invalid(
                    option, "must be a list of names, e.g. [ orders, payments ], not " + shown(v));
        }
        List<String> out = new ArrayList<>();
        for (Object n : (List<?>) v) {
            if (!(n instanceof String) || ((String) n).trim().isEmpty()) {
                throw invalid(option, "holds " + shown(n) + ", which is not a name");
            }
            out.add((String) n);
        }
        return names(out);
    }

    private static <E extends Enum<E>> E strictEnum(
            Map<String, Object> raw, Option<E> option, Class<E> type) {
        Object v = raw.get(option.key());
        if (v == null) {
            return option.defaultValue();
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v)) {
                return e;
            }
        }
        throw invalid(option, shown(v) + " is not " + typeName(option) + " (case matters)");
    }

    /**
     * The names, so that a typo shows at load; a long list is cut (a job name is no secret, but a
     * thousand of them make a log line no one reads).
     */
    static String shownNames(Set<String> names) {
        int shown = 20;
        if (names.size() <= shown) {
            return names.toString();
        }
        StringBuilder b = new StringBuilder("[");
        int i = 0;
        for (String n : names) {
            if (i++ == shown) {
                break;
            }
            b.append(n).append(", ");
        }
        return b.append("... (").append(names.size()).append(" in all)]").toString();
    }

    /** A refused value as the operator wrote it: strings quoted, others with their type. */
    private static String shown(Object v) {
        if (v == null) {
            return "an empty value";
        }
        if (v instanceof String) {
            return "\"" + v + "\"";
        }
        return v + " (" + v.getClass().getSimpleName() + ")";
    }

    private static String typeName(Option<?> option) {
        Object d = option.defaultValue();
        if (d instanceof Enum) {
            StringBuilder sb = new StringBuilder("one of [");
            for (Object x : ((Enum<?>) d).getDeclaringClass().getEnumConstants()) {
                sb.append(x).append(' ');
            }
            return sb.toString().trim() + "]";
        }
        return d == null ? "a value" : d.getClass().getSimpleName();
    }

    /** An int option, read strictly into its range (every int option's range fits an int). */
    private static int count(Map<String, Object> raw, Option<Integer> option) {
        return (int) ranged(raw, option);
    }

    /**
     * A numeric option (count, bytes or duration in nanoseconds) read strictly into its declared
     * {@link OptionRanges range}: no coercion, units for sizes and durations, and a refusal that
     * names the full key, the value and the range.
     */
    private static long ranged(Map<String, Object> raw, Option<?> option) {
        return OptionRanges.read(PREFIX, option, raw.get(option.key()));
    }

    private static IllegalArgumentException invalid(Option<?> option, String why) {
        return new IllegalArgumentException(
                "Invalid seatunnel.yaml key " + PREFIX + option.key() + ": " + why);
    }

    private static Set<String> names(List<String> list) {
        Set<String> out = new TreeSet<>();
        if (list != null) {
            for (String s : list) {
                if (s != null && !s.trim().isEmpty()) {
                    out.add(s.trim());
                }
            }
        }
        return Collections.unmodifiableSet(out);
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
                + shownNames(allowedJobs)
                + ", allowedConnectors="
                + allowedConnectors
                + ", fallback="
                + fallback
                + ", "
                + mailboxLimits()
                + '}';
    }
}
