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
import org.apache.seatunnel.managed.testkit.engine.RowKeys;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.apache.seatunnel.managed.testkit.engine.SavepointResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example's numbered enumerator ({@code NumberedSplitEnumerator}: ranges computed as readers
 * have room, cursors in the state) on a real embedded Zeta 2.3.8, on Lane A and Lane B: many
 * one-row ranges read exactly once, and a savepoint taken mid-job (its state holds cursors, not
 * ranges) restored to exactly once.
 */
class RangeOnEngineTest {
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("numbered-range", 26120);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static List<String> expected(int splits, long rows) {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            for (long n = 0; n < rows; n++) {
                keys.add(RowKeys.ofFields(s, n));
            }
        }
        Collections.sort(keys);
        return keys;
    }

    private static ManagedJob job(String name, int splits, long rows) {
        return ManagedJob.source(RangeSourceFactory.IDENTIFIER)
                .name(name)
                .option("splits", splits)
                .option("rows-per-split", rows)
                .parallelism(2);
    }

    @Test
    void twentyThousandOneRowRangesAreReadOnceOnBothLanes() {
        ManagedJob job = job("numbered-many", 20_000, 1);
        harness.runBounded(job).assertFinishedExactlyOnce(expected(20_000, 1));
        harness.runBounded(job, Lane.B).assertFinishedExactlyOnce(expected(20_000, 1));
    }

    @Test
    void aSavepointMidJobRestoresToExactlyOnceOnBothLanes() throws Exception {
        for (Lane lane : new Lane[] {Lane.A, Lane.B}) {
            savepointAndRestore(lane);
        }
    }

    private static void savepointAndRestore(Lane lane) throws Exception {
        int splits = 400;
        long rows = 5_000;
        ManagedJob job =
                job("numbered-savepoint-" + lane, splits, rows).env("checkpoint.interval", 200);
        LaneASettings.install(
                lane == Lane.A,
                Collections.singletonList(job.name()),
                Collections.singletonList(job.connector()));
        EmbeddedZeta zeta = harness.zeta();
        String runId = "numbered-savepoint-" + lane + "-" + System.nanoTime();
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
                    before < splits * rows,
                    "Lane " + lane + ": the savepoint came before the end (" + before + " rows)");
            zeta.submit(jobId, hocon, true);
            JobResult end = zeta.completion(jobId).get(120, TimeUnit.SECONDS);
            assertEquals(
                    JobStatus.FINISHED, end.getStatus(), "Lane " + lane + ": " + end.getError());
            List<String> committed = new ArrayList<>(CollectedRows.of(runId).committed());
            Collections.sort(committed);
            assertEquals(
                    expected(splits, rows).equals(committed),
                    true,
                    "Lane "
                            + lane
                            + ": every row exactly once ("
                            + committed.size()
                            + " committed of "
                            + splits * rows
                            + ")");
            long laneAReaders = RuntimeStats.readersOpened() - readersBefore;
            assertEquals(
                    lane == Lane.A, laneAReaders > 0, "Lane " + lane + " readers: " + laneAReaders);
        } finally {
            CollectedRows.clear(runId);
        }
    }
}
