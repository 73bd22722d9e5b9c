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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import java.util.Objects;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * The member-wide settings that {@link ManagedSourceMemberService} reads once, when Hazelcast
 * creates it at node start.
 *
 * <p>Three names, three scopes: {@link OperatorSettings} finds and loads the operator's {@code
 * seatunnel.yaml} section; {@code ManagedSourceConfig} is that section validated, as one job is
 * planned with it; these are the member-wide values (threads, queues, sender bounds) taken from it.
 *
 * <p>Threading: immutable; any thread. Validated on construction so a bad value names its option.
 *
 * <p>Why a static holder: Hazelcast instantiates the service through {@code
 * ServiceDescriptorProvider} with a no-argument constructor, before any job or host exists, so the
 * values must be in place before the member starts ({@link ManagedSourceMemberService#configure}).
 */
public final class MemberSettings {
    private static final MemberSettings DEFAULTS = new MemberSettings(new Values());

    private final Values v;

    /** The fields, copied on every {@code with...}. Not thread-safe; never escapes. */
    private static final class Values implements Cloneable {
        long workerMailboxBytes = ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES.defaultValue();
        int maxPayloadBytes = ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES.defaultValue();
        RetryPolicy retryPolicy = RetryPolicy.defaults();
        int maxQueuedPerTarget = 4096;
        int coordinatorThreads = 2;
        int coordinatorQueueCapacity = 1024;
        long closeTimeoutMillis =
                ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT.defaultValue().toMillis();
        long admissionBudgetNanos =
                ManagedSourceOptions.ADMISSION_P99_BUDGET.defaultValue().toNanos();
        int discoveryThreads = ManagedSourceOptions.ASYNC_DISCOVERY_THREADS.defaultValue();
        int discoveryQueueCapacity = ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE.defaultValue();
        int computeThreads = ManagedSourceOptions.ASYNC_COMPUTE_THREADS.defaultValue();
        int computeQueueCapacity = ManagedSourceOptions.ASYNC_COMPUTE_QUEUE.defaultValue();
        long reportBatchWindowMillis =
                ManagedSourceOptions.REPORT_BATCH_WINDOW.defaultValue().toMillis();
        int reportBatchMaxReports = ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS.defaultValue();
        int commandBatchMaxCommands =
                ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS.defaultValue();

        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private MemberSettings(Values v) {
        positive(ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES.key(), v.workerMailboxBytes);
        positive(ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT.key(), v.closeTimeoutMillis);
        positive(ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES.key(), v.maxPayloadBytes);
        positive(ManagedSourceOptions.ADMISSION_P99_BUDGET.key(), v.admissionBudgetNanos);
        positive(ManagedSourceOptions.ASYNC_DISCOVERY_THREADS.key(), v.discoveryThreads);
        positive(ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE.key(), v.discoveryQueueCapacity);
        positive(ManagedSourceOptions.ASYNC_COMPUTE_THREADS.key(), v.computeThreads);
        positive(ManagedSourceOptions.ASYNC_COMPUTE_QUEUE.key(), v.computeQueueCapacity);
        positive("transport max queued per target", v.maxQueuedPerTarget);
        if (v.reportBatchWindowMillis < 0) {
            throw new IllegalArgumentException(
                    ManagedSourceOptions.REPORT_BATCH_WINDOW.key()
                            + " must not be negative: "
                            + v.reportBatchWindowMillis);
        }
        positive(ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS.key(), v.reportBatchMaxReports);
        positive(ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS.key(), v.commandBatchMaxCommands);
        positive("coordinator threads", v.coordinatorThreads);
        positive("coordinator queue capacity", v.coordinatorQueueCapacity);
        Objects.requireNonNull(v.retryPolicy, "retryPolicy");
        this.v = v;
    }

    /**
     * STIP-31's defaults: 256 MiB worker budget, 512 KiB payloads, backoff 10 ms to 1 s, admission
     * budget 5 ms; async workers as {@link ManagedSourceOptions} declares them.
     */
    public static MemberSettings defaults() {
        return DEFAULTS;
    }

    /**
     * The member-wide options of a validated managed-source section (ranges checked at load); the
     * rest are defaults.
     */
    public static MemberSettings of(ManagedSourceConfig config) {
        return DEFAULTS.withOperatorConfig(config);
    }

    /** A copy with every member-wide option of {@code config}; the internal bounds stay. */
    public MemberSettings withOperatorConfig(ManagedSourceConfig config) {
        Values n = v.copy();
        n.workerMailboxBytes = config.workerMailboxBytes();
        n.maxPayloadBytes = config.maxPayloadBytes();
        n.retryPolicy = config.retryPolicy();
        n.closeTimeoutMillis = config.closeTimeoutNanos() / 1_000_000L;
        n.admissionBudgetNanos = config.admissionBudgetNanos();
        n.discoveryThreads = config.asyncThreads(WorkerClass.DISCOVERY);
        n.discoveryQueueCapacity = config.asyncQueueCapacity(WorkerClass.DISCOVERY);
        n.computeThreads = config.asyncThreads(WorkerClass.COMPUTE);
        n.computeQueueCapacity = config.asyncQueueCapacity(WorkerClass.COMPUTE);
        n.reportBatchWindowMillis = config.reportBatchWindowNanos() / 1_000_000L;
        n.reportBatchMaxReports = config.reportBatchMaxReports();
        n.commandBatchMaxCommands = config.commandBatchMaxCommands();
        return new MemberSettings(n);
    }

    /**
     * A copy with another {@code transport.report-batch-window} and {@code
     * transport.report-batch-max-reports}.
     */
    public MemberSettings withReportBatching(long windowMillis, int maxReports) {
        Values n = v.copy();
        n.reportBatchWindowMillis = windowMillis;
        n.reportBatchMaxReports = maxReports;
        return new MemberSettings(n);
    }

    /** {@code transport.report-batch-window} in milliseconds. */
    public long reportBatchWindowMillis() {
        return v.reportBatchWindowMillis;
    }

    /** {@code transport.report-batch-max-reports}. */
    public int reportBatchMaxReports() {
        return v.reportBatchMaxReports;
    }

    /** {@code transport.command-batch-max-commands}. */
    public int commandBatchMaxCommands() {
        return v.commandBatchMaxCommands;
    }

    /** A copy with another worker budget; tests use it to make overload reachable. */
    public MemberSettings withWorkerMailboxBytes(long bytes) {
        Values n = v.copy();
        n.workerMailboxBytes = bytes;
        return new MemberSettings(n);
    }

    /**
     * A copy with other sender bounds: {@code retry.initial-backoff}, {@code retry.max-backoff}
     * (the attempts bound stays) and the envelopes that may wait per target.
     */
    public MemberSettings withRetry(
            long initialBackoffMillis, long maxBackoffMillis, int maxQueuedPerTarget) {
        Values n = v.copy();
        n.retryPolicy =
                new RetryPolicy(
                        initialBackoffMillis, maxBackoffMillis, v.retryPolicy.maxAttempts());
        n.maxQueuedPerTarget = maxQueuedPerTarget;
        return new MemberSettings(n);
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, was " + value);
        }
    }

    public long workerMailboxBytes() {
        return v.workerMailboxBytes;
    }

    public int maxPayloadBytes() {
        return v.maxPayloadBytes;
    }

    /** The {@code retry.*} settings: how the transport retries a send. */
    public RetryPolicy retryPolicy() {
        return v.retryPolicy;
    }

    public long retryInitialBackoffMillis() {
        return v.retryPolicy.initialBackoffMillis();
    }

    public long retryMaxBackoffMillis() {
        return v.retryPolicy.maxBackoffMillis();
    }

    public int maxQueuedPerTarget() {
        return v.maxQueuedPerTarget;
    }

    public int coordinatorThreads() {
        return v.coordinatorThreads;
    }

    public int coordinatorQueueCapacity() {
        return v.coordinatorQueueCapacity;
    }

    /** {@code coordinator.close-timeout}: the longest wait for one coordinator's close. */
    public long closeTimeoutMillis() {
        return v.closeTimeoutMillis;
    }

    /** {@code admission.p99-budget}. */
    public long admissionBudgetNanos() {
        return v.admissionBudgetNanos;
    }

    /** {@code async-worker.<class>-threads}: the member's threads for one worker class. */
    public int asyncThreads(WorkerClass workerClass) {
        return workerClass == WorkerClass.DISCOVERY ? v.discoveryThreads : v.computeThreads;
    }

    /** {@code async-worker.<class>-queue-capacity}: tasks that may wait for those threads. */
    public int asyncQueueCapacity(WorkerClass workerClass) {
        return workerClass == WorkerClass.DISCOVERY
                ? v.discoveryQueueCapacity
                : v.computeQueueCapacity;
    }

    @Override
    public String toString() {
        return "MemberSettings{workerMailboxBytes="
                + v.workerMailboxBytes
                + ", maxPayloadBytes="
                + v.maxPayloadBytes
                + ", retry="
                + v.retryPolicy
                + ", maxQueuedPerTarget="
                + v.maxQueuedPerTarget
                + ", coordinatorThreads="
                + v.coordinatorThreads
                + ", coordinatorQueue="
                + v.coordinatorQueueCapacity
                + ", closeTimeoutMs="
                + v.closeTimeoutMillis
                + ", admissionBudgetUs="
                + v.admissionBudgetNanos / 1000
                + ", reportBatchWindowMs="
                + v.reportBatchWindowMillis
                + ", reportBatchMaxReports="
                + v.reportBatchMaxReports
                + ", asyncDiscovery="
                + v.discoveryThreads
                + "/"
                + v.discoveryQueueCapacity
                + ", asyncCompute="
                + v.computeThreads
                + "/"
                + v.computeQueueCapacity
                + '}';
    }
}
