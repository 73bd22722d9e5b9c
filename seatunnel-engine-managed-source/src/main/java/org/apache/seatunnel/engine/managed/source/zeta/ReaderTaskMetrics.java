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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.source.managed.SnapshotGauges;
import org.apache.seatunnel.engine.managed.source.config.ReaderMetricsLevel;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;

/**
 * Puts a Lane A reader's loop and mailbox figures into the metrics context of its engine task, so
 * they appear in the job's metrics (client {@code getJobMetrics}) next to the engine's own.
 *
 * <p>Which of them depends on {@code reader.metrics-level}: each registered metric of each reader
 * costs member heap while the job runs and in its history, so the default registers the basic set
 * an operator watches.
 *
 * <p>Threading: {@link #register} runs once on the task thread at open; the registered gauges are
 * read by the engine's metrics thread at any time and read only atomics.
 *
 * <p>Labels are the engine's own (job, pipeline, task): no split id, table path or payload is ever
 * part of a name. Each gauge reads the live value; what the engine ships to the master is a
 * snapshot in its own counter type ({@code SnapshotGauge}). After a restore a total continues from
 * the value the master last received ({@link SnapshotGauges}).
 */
final class ReaderTaskMetrics {
    static final String ADMISSION_PREFIX = "ManagedSourceAdmission";
    static final String RESERVED_CONTROL_USES = "ManagedSourceReservedControlUses";
    static final String RESERVED_CONTROL_EXHAUSTED = "ManagedSourceReservedControlExhausted";
    static final String MAILBOX_COMMANDS = "ManagedSourceMailboxCommands";
    static final String MAILBOX_BYTES = "ManagedSourceMailboxBytes";
    static final String MAILBOX_OLDEST_AGE_NANOS = "ManagedSourceMailboxOldestAgeNanos";
    static final String POLL_TURNS = "ManagedSourcePollTurns";
    static final String POLL_RECORDS = "ManagedSourcePollRecords";
    static final String POLL_BYTES = "ManagedSourcePollBytes";
    static final String POLL_NANOS = "ManagedSourcePollNanos";
    static final String POLL_SOFT_OVERRUNS = "ManagedSourcePollSoftOverruns";
    static final String POLL_HARD_WAKEUPS = "ManagedSourcePollHardWakeups";
    static final String POLL_RECORD_BUDGET_OVERRUNS = "ManagedSourcePollRecordBudgetOverruns";
    static final String AVAILABILITY_NOT_SIGNALLED = "ManagedSourceAvailabilityNotSignalled";
    static final String POLLS_LINGERED = "ManagedSourcePollsLingered";
    static final String OFF_LOOP_STATE_CHECKS = "ManagedSourceOffLoopStateChecks";
    static final String OFF_LOOP_STATE_CHANGES = "ManagedSourceOffLoopStateChanges";
    static final String CHECKPOINT_REPORTS_UNCHANGED = "ManagedSourceCheckpointReportsUnchanged";
    static final String POLL_UNSIZED_RECORDS = "ManagedSourcePollUnsizedRecords";
    static final String COMMANDS_APPLIED = "ManagedSourceCommandsApplied";
    static final String DUPLICATES_SKIPPED = "ManagedSourceDuplicatesSkipped";
    static final String QUEUE_WAIT_NANOS = "ManagedSourceQueueWaitNanos";
    static final String CUT_DEFERRALS = "ManagedSourceCutDeferrals";
    static final String READER_CHECKPOINTS = "ManagedSourceReaderCheckpoints";
    static final String SCHEMA_CHANGES_REQUESTED = "ManagedSourceSchemaChangesRequested";
    static final String SCHEMA_CHANGES_COMPLETED = "ManagedSourceSchemaChangesCompleted";
    static final String SCHEMA_CHANGE_IGNORED_CALLBACKS =
            "ManagedSourceSchemaChangeIgnoredCallbacks";
    static final String SCHEMA_CHANGE_EVENTS = "ManagedSourceSchemaChangeEvents";
    static final String REQUESTS_SENT = "ManagedSourceReaderRequestsSent";
    static final String REQUESTS_OUTSTANDING = "ManagedSourceReaderRequestsOutstanding";
    static final String SPLIT_REQUESTS_COALESCED = "ManagedSourceReaderSplitRequestsCoalesced";
    static final String REQUESTS_AT_BOUND = "ManagedSourceReaderRequestsAtBound";
    static final String REQUESTS_UNDELIVERED = "ManagedSourceReaderRequestsUndelivered";
    static final String REQUESTS_FENCED = "ManagedSourceReaderRequestsFenced";
    static final String INTERRUPT_CANCELS = "ManagedSourceReaderInterruptCancels";
    static final String BARRIER_HANDOFFS = "ManagedSourceBarrierHandoffs";
    static final String BARRIER_HANDOFF_TIMEOUTS = "ManagedSourceBarrierHandoffTimeouts";
    static final String BARRIER_HANDOFF_WAIT_NANOS = "ManagedSourceBarrierHandoffWaitNanos";
    static final String BARRIER_COHORT_WAITS = "ManagedSourceBarrierCohortWaits";
    static final String BARRIER_COHORT_TIMEOUTS = "ManagedSourceBarrierCohortTimeouts";
    static final String OUTPUT_BLOCKED_NANOS = "ManagedSourceOutputBlockedNanos";
    static final String OUTPUT_IN_FLIGHT_LIMIT = "ManagedSourceOutputInFlightLimit";

