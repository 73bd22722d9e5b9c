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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counter names are bounded PascalCase constants: no split id, command id or payload ever becomes
 * part of a name.
 *
 * <p>Threading: every method is thread-safe; counters are incremented by the loop, by callers of
 * {@code offer} (queue full) and by worker threads, and read by anyone.
 */
public final class CoordinatorMetrics {

    /** One counter per coordinator-side event worth alerting on. */
    public enum Counter {
        COMMANDS_APPLIED("CoordinatorCommandsApplied"),
        QUEUE_FULL("CoordinatorQueueFull"),
        COMPLETIONS_DROPPED("CoordinatorCompletionsDropped"),
        COMMAND_FAILURES("CoordinatorCommandFailures"),
        COMMANDS_AFTER_CLOSE("CoordinatorCommandsAfterClose"),
        SNAPSHOTS("CoordinatorSnapshots"),
        SNAPSHOT_FAILURES("CoordinatorSnapshotFailures"),
        /** Engine snapshot demands whose caller ran the loop itself: no thread hop. */
        SNAPSHOTS_ON_CALLER("CoordinatorSnapshotsOnCaller"),
        /** Nanoseconds the engine's snapshot demands waited in total (divide by the count). */
        SNAPSHOT_WAIT_NANOS("CoordinatorSnapshotWaitNanos"),
        /** Snapshot demands that waited longer than coordinator.snapshot-slow-threshold. */
        SNAPSHOT_SLOW_WAITS("CoordinatorSnapshotSlowWaits"),
        /** Snapshot demands that gave up after coordinator.snapshot-timeout. */
        SNAPSHOT_TIMEOUTS("CoordinatorSnapshotTimeouts"),
        STALE_RESULTS("CoordinatorStaleResults"),
        CANCELLED_RESULTS("CoordinatorCancelledResults"),
        ASYNC_SUBMITTED("CoordinatorAsyncSubmitted"),
        ASYNC_TIMEOUTS("CoordinatorAsyncTimeouts"),
        ASYNC_REJECTED("CoordinatorAsyncRejected"),
        ASYNC_COALESCED("CoordinatorAsyncCoalesced"),
        ASYNC_FAILURES("CoordinatorAsyncFailures"),
        TICKS("CoordinatorTicks"),
        TICKS_COALESCED("CoordinatorTicksCoalesced"),
        STALE_READER_COMMANDS("CoordinatorStaleReaderCommands"),
        DUPLICATE_REGISTRATIONS("CoordinatorDuplicateRegistrations"),
        DUPLICATE_CHECKPOINT_CALLBACKS("CoordinatorDuplicateCheckpointCallbacks"),
        /**
         * Completed checkpoints the coordinator first heard of from a reader on its member, before
         * the engine told the enumerator (see {@link CheckpointCompletionGate}).
         */
        COMPLETIONS_FROM_READERS("CoordinatorCompletionsFromReaders"),
        RECONCILIATIONS("CoordinatorReaderReconciliations"),
        ASSIGNMENTS_CREATED("AssignmentsCreated"),
        ASSIGNMENTS_DISPATCHED("AssignmentsDispatched"),
        /** Split-assignment commands sent; each carries one or more splits. */
        ASSIGNMENT_COMMANDS("AssignmentCommandsSent"),
        /** Dispatches a reader's credit window held back: it had not applied enough yet. */
        CREDIT_WAITS("AssignmentCreditWaits"),
        /** Times the enumerator was asked for splits (SupportSplitDemand). */
        SPLIT_DEMANDS("SplitDemandCalls"),
        /** Demands the enumerator answered with no split: not repeated until something changes. */
        SPLIT_DEMANDS_UNANSWERED("SplitDemandsUnanswered"),
        /** Demands held back because the tracker (or the reader's share of it) was full. */
        SPLIT_DEMANDS_HELD("SplitDemandsHeld"),
        /**
         * Times a reader's split window was full (it held as many unread splits as it asked for):
         * its splits waited in the coordinator until it reported room. Counted once per wait.
         */
        SPLIT_WINDOW_WAITS("SplitWindowWaits"),
        /** Assignments refused at assignment-tracker.max-unassigned-*: the coordinator failed. */
        UNASSIGNED_BOUND_REFUSALS("AssignmentUnassignedBoundRefusals"),
        /** Commands whose send ended without admission (retries, deadline): the epoch failed. */
        ASSIGNMENT_SEND_FAILURES("AssignmentSendFailures"),
        ASSIGNMENT_BACKPRESSURED("AssignmentBackpressured"),
        ASSIGNMENT_HELD_FOR_RECONCILIATION("AssignmentHeldForReconciliation"),
        ASSIGNMENTS_RETURNED("AssignmentsReturnedToEnumerator"),
        ASSIGNMENTS_INCLUDED("AssignmentsCheckpointIncluded"),
        ASSIGNMENTS_GC("AssignmentsGarbageCollected"),
        /**
         * Assignments a coordinator snapshot left out because their reader had applied them before
         * that checkpoint's barrier (summed over snapshots; {@link AppliedBeforeBarrier}).
         */
        SNAPSHOT_ASSIGNMENTS_LEFT_OUT("SnapshotAssignmentsLeftOut"),
        /** The splits of {@link #SNAPSHOT_ASSIGNMENTS_LEFT_OUT}. */
        SNAPSHOT_SPLITS_LEFT_OUT("SnapshotSplitsLeftOut"),
        ASSIGNMENT_DUPLICATE_ACKS("AssignmentDuplicateAcks"),
        ASSIGNMENT_FENCED_ACKS("AssignmentFencedAcks"),
        ASSIGNMENT_STALE_TARGET("AssignmentStaleTarget"),
        INCLUSION_REPORTS_FENCED("ReaderInclusionReportsFenced"),
        /**
         * Restored reader states the engine handed back a second time in one epoch, dropped whole:
         * passing their splits on would give the enumerator two copies of each.
         */
        RESTORED_STATES_DUPLICATED("RestoredReaderStatesDuplicated"),
        NO_MORE_SPLITS_SENT("NoMoreSplitsSent"),
        SPLIT_REQUESTS_AFTER_NO_MORE_SPLITS("SplitRequestsAfterNoMoreSplits"),
        CUT_RELEASES_SENT("CoordinatorCutReleasesSent"),
        SOURCE_EVENTS_SENT("SourceEventsSent"),
        SOURCE_EVENTS_DROPPED("SourceEventsDropped"),
        /** Enumerator context calls made off the loop and marshalled onto it. */
        ENUMERATOR_CALLS_MARSHALLED("ManagedSourceEnumeratorCallsMarshalled");

