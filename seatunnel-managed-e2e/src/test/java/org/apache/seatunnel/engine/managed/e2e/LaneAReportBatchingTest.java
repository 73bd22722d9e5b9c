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
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Batched checkpoint reports on a real two-member engine: a Lane A streaming job at parallelism 4
 * runs across checkpoints and through an injected reader failure (a restore from the last
 * checkpoint). At the sink every row is committed exactly once; in the members' transport metrics
 * the readers' checkpoint reports left their members in batches (more reports than batches), some
 * of them to a coordinator on the other member, and every report a reader produced is accounted
 * for: batched, none dropped.
 */
class LaneAReportBatchingTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-report-batching";
    private static final int SPLITS = 8;
    private static final int PARALLELISM = 4;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        // Three slots per member for the coordinator's and four readers' task groups: with dynamic
        // slots the engine may place every reader beside the coordinator.
        zeta =
                EmbeddedZeta.builder("lane-a-report-batching", 24700)
                        .members(2)
                        .slotsPerMember(3)
                        .start();
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
                + PARALLELISM
                + "\n  checkpoint.interval = 1000\n}\n"
                + "source {\n  Managed {\n    connector = \""
                + ManagedFakeTestingSourceFactory.IDENTIFIER
                + "\"\n    job-name = \""
                + JOB_NAME
                + "\"\n    split.count = "
                + SPLITS
                + "\n    bounded = false\n    rows.per.second = 400\n"
                + "    fault.id = \""
                + faultId
                + "\"\n    fail.once.at.row = 2400\n  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private static ManagedSourceMemberService service(int member) {
        return ManagedSourceMemberService.of(zeta.member(member));
    }

    private static long sum(java.util.function.ToLongFunction<TransportMetrics> f) {
        return f.applyAsLong(service(0).metrics()) + f.applyAsLong(service(1).metrics());
    }

    @Test
    void reportsTravelInBatchesAndRowsStayExactlyOnceThroughARestore() throws Exception {
        String runId = "report-batching";
        String faultId = "lane-a-report-batching-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId = zeta.submit(job(runId, faultId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> RuntimeStats.readersLive() == PARALLELISM);

        // Where the engine placed things (it differs between runs, and a restore may move the
        // coordinator): one member runs the coordinator, the other at least one reader (the fixed
        // slots leave it no room for all four beside the coordinator), whose batches therefore
        // cross members until the restore.
        int coordinatorMember = service(0).targets().coordinatorCount() > 0 ? 0 : 1;
        int otherMember = 1 - coordinatorMember;
        assertEquals(1, service(coordinatorMember).targets().coordinatorCount());
        assertEquals(0, service(otherMember).targets().coordinatorCount());
        int remoteReaders = service(otherMember).targets().readerCount();
        assertTrue(
                remoteReaders >= 1,
                "the engine placed no reader on the member without the"
                        + " coordinator: "
                        + remoteReaders);

        await().atMost(BOUND).until(() -> ManagedFakeFaults.fired(faultId + "/reader"));
        // Until the restored coordinator opens, every report still goes to the first one.
        long crossMemberBatches = service(otherMember).metrics().reportBatchesSent();
        int committedAtFailure = rows.committed().size();
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 2 * PARALLELISM);
        long batchesAtRestore = sum(TransportMetrics::reportBatchesSent);
        // The restored readers' first checkpoint is reported in batches; later ones prove nothing
        // new (no assignment moves) and are not reported at all.
        long unchangedAtRestore =
                RuntimeStats.total(RuntimeStats.Counter.CHECKPOINT_REPORTS_UNCHANGED);
        try {
            await().atMost(BOUND)
                    .until(
                            () ->
                                    sum(TransportMetrics::reportBatchesSent) > batchesAtRestore
                                            && RuntimeStats.total(
                                                            RuntimeStats.Counter
                                                                    .CHECKPOINT_REPORTS_UNCHANGED)
                                                    >= unchangedAtRestore + 2 * PARALLELISM
                                            && rows.committed().size() >= committedAtFailure + 800);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            System.out.printf(
                    "[LaneAReportBatchingTest] stalled: committed %d (%d at failure), batches %d"
                            + " (%d at restore), reader checkpoints %d, pending reports %d/%d,"
                            + " coordinators %d/%d, readers %d/%d, status %s%n m0 %s%n m1 %s%n",
                    rows.committed().size(),
                    committedAtFailure,
                    sum(TransportMetrics::reportBatchesSent),
                    batchesAtRestore,
                    RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS),
                    service(0).reportBatcher().pendingCount(),
                    service(1).reportBatcher().pendingCount(),
                    service(0).targets().coordinatorCount(),
                    service(1).targets().coordinatorCount(),
                    service(0).targets().readerCount(),
                    service(1).targets().readerCount(),
                    zeta.status(jobId),
                    service(0).metrics().snapshot(),
                    service(1).metrics().snapshot());
            throw e;
        }
        assertEquals(JobStatus.RUNNING, zeta.status(jobId));
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        // (i) exactly once at the sink, through the restore.
        Map<Integer, Long> perSplit =
                Accounting.assertContiguousExactlyOnce(rows.committed(), SPLITS);

        // (ii) every report a reader produced left its member in a batch, none was dropped, and
        // every other reader checkpoint was one whose report would have proved nothing new.
        long readerCheckpoints = RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS);
        long unchanged = RuntimeStats.total(RuntimeStats.Counter.CHECKPOINT_REPORTS_UNCHANGED);
        await().atMost(BOUND)
                .until(
                        () ->
                                sum(TransportMetrics::reportsBatched)
                                        == readerCheckpoints - unchanged);
        long batched = sum(TransportMetrics::reportsBatched);
        long batches = sum(TransportMetrics::reportBatchesSent);
        System.out.printf(
                "[LaneAReportBatchingTest] committed per split %s (%d at failure); reader"
                        + " checkpoints %d; reports batched %d in %d batches (flushes: all"
                        + " reported %d, window %d, count bound %d); batch retries %d; remote"
                        + " member sent %d batches before the restore, members received %d;"
                        + " dropped %d%n",
                perSplit,
                committedAtFailure,
                readerCheckpoints,
                batched,
                batches,
                sum(TransportMetrics::reportFlushAllReported),
                sum(TransportMetrics::reportFlushWindow),
                sum(TransportMetrics::reportFlushCountBound),
                sum(TransportMetrics::reportBatchRetries),
                crossMemberBatches,
                sum(TransportMetrics::batchesReceived),
                sum(TransportMetrics::reportsDropped));
        assertTrue(readerCheckpoints > 0, "readers took checkpoints");
        assertTrue(
                unchanged >= 2 * PARALLELISM,
                "checkpoints proving nothing new were not reported: " + unchanged);
        assertEquals(0, sum(TransportMetrics::reportsDropped), "no report dropped");
        assertTrue(batched > batches, "reports travelled together: " + batched + " > " + batches);
        assertEquals(
                batches,
                sum(TransportMetrics::reportFlushAllReported)
                        + sum(TransportMetrics::reportFlushWindow)
                        + sum(TransportMetrics::reportFlushCountBound),
                "every batch has one flush cause");
        assertTrue(
                crossMemberBatches > 0,
                "the " + remoteReaders + " reader(s) without a local coordinator sent batches");
        assertTrue(
                sum(TransportMetrics::batchesReceived) >= batches,
                "every batch reached a coordinator's member");
        ManagedFakeFaults.clear(faultId);
        CollectedRows.clear(runId);
    }
}
