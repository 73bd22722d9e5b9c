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

package org.apache.seatunnel.engine.managed.source.transport;

import static org.apache.seatunnel.engine.managed.source.transport.MemberMetric.counter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * Counters of one member's command transport, both ends. Names are PascalCase constants; labels
 * never carry split ids or payloads (there are no labels: these are member totals).
 *
 * <p>Threading: lock-free; any thread increments, any thread reads. Reads are individually atomic
 * but a {@link #snapshot()} is not a consistent cut across counters.
 */
public final class TransportMetrics {
    // Receiving end (SourceCommandTransportAdapter).
    public static final String READER_DELIVERIES = "ManagedSourceTransportReaderDeliveries";
    public static final String COORDINATOR_DELIVERIES =
            "ManagedSourceTransportCoordinatorDeliveries";
    public static final String NO_SUCH_TARGET = "ManagedSourceTransportNoSuchTarget";
    public static final String DECODE_FAILURES = "ManagedSourceTransportDecodeFailures";
    public static final String HANDLER_FAILURES = "ManagedSourceTransportHandlerFailures";
    public static final String ANSWERED_PREFIX = "ManagedSourceTransportAnswered";

    /**
     * Inbound frames refused with a final status, per reason: {@code
     * ManagedSourceTransportRefused{Reason}}, e.g. {@code ManagedSourceTransportRefusedWrongJob}.
     */
    public static final String REFUSED_PREFIX = "ManagedSourceTransportRefused";

    // Sending end (CommandSender).
    public static final String SENT = "ManagedSourceCommandsSent";
    public static final String ATTEMPTS = "ManagedSourceCommandAttempts";
    public static final String RETRIES = "ManagedSourceCommandRetries";
    public static final String TRANSPORT_FAILURES = "ManagedSourceCommandTransportFailures";
    public static final String QUEUE_FULL = "ManagedSourceCommandQueueFull";
    public static final String TIMEOUTS = "ManagedSourceCommandTimeouts";
    public static final String RETRIES_EXHAUSTED = "ManagedSourceCommandRetriesExhausted";
    public static final String ADMISSION_OVER_BUDGET = "ManagedSourceAdmissionOverBudget";
    public static final String ACK_DECODE_FAILURES = "ManagedSourceCommandAckDecodeFailures";
    public static final String FINAL_PREFIX = "ManagedSourceCommandFinal";
    public static final String BATCHES_SENT = "ManagedSourceCommandBatchesSent";
    public static final String STREAMS_BROKEN = "ManagedSourceCommandStreamsBroken";

    // Checkpoint-report batching (CheckpointReportLane, and the receiving adapter).
    public static final String REPORT_BATCHES_SENT = "ManagedSourceReportBatchesSent";
    public static final String REPORTS_BATCHED = "ManagedSourceReportsBatched";
    public static final String REPORT_FLUSH_ALL_REPORTED = "ManagedSourceReportFlushAllReported";
    public static final String REPORT_FLUSH_WINDOW = "ManagedSourceReportFlushWindow";
    public static final String REPORT_FLUSH_COUNT_BOUND = "ManagedSourceReportFlushCountBound";
    public static final String REPORT_BATCH_RETRIES = "ManagedSourceReportBatchRetries";
    public static final String REPORTS_DROPPED = "ManagedSourceReportsDropped";
    public static final String BATCHES_RECEIVED = "ManagedSourceTransportBatchesReceived";

    public final AtomicLong readerDeliveries = new AtomicLong();
    public final AtomicLong coordinatorDeliveries = new AtomicLong();
    public final AtomicLong noSuchTarget = new AtomicLong();
    public final AtomicLong decodeFailures = new AtomicLong();
    public final AtomicLong handlerFailures = new AtomicLong();
    private final AtomicLongArray answered = new AtomicLongArray(AdmissionStatus.values().length);
    private final AtomicLongArray refused = new AtomicLongArray(ReasonCode.values().length);

    public final AtomicLong sent = new AtomicLong();
    public final AtomicLong attempts = new AtomicLong();
    public final AtomicLong retries = new AtomicLong();
    public final AtomicLong transportFailures = new AtomicLong();
    public final AtomicLong queueFull = new AtomicLong();
    public final AtomicLong timeouts = new AtomicLong();
    public final AtomicLong retriesExhausted = new AtomicLong();
    public final AtomicLong admissionOverBudget = new AtomicLong();
    public final AtomicLong ackDecodeFailures = new AtomicLong();
    public final AtomicLong batchesSent = new AtomicLong();
    public final AtomicLong streamsBroken = new AtomicLong();
    private final AtomicLongArray finalStatus =
            new AtomicLongArray(AdmissionStatus.values().length);

    public final AtomicLong reportBatchesSent = new AtomicLong();
    public final AtomicLong reportsBatched = new AtomicLong();
    public final AtomicLong reportFlushAllReported = new AtomicLong();
    public final AtomicLong reportFlushWindow = new AtomicLong();
    public final AtomicLong reportFlushCountBound = new AtomicLong();
    public final AtomicLong reportBatchRetries = new AtomicLong();
    public final AtomicLong reportsDropped = new AtomicLong();
    public final AtomicLong batchesReceived = new AtomicLong();

    public void recordAnswered(AdmissionStatus status) {
        answered.incrementAndGet(status.ordinal());
    }

    /** Counts a refused inbound frame and returns the new count for its reason. */
    public long recordRefused(ReasonCode reason) {
        return refused.incrementAndGet(reason.ordinal());
    }

    /** Inbound frames refused (final status) with {@code reason}. */
    public long refused(ReasonCode reason) {
        return refused.get(reason.ordinal());
    }

    /** Inbound frames refused with a final status, over all reasons. */
    public long refusedTotal() {
        long n = 0;
        for (int i = 0; i < refused.length(); i++) {
            n += refused.get(i);
        }
        return n;
    }

    public void recordFinal(AdmissionStatus status) {
        finalStatus.incrementAndGet(status.ordinal());
    }

    /** Acks the receiving end answered with {@code status}. */
    public long answered(AdmissionStatus status) {
        return answered.get(status.ordinal());
    }

    /** Sends that ended with {@code status} (final statuses only; RETRY_LATER never ends one). */
    public long finalStatus(AdmissionStatus status) {
        return finalStatus.get(status.ordinal());
    }

    public long readerDeliveries() {
        return readerDeliveries.get();
    }

    public long coordinatorDeliveries() {
        return coordinatorDeliveries.get();
    }

    public long noSuchTarget() {
        return noSuchTarget.get();
    }

    public long decodeFailures() {
        return decodeFailures.get();
    }

    public long handlerFailures() {
        return handlerFailures.get();
    }

    public long sent() {
        return sent.get();
    }

    public long attempts() {
        return attempts.get();
    }

    public long retries() {
        return retries.get();
    }

    public long transportFailures() {
        return transportFailures.get();
    }

    public long queueFull() {
        return queueFull.get();
    }

    public long timeouts() {
        return timeouts.get();
    }

    /** Sends ended because {@code retry.max-attempts} attempts were made. */
    public long retriesExhausted() {
        return retriesExhausted.get();
    }

    /** Inbound admissions that took longer than {@code admission.p99-budget}. */
    public long admissionOverBudget() {
        return admissionOverBudget.get();
    }

    public long ackDecodeFailures() {
        return ackDecodeFailures.get();
    }

    /** Invocations that carried more than one command of a stream. */
    public long batchesSent() {
        return batchesSent.get();
    }

    /**
     * Streams whose head ended without admission while commands waited behind it: those failed
     * unsent rather than overtake it.
     */
    public long streamsBroken() {
        return streamsBroken.get();
    }

    /** Report batches sent (first attempts; a retry of the rest of a batch is not counted). */
    public long reportBatchesSent() {
        return reportBatchesSent.get();
    }

    /** Checkpoint reports that left this member inside a batch, each counted once. */
    public long reportsBatched() {
        return reportsBatched.get();
    }

    /** Batches flushed because every local reader of the source had reported. */
    public long reportFlushAllReported() {
        return reportFlushAllReported.get();
    }

    /** Batches flushed because the oldest report waited {@code transport.report-batch-window}. */
    public long reportFlushWindow() {
        return reportFlushWindow.get();
    }

    /** Batches flushed because they reached {@code transport.report-batch-max-reports}. */
    public long reportFlushCountBound() {
        return reportFlushCountBound.get();
    }

    /** Re-sends of a batch's not-yet-accepted reports after RETRY_LATER or a failure. */
    public long reportBatchRetries() {
        return reportBatchRetries.get();
    }

    /**
     * Checkpoint reports that ended without a final ack (deadline, retries exhausted, queue full,
     * member closing, undecodable answer): recoverable, as later checkpoints re-derive them.
     */
    public long reportsDropped() {
        return reportsDropped.get();
    }

    /** Command batches received by this member. */
    public long batchesReceived() {
        return batchesReceived.get();
    }

    /** Every counter by its metric name, e.g. {@code ManagedSourceCommandFinalStaleTarget}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (MemberMetric<TransportMetrics> d : METRICS) {
            m.put(d.name(), d.value(this));
        }
        return m;
    }

    /**
     * The declaration of every counter of {@link #snapshot()} (all are {@link
     * MemberMetric.Kind#COUNTER totals}), each with its own help text, in snapshot order.
     */
    public static List<MemberMetric<TransportMetrics>> metrics() {
        return METRICS;
    }

    private static final List<MemberMetric<TransportMetrics>> METRICS = declare();

    private static List<MemberMetric<TransportMetrics>> declare() {
        List<MemberMetric<TransportMetrics>> l = new ArrayList<>();
        l.add(
                counter(
                        READER_DELIVERIES,
                        "Commands delivered to a reader mailbox on this member",
                        TransportMetrics::readerDeliveries));
        l.add(
                counter(
                        COORDINATOR_DELIVERIES,
                        "Commands delivered to a coordinator on this member",
                        TransportMetrics::coordinatorDeliveries));
        l.add(
                counter(
                        NO_SUCH_TARGET,
                        "Commands for a reader or coordinator not (or no longer) on this member",
                        TransportMetrics::noSuchTarget));
        l.add(
                counter(
                        DECODE_FAILURES,
                        "Inbound command frames that failed to decode",
                        TransportMetrics::decodeFailures));
        l.add(
                counter(
                        HANDLER_FAILURES,
                        "Inbound deliveries whose handler threw (answered RetryLater)",
                        TransportMetrics::handlerFailures));
        l.add(counter(SENT, "Commands sent from this member", TransportMetrics::sent));
        l.add(
                counter(
                        ATTEMPTS,
                        "Command send attempts from this member, first tries and retries",
                        TransportMetrics::attempts));
        l.add(
                counter(
                        RETRIES,
                        "Retries of a command stream's head after RetryLater or a transport"
                                + " failure",
                        TransportMetrics::retries));
        l.add(
                counter(
                        TRANSPORT_FAILURES,
                        "Command sends that failed in Hazelcast",
                        TransportMetrics::transportFailures));
        l.add(
                counter(
                        QUEUE_FULL,
                        "Command sends refused because their stream held its bound of queued"
                                + " commands",
                        TransportMetrics::queueFull));
        l.add(counter(TIMEOUTS, "Command sends past their deadline", TransportMetrics::timeouts));
        l.add(
                counter(
                        RETRIES_EXHAUSTED,
                        "Command stream heads that ended after retry.max-attempts attempts"
                                + " without progress",
                        TransportMetrics::retriesExhausted));
        l.add(
                counter(
                        ADMISSION_OVER_BUDGET,
                        "Inbound admissions slower than admission.p99-budget",
                        TransportMetrics::admissionOverBudget));
        l.add(
                counter(
                        ACK_DECODE_FAILURES,
                        "Command acks that failed to decode",
                        TransportMetrics::ackDecodeFailures));
        l.add(
                counter(
                        BATCHES_SENT,
                        "Invocations that carried more than one command of a stream",
                        TransportMetrics::batchesSent));
        l.add(
                counter(
                        STREAMS_BROKEN,
                        "Command streams whose head ended without admission while commands"
                                + " waited behind it",
                        TransportMetrics::streamsBroken));
        l.add(
                counter(
                        REPORT_BATCHES_SENT,
                        "Batches of reader checkpoint reports sent from this member",
                        TransportMetrics::reportBatchesSent));
        l.add(
                counter(
                        REPORTS_BATCHED,
                        "Reader checkpoint reports sent inside batches, each counted once",
                        TransportMetrics::reportsBatched));
        l.add(
                counter(
                        REPORT_FLUSH_ALL_REPORTED,
                        "Report batches sent because every reader of the source on this member"
                                + " had reported",
                        TransportMetrics::reportFlushAllReported));
        l.add(
                counter(
                        REPORT_FLUSH_WINDOW,
                        "Report batches sent because the oldest report waited"
                                + " transport.report-batch-window",
                        TransportMetrics::reportFlushWindow));
        l.add(
                counter(
                        REPORT_FLUSH_COUNT_BOUND,
                        "Report batches sent because they reached"
                                + " transport.report-batch-max-reports",
                        TransportMetrics::reportFlushCountBound));
        l.add(
                counter(
                        REPORT_BATCH_RETRIES,
                        "Resends of a report batch's unanswered reports",
                        TransportMetrics::reportBatchRetries));
        l.add(
                counter(
                        REPORTS_DROPPED,
                        "Checkpoint reports that ended without a final answer (recovered from"
                                + " the next checkpoint's report)",
                        TransportMetrics::reportsDropped));
        l.add(
                counter(
                        BATCHES_RECEIVED,
                        "Command batches this member opened",
                        TransportMetrics::batchesReceived));
        for (AdmissionStatus s : AdmissionStatus.values()) {
            l.add(
                    counter(
                            ANSWERED_PREFIX + pascal(s),
                            "Acks this member answered with admission status " + s.name(),
                            m -> m.answered(s)));
            l.add(
                    counter(
                            FINAL_PREFIX + pascal(s),
                            "Command sends from this member that ended with admission status "
                                    + s.name(),
                            m -> m.finalStatus(s)));
        }
        for (ReasonCode r : ReasonCode.values()) {
            if (r != ReasonCode.NONE) {
                l.add(
                        counter(
                                REFUSED_PREFIX + pascal(r.name()),
                                "Inbound frames this member refused with a final status for"
                                        + " reason "
                                        + r.name(),
                                m -> m.refused(r)));
            }
        }
        return Collections.unmodifiableList(l);
    }

    /** {@code STALE_TARGET} → {@code StaleTarget}. */
    static String pascal(AdmissionStatus s) {
        return pascal(s.name());
    }

    /** {@code WRONG_JOB} → {@code WrongJob}. */
    public static String pascal(String constant) {
        StringBuilder b = new StringBuilder();
        for (String part : constant.split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }
}
