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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Split storms on a real Zeta 2.3.8 member: bounded ManagedFake jobs of one-row splits, far more
 * splits than a reader's mailbox (8 commands here) and the assignment tracker (100 assignments of
 * at most 64 splits each here) hold. Before flow control, 20,000 such splits at parallelism 2
 * failed with LEDGER_GAPS_EXCEEDED: the coordinator's sender pipelined more commands than a mailbox
 * admitted and let later ones overtake the refused ones. Now what is in flight to a reader is
 * bounded by its mailbox (no admission is ever refused for room), a reader whose applied ledger
 * allows no gap at all ({@code reader-mailbox.max-sequence-gaps = 1}) never trips, and the
 * tracker's bound waits for applies (no checkpoints) or completed checkpoints instead of stalling
 * the job.
 */
class LaneASplitStormTest {
    private static final Duration BOUND = Duration.ofSeconds(240);
    private static final String JOB_NAME = "lane-a-split-storm";
    private static final int TRACKER_BOUND = 100;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", List.of(JOB_NAME));
        cfg.put("allowed-connectors", List.of(ManagedFakeSource.IDENTIFIER));
        cfg.put("reader-mailbox.max-commands", 8);
        cfg.put("reader-mailbox.max-sequence-gaps", 1);
        cfg.put("assignment-tracker.max-entries", TRACKER_BOUND);
        cfg.put("transport.command-batch-max-commands", 4);
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("lane-a-split-storm", 24800).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, int splits, String envExtra) {
        return "env {\n  job.mode = \"BATCH\"\n  parallelism = 2\n"
                + envExtra
                + "}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \""
                + JOB_NAME
                + "\"\n    split.count = "
                + splits
                + "\n    rows.per.split = 1\n    bounded = true\n  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private static long metric(long jobId, String name) {
        return zeta.jobMetricSum(jobId, name);
    }

    private long runToFinished(String runId, int splits, String envExtra) throws Exception {
        return runToFinished(runId, splits, envExtra, jobId -> {});
    }

    private long runToFinished(String runId, int splits, String envExtra, LongConsumer submitted)
            throws Exception {
        RuntimeStats.reset();
        long start = System.nanoTime();
        long jobId = zeta.submit(job(runId, splits, envExtra));
        submitted.accept(jobId);
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        CollectedRows rows = CollectedRows.of(runId);
        List<String> written = rows.written();
        assertEquals(splits, written.size(), "one row per split");
        Map<String, Integer> counts = CollectedRows.multiset(written);
        for (int n = 0; n < splits; n++) {
            Integer c = counts.get(ManagedFakeRows.payload(n, 0));
            if (c == null || c != 1) {
                throw new AssertionError("split " + n + " written " + c + " times");
            }
        }
        CollectedRows.clear(runId);
        assertEquals(2, RuntimeStats.readersOpened(), "two reader attempts, no restore");
        assertEquals(
                0,
                RuntimeStats.admissions().getOrDefault(AdmissionStatus.RETRY_LATER, 0L),
                "the credit window kept every command within what the mailbox admits");
        System.out.printf(
                "[LaneASplitStormTest] %d one-row splits, p=2%s: FINISHED in %d ms (%.0f"
                        + " splits/s), %d assignment commands%n",
                splits,
                envExtra.isEmpty() ? ", no checkpoints" : ", " + envExtra.trim(),
                millis,
                splits * 1000.0 / Math.max(1, millis),
                metric(jobId, "ManagedSourceAssignmentCommandsSent"));
        return jobId;
    }

    /**
     * 200,000 splits, thirty times what the tracker can hold, without checkpoints (a BATCH job
     * without {@code checkpoint.interval}): the tracker collects what readers applied, so it never
     * waits for a checkpoint that would not come.
     */
    @Test
    void twoHundredThousandOneRowSplitsFinishExactlyOnceWithoutCheckpoints() throws Exception {
        long jobId = runToFinished("storm-200k", 200_000, "");
        assertEquals(
                200_000,
                metric(jobId, "ManagedSourceAssignmentsGarbageCollected"),
                "every assignment left the tracker once its reader applied it");
    }

    /**
     * The failing case of before, with checkpoints every two seconds: assignments stay tracked
     * until a completed checkpoint proves them, at most 100 assignments at a time, and still no
     * command overtakes another.
     */
    @Test
    void twentyThousandOneRowSplitsWithCheckpointsNeverOvertakeARefusedCommand() throws Exception {
        long jobId = runToFinished("storm-20k", 20_000, "  checkpoint.interval = 2000\n");
        assertTrue(
                metric(jobId, "ManagedSourceAssignmentsCheckpointIncluded") > 0,
                "assignments were proven by checkpoints");
        // Assignments leave the tracker only with a completed checkpoint here, and 20,000 splits
        // are three times what 100 assignments carry: the enumerator must have been held back.
        assertTrue(
                metric(jobId, "ManagedSourceSplitDemandsHeld") > 0,
                "the enumerator was asked only for what the tracker had room for");
        // Readers acknowledge what they applied, dated by their last barrier: each snapshot
        // leaves out what its readers applied before its barrier (their own state holds it),
        // while the tracker keeps it until a checkpoint completes. The rows above are exactly
        // once.
        assertTrue(
                metric(jobId, "ManagedSourceSnapshotAssignmentsLeftOut") > 0,
                "snapshots left out assignments their readers had applied before the barrier");
    }

    /**
     * The engine's completion notice to the enumerator lost at every checkpoint (fault point 11):
     * the coordinator hears of each completion from the readers on its member instead, so the
     * tracker, which frees assignments only when a checkpoint completes here, is collected and the
     * job finishes. 20,000 splits are three times what its 100 assignments carry: without the
     * readers' notices the tracker would stay full and the job would never end.
     */
    @Test
    void everyCompletionNoticeToTheEnumeratorLostTheReadersNoticesCollectTheTracker()
            throws Exception {
        int splits = 20_000;
        ArmedFaults.Plan[] plan = new ArmedFaults.Plan[1];
        long jobId;
        try {
            jobId =
                    runToFinished(
                            "storm-notice-lost",
                            splits,
                            "  checkpoint.interval = 250\n",
                            id ->
                                    plan[0] =
                                            ArmedFaults.arm(
                                                    FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC,
                                                    FaultAction.LOSE,
                                                    id,
                                                    null,
                                                    0,
                                                    Integer.MAX_VALUE,
                                                    0));
        } finally {
            ArmedFaults.disarm();
        }
        assertTrue(plan[0].fired() >= 1, "the enumerator's notices were lost: " + plan[0]);
        assertTrue(
                metric(jobId, "ManagedSourceCoordinatorCompletionsFromReaders") >= 1,
                "the coordinator heard of completions from its readers");
        assertTrue(
                metric(jobId, "ManagedSourceSplitDemandsHeld") > 0,
                "the tracker was full: only completed checkpoints could make room");
        assertTrue(
                metric(jobId, "ManagedSourceAssignmentsGarbageCollected") > 0,
                "assignments were collected after completed checkpoints");
    }
}
