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
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeFaults;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane A savepoint and cancel on a real engine: a savepoint restored under the same job id resumes
 * exactly (per split, the committed seqs of both runs together are 0..k-1, each once); cancel ends
 * CANCELED; and a cancel with a checkpoint barrier still on its way to the readers (the enumerator
 * snapshot is held until the cancel is under way, then the barrier is sent) also ends CANCELED.
 */
class LaneASavepointTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-a-savepoint";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-savepoint", 22330).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, String extra) {
        return ManagedJobs.streamingTesting(
                JOB_NAME,
                "    split.count = 4\n    bounded = false\n    rows.per.second = 300\n" + extra,
                runId);
    }

    @Test
    void savepointThenRestoreResumesExactlyAndCancelEndsCanceled() throws Exception {
        String runId = "savepoint-restore";
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId = zeta.submit(job(runId, ""));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= 200);
        zeta.savePoint(jobId, BOUND);
        assertEquals(JobStatus.SAVEPOINT_DONE, zeta.awaitTerminal(jobId, BOUND));
        Map<Integer, Long> atSavepoint =
                Accounting.assertContiguousExactlyOnce(rows.committed(), 4);
        int committedAtSavepoint = rows.committed().size();
        assertEquals(2, RuntimeStats.readersOpened());

        RuntimeStats.reset();
        zeta.assumeRestorable(jobId);
        zeta.submit(jobId, job(runId, ""), true);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> rows.committed().size() >= committedAtSavepoint + 200);
        assertEquals(2, RuntimeStats.readersOpened(), "the restored run is on Lane A");
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        Map<Integer, Long> after = Accounting.assertContiguousExactlyOnce(rows.committed(), 4);
        for (Map.Entry<Integer, Long> e : atSavepoint.entrySet()) {
            assertTrue(after.get(e.getKey()) > e.getValue(), "split " + e.getKey() + " resumed");
        }
        System.out.printf(
                "[LaneASavepointTest] per split at savepoint %s, after restore+cancel %s%n",
                atSavepoint, after);
        CollectedRows.clear(runId);
    }

    @Test
    void cancelWithABarrierQueuedBehindItEndsCanceled() throws Exception {
        String runId = "cancel-barrier";
        String faultId = "lane-a-savepoint-hold-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        job(
                                runId,
                                "    slow.data.millis = 200\n"
                                        + "    fault.id = \""
                                        + faultId
                                        + "\"\n"
                                        + "    enumerator.hold.snapshot.at.checkpoint = 2\n"));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        try {
            // Checkpoint 2 is in flight: the enumerator snapshot is taken, its barrier not sent.
            await().atMost(BOUND).until(() -> ManagedFakeFaults.isHeld(faultId));
            assertTrue(rows.writtenCount() > 0, "slow data flowed before the checkpoint");
            CompletableFuture<Void> cancel = zeta.coordinator().cancelJob(jobId);
            await().atMost(BOUND).until(() -> zeta.status(jobId) != JobStatus.RUNNING);
        } finally {
            // Now the barrier goes out, behind the cancel.
            ManagedFakeFaults.release(faultId);
        }
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        assertEquals(JobStatus.CANCELED, result.getStatus(), "error: " + result.getError());
        assertEquals(0, RuntimeStats.readersLive(), "every Lane A reader closed");
        System.out.printf(
                "[LaneASavepointTest] cancel with a barrier behind it: %s, rows written %d%n",
                result.getStatus(), rows.writtenCount());
        ManagedFakeFaults.clear(faultId);
        CollectedRows.clear(runId);
    }
}
