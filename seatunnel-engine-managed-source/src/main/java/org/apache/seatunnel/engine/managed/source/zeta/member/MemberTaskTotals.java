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

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.transport.MemberMetric;

/**
 * Member-wide sums of the few reader and coordinator task metrics that operators alert on, for the
 * telemetry endpoint, which never sees task metrics.
 *
 * <p>Zeta 2.3.8 exports no task metric to Prometheus (its job exporter has only job counts by
 * state), so an alert on a reader's or a coordinator's counter could not be written. This keeps the
 * live metrics of every Lane A reader and coordinator on the member and, when one closes, adds its
 * last counter values to the member's retired totals, so the member's counters only grow (until the
 * member restarts) however often tasks come and go.
 *
 * <p>Threading: readers and coordinators are added on their engine task threads and retired on
 * whichever thread closes them; the endpoint's thread reads at any time. All of it is guarded by
 * this object's monitor, held only to update the map or sum a few atomics, so that a retirement and
 * a read never see a task twice or not at all (a counter that went down would look like a member
 * restart to Prometheus).
 */
public final class MemberTaskTotals {
    public static final String AVAILABILITY_NOT_SIGNALLED =
            "ManagedSourceMemberAvailabilityNotSignalled";
    public static final String OFF_LOOP_STATE_CHANGES = "ManagedSourceMemberOffLoopStateChanges";
    public static final String SNAPSHOT_TIMEOUTS = "ManagedSourceMemberCoordinatorSnapshotTimeouts";
    public static final String TRACKER_ASSIGNMENTS =
            "ManagedSourceMemberAssignmentTrackerAssignments";
    public static final String TRACKER_SPLITS = "ManagedSourceMemberAssignmentTrackerSplits";
    public static final String TRACKER_BYTES = "ManagedSourceMemberAssignmentTrackerEstimatedBytes";
    public static final String OLDEST_UNCHECKPOINTED_AGE =
            "ManagedSourceMemberAssignmentOldestUncheckpointedAgeMillis";
    public static final String JOB_LANE_A = "ManagedSourceJobLaneA";

    private static final List<MemberMetric<MemberTaskTotals>> METRICS = declare();

    // Identity: two tasks' metrics are never equal objects, but be explicit about it.
    private final Map<ReaderLoopMetrics, Boolean> readers = new IdentityHashMap<>();
    // Each running coordinator with its job's id: one Lane A source of that job.
    private final Map<CoordinatorMetrics, String> coordinators = new IdentityHashMap<>();
    private long retiredAvailabilityNotSignalled;
    private long retiredOffLoopStateChanges;
    private long retiredSnapshotTimeouts;

    /** A reader attempt opened on this member. */
    public synchronized void readerOpened(ReaderLoopMetrics reader) {
        readers.put(reader, Boolean.TRUE);
    }

    /** A reader attempt closed: its counts stay in the member's totals. Idempotent. */
    public synchronized void readerClosed(ReaderLoopMetrics reader) {
        if (readers.remove(reader) != null) {
            retiredAvailabilityNotSignalled += reader.availabilityNotSignalled();
            retiredOffLoopStateChanges += reader.offLoopStateChanges();
        }
    }

    /** A coordinator of a Lane A source of job {@code jobId} started on this member. */
    public synchronized void coordinatorOpened(CoordinatorMetrics coordinator, String jobId) {
        coordinators.put(coordinator, String.valueOf(jobId));
    }

    /** A coordinator closed: its counts stay in the totals, its gauges leave them. Idempotent. */
    public synchronized void coordinatorClosed(CoordinatorMetrics coordinator) {
        if (coordinators.remove(coordinator) != null) {
            retiredSnapshotTimeouts +=
                    coordinator.get(CoordinatorMetrics.Counter.SNAPSHOT_TIMEOUTS);
        }
    }

    synchronized long availabilityNotSignalled() {
        long n = retiredAvailabilityNotSignalled;
        for (ReaderLoopMetrics r : readers.keySet()) {
            n += r.availabilityNotSignalled();
        }
        return n;
    }

    synchronized long offLoopStateChanges() {
        long n = retiredOffLoopStateChanges;
        for (ReaderLoopMetrics r : readers.keySet()) {
            n += r.offLoopStateChanges();
        }
        return n;
    }

