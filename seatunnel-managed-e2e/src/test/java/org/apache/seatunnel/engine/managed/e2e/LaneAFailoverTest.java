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
 * Lane A failover on a real engine: an injected failure (once per JVM, so the restored attempt
 * reads on) in a reader's managed poll, in the connector enumerator's snapshot, or in its
 * checkpoint-complete callback restores the pipeline from the last completed checkpoint and the job
 * continues; at the sink, per split, the committed rows are seq 0..k-1 with no gap and no
 * duplicate. The reader case also runs on two members.
 */
class LaneAFailoverTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-a-failover";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-failover", 22340).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, String faultOptions) {
        return ManagedJobs.streamingTesting(
                JOB_NAME,
                "    split.count = 4\n    bounded = false\n    rows.per.second = 300\n"
                        + faultOptions,
                runId);
    }

    /**
     * Runs a job with {@code faultOptions}, waits for the fault to fire, for the restored readers
     * to open and for 200 more committed rows, cancels, and checks exact accounting.
     */
    private static void failAndRecover(
            EmbeddedZeta engine, String name, String faultKind, String faultOptions)
            throws Exception {
        String runId = "failover-" + name;
        String faultId = "lane-a-failover-" + name + "-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long start = System.nanoTime();
        long jobId =
                engine.submit(job(runId, "    fault.id = \"" + faultId + "\"\n" + faultOptions));
        await().atMost(BOUND).until(() -> ManagedFakeFaults.fired(faultId + "/" + faultKind));
        int committedAtFailure = rows.committed().size();
        // The pipeline restored: a new reader attempt per subtask opened on Lane A.
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 4);
        await().atMost(BOUND).until(() -> rows.committed().size() >= committedAtFailure + 200);
        assertEquals(JobStatus.RUNNING, engine.status(jobId));
        engine.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, engine.awaitTerminal(jobId, BOUND));

        Map<Integer, Long> perSplit = Accounting.assertContiguousExactlyOnce(rows.committed(), 4);
        List<Long> epochs = RuntimeStats.coordinatorEpochs();
        assertTrue(epochs.size() >= 2, "the restore opened a new coordinator: " + epochs);
        for (int i = 1; i < epochs.size(); i++) {
            assertTrue(
                    epochs.get(i) > epochs.get(i - 1),
                    "every coordinator runs in a later epoch than the one before: " + epochs);
        }
        assertTrue(
                rows.writtenCount() >= rows.committed().size(),
                "the failed attempt's uncommitted rows were replayed, not lost");
        System.out.printf(
                "[LaneAFailoverTest] %s: committed per split %s (%d at failure), written %d"
                        + " (replayed %d), readers opened %d, coordinator epochs %s, %d ms%n",
                name,
                perSplit,
                committedAtFailure,
                rows.writtenCount(),
                rows.writtenCount() - rows.committed().size(),
                RuntimeStats.readersOpened(),
                epochs,
                (System.nanoTime() - start) / 1_000_000);
        ManagedFakeFaults.clear(faultId);
        CollectedRows.clear(runId);
    }

    @Test
    void readerFailureRestoresFromLastCheckpointExactly() throws Exception {
        failAndRecover(zeta, "reader", "reader", "    fail.once.at.row = 400\n");
    }

    @Test
    void enumeratorSnapshotFailureRestoresExactly() throws Exception {
        failAndRecover(
                zeta,
                "enumerator-snapshot",
                "enumerator",
                "    enumerator.fail.on = \"snapshot\"\n"
                        + "    enumerator.fail.at.checkpoint = 2\n");
    }

    /**
     * A failure before any checkpoint completed restarts the source from nothing: its new
     * coordinator still runs in a later epoch than the failed one (checked in {@link
     * #failAndRecover}), so no command the failed incarnation still has in flight is applied.
     */
    @Test
    void restartBeforeAnyCheckpointRunsInALaterEpoch() throws Exception {
        failAndRecover(
                zeta,
                "before-first-checkpoint",
                "enumerator",
                "    enumerator.fail.on = \"snapshot\"\n"
                        + "    enumerator.fail.at.checkpoint = 1\n");
    }

    @Test
    void enumeratorCheckpointCompleteFailureRestoresExactly() throws Exception {
        failAndRecover(
                zeta,
                "enumerator-complete",
                "enumerator",
                "    enumerator.fail.on = \"checkpoint-complete\"\n"
                        + "    enumerator.fail.at.checkpoint = 2\n");
    }

    @Test
    void readerFailureOnTwoMembersRestoresExactly() throws Exception {
        try (EmbeddedZeta two =
                EmbeddedZeta.builder("lane-a-failover-2m", 22342).members(2).start()) {
            failAndRecover(two, "reader-2m", "reader", "    fail.once.at.row = 400\n");
        }
    }
}
