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
import java.util.Map;
import java.util.Set;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane B, unbounded: with a 1 s checkpoint interval the job completes at least two checkpoints
 * (observed as stored checkpoint files and as the coordinator's latest completed id), and a cancel
 * ends it CANCELED.
 */
class LaneBStreamingCheckpointTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta =
                EmbeddedZeta.builder("lane-b-streaming", 22120)
                        .checkpointIntervalMillis(1000)
                        .start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
    }

    @Test
    void unboundedJobCompletesTwoCheckpointsAndCancelEndsCanceled() throws Exception {
        String runId = "streaming";
        String job =
                "env {\n"
                        + "  job.mode = \"STREAMING\"\n"
                        + "  parallelism = 2\n"
                        + "  checkpoint.interval = 1000\n"
                        + "}\n"
                        + "source {\n"
                        + "  ManagedFake {\n"
                        + "    split.count = 4\n"
                        + "    bounded = false\n"
                        + "    rows.per.second = 200\n"
                        + "  }\n"
                        + "}\n"
                        + "sink {\n"
                        + "  ManagedCollect {\n"
                        + "    run.id = \""
                        + runId
                        + "\"\n"
                        + "  }\n"
                        + "}\n";
        long jobId = zeta.submit(job);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);

        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> zeta.storedCheckpointIds(jobId).size() >= 2);
        Set<Long> stored = zeta.storedCheckpointIds(jobId);
        long latest = zeta.latestCompletedCheckpointId(jobId, 1);
        assertTrue(stored.size() >= 2, "checkpoints stored: " + stored);
        assertTrue(latest >= 2, "latest completed checkpoint id: " + latest);
        CollectedRows rows = CollectedRows.of(runId);
        assertTrue(rows.writtenCount() > 0, "rows flow");
        await().atMost(BOUND).until(() -> rows.commitCalls() >= 2);

        zeta.cancel(jobId, BOUND);

        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        // No payload was committed twice within one attempt.
        for (Map.Entry<String, Integer> e : CollectedRows.multiset(rows.committed()).entrySet()) {
            assertEquals(1, e.getValue(), "committed twice: " + e.getKey());
        }
        System.out.printf(
                "[LaneBStreamingCheckpointTest] stored checkpoints %s, latest completed %d,"
                        + " commits %d, rows written %d%n",
                stored, latest, rows.commitCalls(), rows.writtenCount());
        CollectedRows.clear(runId);
    }
}