        private final String metricName;

        Counter(String metricName) {
            this.metricName = metricName;
        }

        public String metricName() {
            return metricName;
        }
    }

    /**
     * What the coordinator holds now (the tracker's figures published by {@link TrackerGauges}, the
     * queue's by the loop), as opposed to the counters, which only grow.
     */
    public enum Gauge {
        /** Assignments in flight: what assignment-tracker.max-entries bounds. */
        TRACKER_ASSIGNMENTS("AssignmentTrackerAssignments"),
        /** Splits the tracker holds: in flight, and waiting for room in their reader. */
        TRACKER_SPLITS("AssignmentTrackerSplits"),
        /** Their estimated heap bytes: what assignment-tracker.max-bytes bounds (with the wait). */
        TRACKER_BYTES("AssignmentTrackerEstimatedBytes"),
        /**
         * When the oldest assignment not yet proven by a completed checkpoint was dispatched (epoch
         * millis, -1 when none); exported as its age.
         */
        OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS("AssignmentOldestUncheckpointedAgeMillis"),
        /** Commands waiting in the coordinator's queue after a drain (bounded by its capacity). */
        QUEUED_COMMANDS("CoordinatorQueuedCommands");

        private final String metricName;

        Gauge(String metricName) {
            this.metricName = metricName;
        }

        public String metricName() {
            return metricName;
        }
    }

    private static final Counter[] COUNTERS = Counter.values();

    private final AtomicLongArray values = new AtomicLongArray(COUNTERS.length);
    private final AtomicLongArray gauges = new AtomicLongArray(Gauge.values().length);

    public void increment(Counter c) {
        values.incrementAndGet(c.ordinal());
    }

    public void add(Counter c, long delta) {
        values.addAndGet(c.ordinal(), delta);
    }

    public long get(Counter c) {
        return values.get(c.ordinal());
    }

    public void set(Gauge g, long value) {
        gauges.set(g.ordinal(), value);
    }

    public long get(Gauge g) {
        return gauges.get(g.ordinal());
    }

    /** A point-in-time copy keyed by metric name, in declaration order. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : COUNTERS) {
            m.put(c.metricName, values.get(c.ordinal()));
        }
        return m;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("CoordinatorMetrics{");
        for (Counter c : COUNTERS) {
            long v = values.get(c.ordinal());
            if (v != 0) {
                sb.append(c.metricName).append('=').append(v).append(' ');
            }
        }
        return sb.append('}').toString();
    }
}
