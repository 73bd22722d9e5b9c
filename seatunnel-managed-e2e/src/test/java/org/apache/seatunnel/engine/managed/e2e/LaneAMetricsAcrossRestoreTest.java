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

package org.apache.seatunnel.engine.managed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A restored Lane A job's reader and coordinator metrics keep counting. Zeta 2.3.8 hands a restored
 * task the metrics the master last received for it, as plain counters; registered naively, the
 * runtime's gauges collided with them and the job reported the values from before the restore for
 * the rest of its life. Here the coordinator fails at a checkpoint's completion once the job's
 * metrics reached the master (so the restored tasks get them back), the pipeline restores, and the
 * job's polled records and coordinator snapshots must then grow past their values at the restore.
 */
class LaneAMetricsAcrossRestoreTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-metrics-restore";
    private static final String POLL_RECORDS = "ManagedSourcePollRecords";
    private static final String SNAPSHOTS = "ManagedSourceCoordinatorSnapshots";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME), List.of(ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-metrics-restore", 22370).start();
    }

    @AfterAll
    static void stopEngine() {
        ArmedFaults.disarm();
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void readerAndCoordinatorMetricsKeepCountingAfterARestore() throws Exception {
        String runId = "metrics-restore";
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        ManagedJobs.streamingTesting(
                                JOB_NAME,
                                "    split.count = 2\n    bounded = false\n"
                                        + "    rows.per.second = 300\n",
                                runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND)
                .until(
                        () ->
                                zeta.jobMetricSum(jobId, POLL_RECORDS) > 0
                                        && zeta.jobMetricSum(jobId, SNAPSHOTS) > 0);
        assertEquals(2, RuntimeStats.readersOpened());
        long polledBefore = zeta.jobMetricSum(jobId, POLL_RECORDS);
        long snapshotsBefore = zeta.jobMetricSum(jobId, SNAPSHOTS);

        ArmedFaults.arm(
                FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC,
                FaultAction.CRASH,
                jobId,
                null,
                0,
                1,
                0);
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 4);
        ArmedFaults.disarm();
        // Totals never fall back at a restore, so the higher of the two is where they stood.
        long polledAtRestore = Math.max(polledBefore, zeta.jobMetricSum(jobId, POLL_RECORDS));
        long snapshotsAtRestore = Math.max(snapshotsBefore, zeta.jobMetricSum(jobId, SNAPSHOTS));
        // 2 readers at 300 rows/s: 600 more rows in about a second; 3 more checkpoints in about 3
        // s.
        await().atMost(BOUND)
                .until(
                        () ->
                                zeta.jobMetricSum(jobId, POLL_RECORDS) >= polledAtRestore + 600
                                        && zeta.jobMetricSum(jobId, SNAPSHOTS)
                                                >= snapshotsAtRestore + 3);
        long polled = zeta.jobMetricSum(jobId, POLL_RECORDS);
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        System.out.printf(
                "[LaneAMetricsAcrossRestoreTest] polled %d at the restore, %d later;"
                        + " coordinator snapshots %d at the restore%n",
                polledAtRestore, polled, snapshotsAtRestore);
        CollectedRows.clear(runId);
    }
}
