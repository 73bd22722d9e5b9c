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
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane A restored with a changed reader parallelism on a real engine: a savepoint taken with three
 * readers is restored with two (Zeta hands the surviving subtask 0 the states of old subtasks 0 and
 * 2 in one list), then a savepoint of that run is restored with four. After each restore every
 * split resumes where its committed rows stop: per split, the committed sequence numbers of all
 * runs together are 0..k-1, each once, and every split moved on.
 */
class LaneARescaleTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-rescale";
    private static final int SPLITS = 5;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-rescale", 24400).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, int parallelism) {
        return ManagedJobs.streamingTesting(
                JOB_NAME,
                "    split.count = "
                        + SPLITS
                        + "\n    bounded = false\n    rows.per.second = 300\n    parallelism = "
                        + parallelism
                        + "\n",
                runId);
    }

    @Test
    void savepointsRestoredWithFewerThenMoreReadersResumeEverySplitExactlyOnce() throws Exception {
        String runId = "rescale";
        CollectedRows rows = CollectedRows.of(runId);
        long jobId = zeta.submit(job(runId, 3));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= 200);
        Map<Integer, Long> withThree = savepoint(jobId, rows);

        Map<Integer, Long> withTwo = restoreRunAndSavepoint(jobId, runId, rows, 2, withThree);

        int before = rows.committed().size();
        zeta.assumeRestorable(jobId);
        zeta.submit(jobId, job(runId, 4), true);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= before + 200);
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        Map<Integer, Long> withFour =
                Accounting.assertContiguousExactlyOnce(rows.committed(), SPLITS);
        assertAllMovedOn(withTwo, withFour);
        System.out.printf(
                "[LaneARescaleTest] rows per split: p=3 %s, then p=2 %s, then p=4 %s%n",
                withThree, withTwo, withFour);
        CollectedRows.clear(runId);
    }

    private static Map<Integer, Long> savepoint(long jobId, CollectedRows rows) throws Exception {
        zeta.savePoint(jobId, BOUND);
        assertEquals(JobStatus.SAVEPOINT_DONE, zeta.awaitTerminal(jobId, BOUND));
        return Accounting.assertContiguousExactlyOnce(rows.committed(), SPLITS);
    }

    private static Map<Integer, Long> restoreRunAndSavepoint(
            long jobId, String runId, CollectedRows rows, int parallelism, Map<Integer, Long> from)
            throws Exception {
        int before = rows.committed().size();
        zeta.assumeRestorable(jobId);
        zeta.submit(jobId, job(runId, parallelism), true);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= before + 200);
        Map<Integer, Long> after = savepoint(jobId, rows);
        assertAllMovedOn(from, after);
        return after;
    }

    private static void assertAllMovedOn(Map<Integer, Long> before, Map<Integer, Long> after) {
        for (Map.Entry<Integer, Long> e : before.entrySet()) {
            assertTrue(
                    after.get(e.getKey()) > e.getValue(),
                    "split " + e.getKey() + " resumed: " + before + " -> " + after);
        }
    }
}
