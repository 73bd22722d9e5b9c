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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeFaults;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's snapshot taken on the engine's own thread (no hop to the loop's executor) at
 * parallelism 16 on a real engine: checkpoints keep completing, the engine's snapshot demands are
 * answered on its thread, and through a reader failure and the restore that follows every split's
 * committed rows are seq 0..k-1 with no gap and no duplicate.
 */
class LaneACheckpointAtScaleTest {
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String JOB_NAME = "lane-a-ckpt-scale";
    private static final int P = 16;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-ckpt-scale", 24200).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, String faultId) {
        return "env {\n  job.mode = \"STREAMING\"\n  parallelism = "
                + P
                + "\n  checkpoint.interval = 1000\n}\n"
                + "source {\n  Managed {\n    connector = \""
                + ManagedFakeTestingSourceFactory.IDENTIFIER
                + "\"\n    job-name = \""
                + JOB_NAME
                + "\"\n    split.count = "
                + P
                + "\n    bounded = false\n    rows.per.second = 100\n    fault.id = \""
                + faultId
                + "\"\n    fail.once.at.row = 300\n  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private static long metric(long jobId, String name) {
        return zeta.jobMetricSum(jobId, name);
    }

    @Test
    void snapshotsOnTheEngineThreadKeepExactlyOnceThroughARestoreAtP16() throws Exception {
        String runId = "ckpt-scale";
        String faultId = "lane-a-ckpt-scale-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId = zeta.submit(job(runId, faultId));
        await().atMost(BOUND).until(() -> ManagedFakeFaults.fired(faultId + "/reader"));
        int committedAtFailure = rows.committed().size();
        // The pipeline restored: a new reader attempt per subtask opened on Lane A.
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 2 * P);
        await().atMost(BOUND).until(() -> rows.committed().size() >= committedAtFailure + 2000);
        // The restored coordinator's snapshots were answered on the engine's thread.
        await().atMost(BOUND)
                .until(() -> metric(jobId, "ManagedSourceCoordinatorSnapshotsOnCaller") > 0);
        assertEquals(0, metric(jobId, "ManagedSourceCoordinatorSnapshotTimeouts"));
        assertEquals(JobStatus.RUNNING, zeta.status(jobId));
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        Map<Integer, Long> perSplit = Accounting.assertContiguousExactlyOnce(rows.committed(), P);
        assertEquals(P, perSplit.size(), "every split committed rows");
        assertTrue(
                rows.writtenCount() >= rows.committed().size(),
                "the failed attempt's uncommitted rows were replayed, not lost");
        System.out.printf(
                "[LaneACheckpointAtScaleTest] committed per split %s (%d at failure), written %d,"
                        + " readers opened %d%n",
                perSplit, committedAtFailure, rows.writtenCount(), RuntimeStats.readersOpened());
        ManagedFakeFaults.clear(faultId);
        CollectedRows.clear(runId);
    }
}