    private ReaderTaskMetrics() {}

    /**
     * Registers the reader's metrics of {@code level}, and the off-loop check's pair while that
     * check is on (they stay 0 otherwise); a null context (some test contexts) registers nothing.
     */
    static List<String> register(
            MetricsContext context,
            ReaderMailbox mailbox,
            ReaderLoopMetrics loop,
            LongSupplier nanoTime,
            ReaderMetricsLevel level,
            boolean offLoopCheck) {
        List<String> names = new ArrayList<>();
        if (context == null) {
            return names;
        }
        Registrar basic = new Registrar(context, names, true);
        Registrar detailed = new Registrar(context, names, level == ReaderMetricsLevel.DETAILED);
        ReaderMailboxMetrics m = mailbox.metrics();
        for (AdmissionStatus s : AdmissionStatus.values()) {
            detailed.total(admissionName(s), () -> m.admissions(s));
        }
        detailed.total(RESERVED_CONTROL_USES, m::reservedUses);
        detailed.total(RESERVED_CONTROL_EXHAUSTED, m::reservedExhausted);
        basic.level(MAILBOX_COMMANDS, mailbox::commandCount);
        basic.level(MAILBOX_BYTES, mailbox::payloadBytes);
        basic.level(
                MAILBOX_OLDEST_AGE_NANOS,
                () -> {
                    long oldest = mailbox.oldestAdmittedNanos();
                    return oldest < 0 ? 0 : Math.max(0, nanoTime.getAsLong() - oldest);
                });
        basic.total(POLL_TURNS, loop::pollTurns);
        basic.total(POLL_RECORDS, loop::records);
        basic.total(POLL_BYTES, loop::bytes);
        basic.total(POLL_NANOS, loop::pollNanos);
        detailed.total(POLL_SOFT_OVERRUNS, loop::softOverruns);
        detailed.total(POLL_HARD_WAKEUPS, loop::hardWakeups);
        detailed.total(POLL_RECORD_BUDGET_OVERRUNS, loop::recordBudgetOverruns);
        basic.total(AVAILABILITY_NOT_SIGNALLED, loop::availabilityNotSignalled);
        detailed.total(POLLS_LINGERED, loop::pollsLingered);
        Registrar offLoop = new Registrar(context, names, offLoopCheck);
        offLoop.total(OFF_LOOP_STATE_CHECKS, loop::offLoopStateChecks);
        offLoop.total(OFF_LOOP_STATE_CHANGES, loop::offLoopStateChanges);
        detailed.total(CHECKPOINT_REPORTS_UNCHANGED, loop::reportsUnchanged);
        detailed.total(POLL_UNSIZED_RECORDS, loop::unsizedRecords);
        basic.total(COMMANDS_APPLIED, loop::commandsApplied);
        basic.total(DUPLICATES_SKIPPED, loop::duplicatesSkipped);
        basic.total(QUEUE_WAIT_NANOS, loop::queueWaitNanos);
        detailed.total(CUT_DEFERRALS, loop::cutDeferrals);
        basic.total(READER_CHECKPOINTS, loop::checkpoints);
        detailed.total(SCHEMA_CHANGES_REQUESTED, loop::schemaChangesRequested);
        detailed.total(SCHEMA_CHANGES_COMPLETED, loop::schemaChangesCompleted);
        detailed.total(SCHEMA_CHANGE_IGNORED_CALLBACKS, loop::schemaChangeIgnoredCallbacks);
        detailed.total(SCHEMA_CHANGE_EVENTS, loop::schemaChangeEvents);
        BackpressureMetrics bp = loop.backpressure();
        detailed.total(BARRIER_HANDOFFS, bp::barrierHandoffs);
        detailed.total(BARRIER_HANDOFF_TIMEOUTS, bp::barrierHandoffTimeouts);
        detailed.total(BARRIER_HANDOFF_WAIT_NANOS, bp::barrierHandoffWaitNanos);
        detailed.total(BARRIER_COHORT_WAITS, bp::barrierCohortWaits);
        detailed.total(BARRIER_COHORT_TIMEOUTS, bp::barrierCohortTimeouts);
        basic.total(OUTPUT_BLOCKED_NANOS, bp::outputBlockedNanos);
        detailed.level(OUTPUT_IN_FLIGHT_LIMIT, bp::outputInFlightLimit);
        return Collections.unmodifiableList(names);
    }

