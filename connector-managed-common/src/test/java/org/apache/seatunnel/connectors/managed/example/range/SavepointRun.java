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

package org.apache.seatunnel.connectors.managed.example.range;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.apache.seatunnel.managed.testkit.engine.SavepointResult;

/**
 * The example sources' savepoint run: {@code job} on {@code lane}, a savepoint once a checkpoint
 * completed and before the job's {@code rows} rows were all committed, then the job restored from
 * it to its end. Checks that the savepoint was taken mid-job, that the restored job FINISHED and
 * that the lane's readers ran; returns the rows committed over both runs, for the caller to
 * account.
 */
final class SavepointRun {
    private SavepointRun() {}

    static List<String> savepointAndRestore(
            LaneAHarness harness, ManagedJob job, Lane lane, long rows) throws Exception {
        LaneASettings.install(
                lane == Lane.A,
                Collections.singletonList(job.name()),
                Collections.singletonList(job.connector()));
        EmbeddedZeta zeta = harness.zeta();
        String runId = job.name() + "-" + System.nanoTime();
        String hocon = job.toHocon(runId);
        long readersBefore = RuntimeStats.readersOpened();
        try {
            long jobId = zeta.submit(hocon);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(10))
                    .until(
                            () ->
                                    zeta.status(jobId).isEndState()
                                            || zeta.latestCompletedCheckpointId(jobId, 1) >= 1);
            SavepointResult saved = zeta.savePointAndAwaitEnd(jobId, Duration.ofSeconds(60));
            zeta.assumeRestorable(jobId);
            assertEquals(
                    SavepointResult.TAKEN,
                    saved,
                    "Lane " + lane + ": a savepoint while the job runs");
            int before = CollectedRows.of(runId).committed().size();
            assertTrue(
                    before < rows,
                    "Lane " + lane + ": the savepoint came before the end (" + before + " rows)");
            zeta.submit(jobId, hocon, true);
            JobResult end = zeta.completion(jobId).get(120, TimeUnit.SECONDS);
            assertEquals(
                    JobStatus.FINISHED, end.getStatus(), "Lane " + lane + ": " + end.getError());
            long laneAReaders = RuntimeStats.readersOpened() - readersBefore;
            assertEquals(
                    lane == Lane.A, laneAReaders > 0, "Lane " + lane + " readers: " + laneAReaders);
            return new ArrayList<>(CollectedRows.of(runId).committed());
        } finally {
            CollectedRows.clear(runId);
        }
    }
}
