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
import java.util.concurrent.CompletableFuture;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane selection on a real engine: the same HOCON runs on Lane B with the switch off or the job not
 * allowlisted (today's behaviour, no managed reader opened); a Lane A savepoint restored after the
 * switch was flipped off fails before running with a reason naming the lane; restored with the
 * switch still on it keeps Lane A and resumes exactly.
 */
class LaneSelectionTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-selection";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta = EmbeddedZeta.builder("lane-selection", 22320).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @AfterEach
    void uninstall() {
        LaneASettings.clear();
    }

    private static void install(boolean enabled, String allowedJob) {
        LaneASettings.install(enabled, List.of(allowedJob), List.of(ManagedFakeSource.IDENTIFIER));
    }

    private static String boundedJob(String runId) {
        return ManagedJobs.bounded5x20(JOB_NAME, runId);
    }

    static String streamingJob(String jobName, String runId) {
        return ManagedJobs.streaming(
                jobName,
                "    split.count = 4\n    bounded = false\n    rows.per.second = 300\n",
                runId);
    }

    private static List<String> expectedBounded() {
        return ManagedJobs.expected5x20();
    }

    /** The job's {@code ManagedSourceLaneA} measurements: one per Managed source. */
    private static List<Long> laneA(long jobId) {
        List<Long> values = new java.util.ArrayList<>();
        for (org.apache.seatunnel.api.common.metrics.Measurement m :
                zeta.coordinator().getJobMetrics(jobId).get("ManagedSourceLaneA")) {
            values.add(((Number) m.getValue()).longValue());
        }
        return values;
    }

    private static void runBoundedOnLaneB(String runId) throws Exception {
        RuntimeStats.reset();
        long jobId = zeta.submit(boundedJob(runId));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
        assertEquals(0, RuntimeStats.readersOpened(), "no Lane A reader may open on Lane B");
        assertEquals(List.of(0L), laneA(jobId), "the job's metrics say Lane B");
        CollectedRows rows = CollectedRows.of(runId);
        assertEquals(
                CollectedRows.multiset(expectedBounded()),
                CollectedRows.multiset(rows.written()),
                "written exactly once");
        CollectedRows.clear(runId);
    }

    @Test
    void switchOffRunsOnLaneB() throws Exception {
        install(false, JOB_NAME);
        runBoundedOnLaneB("selection-switch-off");
    }

    @Test
    void jobNotAllowlistedRunsOnLaneB() throws Exception {
        install(true, "some-other-job");
        runBoundedOnLaneB("selection-not-allowlisted");
    }

    /** Savepoint on Lane A, return once it is done; the first run's rows are in {@code runId}. */
    private static long laneASavepoint(String jobName, String runId) throws Exception {
        install(true, jobName);
        RuntimeStats.reset();
        long jobId = zeta.submit(streamingJob(jobName, runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        CollectedRows rows = CollectedRows.of(runId);
        await().atMost(BOUND).until(() -> rows.committed().size() >= 100);
        assertEquals(2, RuntimeStats.readersOpened(), "the first run is on Lane A");
        await().atMost(BOUND).until(() -> !laneA(jobId).isEmpty());
        assertEquals(List.of(1L), laneA(jobId), "the job's metrics say Lane A");
        zeta.savePoint(jobId, BOUND);
        assertEquals(JobStatus.SAVEPOINT_DONE, zeta.awaitTerminal(jobId, BOUND));
        return jobId;
    }

    /**
     * A refused restore fails the job once: the engine does not restore the pipeline again (no
     * "Restore time" from its SubPlan), and the refusal is the first line of the job's error as
     * SeaTunnel reports it, not a checkpoint error with the reason deep in its stack trace.
     */
    @Test
    void laneASavepointRestoredAfterSwitchOffFailsBeforeRunning() throws Exception {
        long jobId = laneASavepoint("lane-selection-flip", "selection-flip-1");
        LaneASettings.clear();
        install(false, "lane-selection-flip");
        RuntimeStats.reset();
        zeta.assumeRestorable(jobId);
        JobResult result;
        List<String> restarts;
        try (LogCapture subPlan =
                LogCapture.attach("org.apache.seatunnel.engine.server.dag.physical.SubPlan")) {
            zeta.submit(jobId, streamingJob("lane-selection-flip", "selection-flip-2"), true);
            CompletableFuture<JobResult> done = zeta.completion(jobId);
            result = zeta.awaitResult(jobId, done, BOUND);
            restarts = subPlan.matching(Level.INFO, "Restore time");
        }
        assertEquals(JobStatus.FAILED, result.getStatus(), "error: " + result.getError());
        assertTrue(RuntimeStats.restoresRefused() > 0, "the restore was refused by the runtime");
        String reason = RuntimeStats.lastRestoreRefusal();
        assertTrue(
                reason.contains("Lane A") && reason.contains("Lane B"),
                "the reason names the lanes: " + reason);
        String firstLine = result.getError().split("\\R", 2)[0];
        assertTrue(
                firstLine.contains("Refusing to restore"),
                "the refusal is the first line of the job's error: " + result.getError());
        assertEquals(List.of(), restarts, "the refused restore is not retried");
        assertEquals(0, CollectedRows.of("selection-flip-2").writtenCount(), "nothing ran");
        assertEquals(0, RuntimeStats.readersOpened());
        System.out.printf("[LaneSelectionTest] restore after switch-off refused: %s%n", firstLine);
        CollectedRows.clear("selection-flip-1");
        CollectedRows.clear("selection-flip-2");
    }

    @Test
    void laneASavepointRestoredWithSwitchOnKeepsLaneA() throws Exception {
        String runId = "selection-keep";
        long jobId = laneASavepoint("lane-selection-keep", runId);
        CollectedRows rows = CollectedRows.of(runId);
        int atSavepoint = rows.committed().size();
        RuntimeStats.reset();
        zeta.assumeRestorable(jobId);
        zeta.submit(jobId, streamingJob("lane-selection-keep", runId), true);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= atSavepoint + 100);
        assertEquals(2, RuntimeStats.readersOpened(), "the restored run is on Lane A");
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        Accounting.assertContiguousExactlyOnce(rows.committed(), 4);
        CollectedRows.clear(runId);
    }
}
