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

    /** Registers every reader metric; a null context (some test contexts) registers nothing. */
    static List<String> register(
            MetricsContext context,
            ReaderMailbox mailbox,
            ReaderLoopMetrics loop,
            LongSupplier nanoTime) {
        List<String> names = new ArrayList<>();
        if (context == null) {
            return names;
        }
        ReaderMailboxMetrics m = mailbox.metrics();
        for (AdmissionStatus s : AdmissionStatus.values()) {
            add(context, names, admissionName(s), () -> m.admissions(s));
        }
        add(context, names, RESERVED_CONTROL_USES, m::reservedUses);
        add(context, names, RESERVED_CONTROL_EXHAUSTED, m::reservedExhausted);
        addLevel(context, names, MAILBOX_COMMANDS, mailbox::commandCount);
        addLevel(context, names, MAILBOX_BYTES, mailbox::payloadBytes);
        addLevel(
                context,
                names,
                MAILBOX_OLDEST_AGE_NANOS,
                () -> {
                    long oldest = mailbox.oldestAdmittedNanos();
                    return oldest < 0 ? 0 : Math.max(0, nanoTime.getAsLong() - oldest);
                });
        add(context, names, POLL_TURNS, loop::pollTurns);
        add(context, names, POLL_RECORDS, loop::records);
        add(context, names, POLL_BYTES, loop::bytes);
        add(context, names, POLL_NANOS, loop::pollNanos);
        add(context, names, POLL_SOFT_OVERRUNS, loop::softOverruns);
        add(context, names, POLL_HARD_WAKEUPS, loop::hardWakeups);
        add(context, names, POLL_RECORD_BUDGET_OVERRUNS, loop::recordBudgetOverruns);
        add(context, names, AVAILABILITY_NOT_SIGNALLED, loop::availabilityNotSignalled);
        add(context, names, POLLS_LINGERED, loop::pollsLingered);
        add(context, names, OFF_LOOP_STATE_CHECKS, loop::offLoopStateChecks);
        add(context, names, OFF_LOOP_STATE_CHANGES, loop::offLoopStateChanges);
        add(context, names, CHECKPOINT_REPORTS_UNCHANGED, loop::reportsUnchanged);
        add(context, names, POLL_UNSIZED_RECORDS, loop::unsizedRecords);
        add(context, names, COMMANDS_APPLIED, loop::commandsApplied);
        add(context, names, DUPLICATES_SKIPPED, loop::duplicatesSkipped);
        add(context, names, QUEUE_WAIT_NANOS, loop::queueWaitNanos);
        add(context, names, CUT_DEFERRALS, loop::cutDeferrals);
        add(context, names, READER_CHECKPOINTS, loop::checkpoints);
        add(context, names, SCHEMA_CHANGES_REQUESTED, loop::schemaChangesRequested);
        add(context, names, SCHEMA_CHANGES_COMPLETED, loop::schemaChangesCompleted);
        add(context, names, SCHEMA_CHANGE_IGNORED_CALLBACKS, loop::schemaChangeIgnoredCallbacks);
        add(context, names, SCHEMA_CHANGE_EVENTS, loop::schemaChangeEvents);
        BackpressureMetrics bp = loop.backpressure();
        add(context, names, BARRIER_HANDOFFS, bp::barrierHandoffs);
        add(context, names, BARRIER_HANDOFF_TIMEOUTS, bp::barrierHandoffTimeouts);
        add(context, names, BARRIER_HANDOFF_WAIT_NANOS, bp::barrierHandoffWaitNanos);
        add(context, names, BARRIER_COHORT_WAITS, bp::barrierCohortWaits);
        add(context, names, BARRIER_COHORT_TIMEOUTS, bp::barrierCohortTimeouts);
        add(context, names, OUTPUT_BLOCKED_NANOS, bp::outputBlockedNanos);
        addLevel(context, names, OUTPUT_IN_FLIGHT_LIMIT, bp::outputInFlightLimit);
        return Collections.unmodifiableList(names);
    }

    /**
     * Registers the host's own figures: the reader's requests to its coordinator and the cancels
     * its interrupt check turned into terminal signals. A null context registers nothing.
     */
    static List<String> registerHostMetrics(
            MetricsContext context, OutboundRequests requests, LongSupplier interruptCancels) {
        List<String> names = new ArrayList<>();
        if (context == null) {
            return names;
        }
        add(context, names, REQUESTS_SENT, requests::sent);
        addLevel(context, names, REQUESTS_OUTSTANDING, requests::outstanding);
        add(context, names, SPLIT_REQUESTS_COALESCED, requests::coalesced);
        add(context, names, REQUESTS_AT_BOUND, requests::atBound);
        add(context, names, REQUESTS_UNDELIVERED, requests::undelivered);
        add(context, names, REQUESTS_FENCED, requests::fenced);
        add(context, names, INTERRUPT_CANCELS, interruptCancels);
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

    /** A count since the attempt started; a restored task's total continues from its last. */
    private static void add(
            MetricsContext context, List<String> names, String name, LongSupplier value) {
        SnapshotGauges.register(context, name, SnapshotGauges.Kind.TOTAL, value);
        names.add(name);
    }

    /** A current level or limit. */
    private static void addLevel(
            MetricsContext context, List<String> names, String name, LongSupplier value) {
        SnapshotGauges.register(context, name, SnapshotGauges.Kind.LEVEL, value);
        names.add(name);
    }
}