    /**
     * Registers the host's own figures of {@code level}: the reader's requests to its coordinator
     * and the cancels its interrupt check turned into terminal signals. A null context registers
     * nothing.
     */
    static List<String> registerHostMetrics(
            MetricsContext context,
            OutboundRequests requests,
            LongSupplier interruptCancels,
            ReaderMetricsLevel level) {
        List<String> names = new ArrayList<>();
        if (context == null) {
            return names;
        }
        Registrar basic = new Registrar(context, names, true);
        Registrar detailed = new Registrar(context, names, level == ReaderMetricsLevel.DETAILED);
        basic.total(REQUESTS_SENT, requests::sent);
        basic.level(REQUESTS_OUTSTANDING, requests::outstanding);
        detailed.total(SPLIT_REQUESTS_COALESCED, requests::coalesced);
        detailed.total(REQUESTS_AT_BOUND, requests::atBound);
        detailed.total(REQUESTS_UNDELIVERED, requests::undelivered);
        detailed.total(REQUESTS_FENCED, requests::fenced);
        detailed.total(INTERRUPT_CANCELS, interruptCancels);
        return Collections.unmodifiableList(names);
    }

    /** {@code ManagedSourceAdmission} + the status in PascalCase, e.g. ...AdmissionRetryLater. */
    static String admissionName(AdmissionStatus s) {
        StringBuilder b = new StringBuilder(ADMISSION_PREFIX);
        for (String part : s.name().split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return b.toString();
    }

    /** Registers into one context, or skips every metric when its level is not wanted. */
    private static final class Registrar {
        private final MetricsContext context;
        private final List<String> names;
        private final boolean wanted;

        Registrar(MetricsContext context, List<String> names, boolean wanted) {
            this.context = context;
            this.names = names;
            this.wanted = wanted;
        }

        /** A count since the attempt started; a restored task's total continues from its last. */
        void total(String name, LongSupplier value) {
            if (wanted) {
                SnapshotGauges.register(context, name, SnapshotGauges.Kind.TOTAL, value);
                names.add(name);
            }
        }

        /** A current level or limit. */
        void level(String name, LongSupplier value) {
            if (wanted) {
                SnapshotGauges.register(context, name, SnapshotGauges.Kind.LEVEL, value);
                names.add(name);
            }
        }
    }
}