    synchronized long snapshotTimeouts() {
        long n = retiredSnapshotTimeouts;
        for (CoordinatorMetrics c : coordinators.keySet()) {
            n += c.get(CoordinatorMetrics.Counter.SNAPSHOT_TIMEOUTS);
        }
        return n;
    }

    synchronized long sumOf(CoordinatorMetrics.Gauge gauge) {
        long n = 0;
        for (CoordinatorMetrics c : coordinators.keySet()) {
            n += c.get(gauge);
        }
        return n;
    }

    /** The age of the oldest assignment not yet proven by a checkpoint, over all coordinators. */
    synchronized long oldestUncheckpointedAgeMillis() {
        long now = System.currentTimeMillis();
        long oldest = 0;
        for (CoordinatorMetrics c : coordinators.keySet()) {
            long at = c.get(CoordinatorMetrics.Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS);
            if (at >= 0) {
                oldest = Math.max(oldest, now - at);
            }
        }
        return oldest;
    }

    /** Per job with a Lane A coordinator here: how many of its sources run theirs here. */
    synchronized void sampleJobs(MemberMetric.Sink sink) {
        Map<String, Integer> perJob = new TreeMap<>();
        for (String job : coordinators.values()) {
            perJob.merge(job, 1, Integer::sum);
        }
        for (Map.Entry<String, Integer> e : perJob.entrySet()) {
            sink.sample(Collections.singletonList(e.getKey()), e.getValue());
        }
    }

    /** The declaration of every member metric this exports. */
    public static List<MemberMetric<MemberTaskTotals>> metrics() {
        return METRICS;
    }

    private static List<MemberMetric<MemberTaskTotals>> declare() {
        List<MemberMetric<MemberTaskTotals>> l = new ArrayList<>();
        l.add(
                MemberMetric.counter(
                        AVAILABILITY_NOT_SIGNALLED,
                        "Poll turns of Lane A readers on this member that found data the reader's"
                                + " isAvailable() future had not signalled",
                        MemberTaskTotals::availabilityNotSignalled));
        l.add(
                MemberMetric.counter(
                        OFF_LOOP_STATE_CHANGES,
                        "Checks of reader.off-loop-check on this member that found a Lane A"
                                + " reader's checkpoint-visible state changed while no turn ran",
                        MemberTaskTotals::offLoopStateChanges));
        l.add(
                MemberMetric.counter(
                        SNAPSHOT_TIMEOUTS,
                        "Snapshot demands of Lane A coordinators on this member that gave up after"
                                + " coordinator.snapshot-timeout",
                        MemberTaskTotals::snapshotTimeouts));
        l.add(
                MemberMetric.gauge(
                        TRACKER_ASSIGNMENTS,
                        "Split assignments in flight in the trackers of the Lane A coordinators"
                                + " on this member",
                        t -> t.sumOf(CoordinatorMetrics.Gauge.TRACKER_ASSIGNMENTS)));
        l.add(
                MemberMetric.gauge(
                        TRACKER_SPLITS,
                        "Splits held by the trackers of the Lane A coordinators on this member",
                        t -> t.sumOf(CoordinatorMetrics.Gauge.TRACKER_SPLITS)));
        l.add(
                MemberMetric.gauge(
                        TRACKER_BYTES,
                        "Estimated heap bytes of the trackers of the Lane A coordinators on this"
                                + " member",
                        t -> t.sumOf(CoordinatorMetrics.Gauge.TRACKER_BYTES)));
        l.add(
                MemberMetric.gauge(
                        OLDEST_UNCHECKPOINTED_AGE,
                        "Age in milliseconds of the oldest split assignment on this member not yet"
                                + " proven by a completed checkpoint (0 when none)",
                        MemberTaskTotals::oldestUncheckpointedAgeMillis));
        l.add(
                MemberMetric.withLabels(
                        JOB_LANE_A,
                        MemberMetric.Kind.GAUGE,
                        "Lane A sources of the job whose coordinator runs on this member (a job"
                                + " on Lane B, or whose coordinators run elsewhere, has no series"
                                + " here)",
                        Collections.singletonList("job_id"),
                        MemberTaskTotals::sampleJobs));
        return Collections.unmodifiableList(l);
    }
}
