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

package org.apache.seatunnel.connectors.managed.iceberg;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.FileFormat;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RowAccounting;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming ManagedIceberg jobs on Lane A through failures: a reader failing mid-file, the
 * enumerator failing at a checkpoint, a savepoint taken while a large commit is being handed out
 * and restored (nothing lost, nothing read again), and a restore whose snapshot was expired while
 * the job was stopped (the job fails naming the snapshot).
 */
class ManagedIcebergFaultsTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    @TempDir static Path warehouse;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("managed-iceberg-faults", 26520);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static String job(
            String connector, String name, IcebergTestTable t, String runId, Object... extra) {
        List<Object> options = new ArrayList<>();
        options.add("stream_scan_strategy");
        options.add("FROM_EARLIEST_SNAPSHOT");
        options.add("discovery.interval-ms");
        options.add(200);
        for (Object o : extra) {
            options.add(o);
        }
        ManagedJob job = IcebergJobs.managed(name, t, 2, options.toArray());
        String hocon = IcebergJobs.streaming(job, runId, 500);
        return hocon.replace(
                "connector = \"" + ManagedIcebergSourceFactory.IDENTIFIER + "\"",
                "connector = \"" + connector + "\"");
    }

    private void failOnceMidStream(String name, String faultOption) throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, name)) {
            for (int i = 0; i < 4; i++) {
                t.append(3, 300);
            }
            String runId = name + "-run";
            String faultId = name + "-" + System.nanoTime();
            IcebergJobs.allowLaneA(name, FaultyIcebergSourceFactory.IDENTIFIER);
            EmbeddedZeta zeta = harness.zeta();
            CollectedRows rows = CollectedRows.of(runId);
            long readersBefore = RuntimeStats.readersOpened();
            long jobId =
                    zeta.submit(
                            job(
                                    FaultyIcebergSourceFactory.IDENTIFIER,
                                    name,
                                    t,
                                    runId,
                                    "fault.id",
                                    faultId,
                                    faultOption,
                                    1000,
                                    "managed.fetch.batch-rows",
                                    50));
            await().atMost(BOUND).until(() -> FaultyIcebergSourceFactory.fired(faultId));
            long midFile = FaultyIcebergSourceFactory.heldMidFileOffset(faultId);
            assertTrue(midFile > 0, "the restored checkpoint holds a part-read file: " + midFile);
            await().atMost(BOUND).until(() -> rows.committed().size() >= t.keys().size());
            // More commits while the restored job runs: discovered from the restored cursor on.
            for (int i = 0; i < 5; i++) {
                t.append(2, 20);
            }
            List<String> all = t.keys();
            await().atMost(BOUND).until(() -> rows.committed().size() >= all.size());
            assertEquals(JobStatus.RUNNING, zeta.status(jobId));
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            RowAccounting.assertExactlyOnce(all, rows.committed());
            long readers = RuntimeStats.readersOpened() - readersBefore;
            assertTrue(readers >= 4, "two Lane A readers, then two restored: " + readers);
            System.out.printf(
                    "[ManagedIcebergFaultsTest] %s: restored mid-file at record %d; committed %d,"
                            + " written %d (replayed %d)%n",
                    name,
                    midFile,
                    rows.committed().size(),
                    rows.writtenCount(),
                    rows.writtenCount() - rows.committed().size());
            CollectedRows.clear(runId);
        }
    }

    @Test
    void aReaderFailingMidFileRestoresWithNothingLostOrDuplicated() throws Exception {
        failOnceMidStream("reader_fail", "fail.once.at.row");
    }

    @Test
    void anEnumeratorFailingAtACheckpointRestoresWithNothingLostOrDuplicated() throws Exception {
        failOnceMidStream("enumerator_fail", "enumerator.fail.once.after.rows");
    }

    @Test
    void aSavepointDuringALargeCommitResumesAtTheExactFileAndReadsNothingTwice() throws Exception {
        String name = "savepoint";
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, name)) {
            t.append(3, 10);
            t.append(1, 10);
            String runId = name + "-run";
            String hocon =
                    job(
                            ManagedIcebergSourceFactory.IDENTIFIER,
                            name,
                            t,
                            runId,
                            "discovery.max-pending-splits",
                            40);
            IcebergJobs.allowLaneA(name, ManagedIcebergSourceFactory.IDENTIFIER);
            EmbeddedZeta zeta = harness.zeta();
            CollectedRows rows = CollectedRows.of(runId);
            long jobId = zeta.submit(hocon);
            await().atMost(BOUND).until(() -> rows.committed().size() >= t.keys().size());
            // 1,000 files go out 40 at a time, one chunk per 200 ms: the savepoint falls inside.
            t.append(1000, 1, FileFormat.AVRO);
            await().atMost(BOUND).until(() -> rows.writtenCount() > t.keys().size() - 1000 + 40);
            zeta.savePoint(jobId, BOUND);
            JobStatus stopped = zeta.awaitTerminal(jobId, BOUND);
            List<String> before = new ArrayList<>(rows.written());
            RowAccounting.assertNoDuplicates(before);
            int fromBigCommit = before.size() - (t.keys().size() - 1000);
            System.out.printf(
                    "[ManagedIcebergFaultsTest] savepoint (%s) after %d of the 1000-file commit's"
                            + " rows%n",
                    stopped, fromBigCommit);
            t.append(2, 10);
            t.appendEmpty();
            t.append(1, 10);
            List<String> all = t.keys();
            zeta.assumeRestorable(jobId);
            zeta.submit(jobId, hocon, true);
            await().atMost(BOUND).until(() -> rows.committed().size() >= all.size());
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            RowAccounting.assertExactlyOnce(all, rows.committed());
            List<String> after = rows.written().subList(before.size(), rows.writtenCount());
            Set<String> readBefore = new HashSet<>(before);
            for (String key : after) {
                assertTrue(!readBefore.contains(key), "read again after the restore: " + key);
            }
            assertEquals(all.size(), before.size() + after.size(), "written rows");
            assertTrue(
                    fromBigCommit < 1000,
                    "the savepoint fell after the large commit was out: " + fromBigCommit);
            CollectedRows.clear(runId);
        }
    }

    @Test
    void aSnapshotExpiredWhileTheJobWasStoppedFailsTheRestoreNamingIt() throws Exception {
        String name = "expired";
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, name)) {
            t.append(2, 10);
            long readUpTo = t.append(1, 10);
            String runId = name + "-run";
            String hocon = job(ManagedIcebergSourceFactory.IDENTIFIER, name, t, runId);
            IcebergJobs.allowLaneA(name, ManagedIcebergSourceFactory.IDENTIFIER);
            EmbeddedZeta zeta = harness.zeta();
            CollectedRows rows = CollectedRows.of(runId);
            long jobId = zeta.submit(hocon);
            await().atMost(BOUND).until(() -> rows.committed().size() >= t.keys().size());
            zeta.savePoint(jobId, BOUND);
            zeta.awaitTerminal(jobId, BOUND);
            t.append(1, 10);
            t.append(1, 10);
            t.table().expireSnapshots().expireSnapshotId(readUpTo).commit();
            zeta.assumeRestorable(jobId);
            zeta.submit(jobId, hocon, true);
            JobResult result =
                    zeta.completion(jobId)
                            .get(BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            System.out.printf(
                    "[ManagedIcebergFaultsTest] restore past an expired snapshot: %s, %s%n",
                    result.getStatus(), result.getError());
            assertEquals(JobStatus.FAILED, result.getStatus());
            assertTrue(
                    String.valueOf(result.getError()).contains(readUpTo + " of table")
                            && String.valueOf(result.getError()).contains("no longer exists"),
                    String.valueOf(result.getError()));
            assertEquals(30, rows.committed().size(), "nothing read after the restore");
            CollectedRows.clear(runId);
        }
    }
}
