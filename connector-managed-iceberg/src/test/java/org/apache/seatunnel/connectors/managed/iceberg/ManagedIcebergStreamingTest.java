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
import java.util.List;
import org.apache.iceberg.FileFormat;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.RowAccounting;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streaming ManagedIceberg jobs on the embedded engine following a table that is appended to while
 * they run: many small commits, an empty snapshot, a schema-compatible change, and one commit of a
 * few thousand small files; every row exactly once in the sink, on Lane A and on Lane B.
 */
class ManagedIcebergStreamingTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    @TempDir static Path warehouse;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("managed-iceberg-stream", 26510);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    /** The big commit's size: a few thousand files, 100x with -Diceberg.large=true. */
    static int bigCommitFiles() {
        return Boolean.getBoolean("iceberg.large") ? 200_000 : 2_000;
    }

    private void followAppends(String name, boolean laneA) throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, name)) {
            t.append(3, 20);
            t.append(1, 20);
            String runId = name + "-run";
            String job =
                    IcebergJobs.streaming(
                            IcebergJobs.managed(
                                    name,
                                    t,
                                    2,
                                    "stream_scan_strategy",
                                    "FROM_EARLIEST_SNAPSHOT",
                                    "discovery.interval-ms",
                                    200,
                                    "discovery.max-pending-splits",
                                    500),
                            runId,
                            1000);
            if (laneA) {
                IcebergJobs.allowLaneA(name, ManagedIcebergSourceFactory.IDENTIFIER);
            } else {
                IcebergJobs.laneBOnly(name, ManagedIcebergSourceFactory.IDENTIFIER);
            }
            EmbeddedZeta zeta = harness.zeta();
            CollectedRows rows = CollectedRows.of(runId);
            long readersBefore = RuntimeStats.readersOpened();
            long jobId = zeta.submit(job);
            await().atMost(BOUND).until(() -> rows.committed().size() >= t.keys().size());
            for (int i = 0; i < 30; i++) {
                t.append(1, 10);
            }
            t.appendEmpty();
            t.addOptionalColumn("note");
            t.append(2, 10);
            long t0 = System.nanoTime();
            t.append(bigCommitFiles(), 1, FileFormat.AVRO);
            System.out.printf(
                    "[ManagedIcebergStreamingTest] %s: commit of %d files written in %d ms%n",
                    name, bigCommitFiles(), (System.nanoTime() - t0) / 1_000_000);
            List<String> expected = t.keys();
            await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
            t.append(1, 5);
            List<String> all = t.keys();
            await().atMost(BOUND).until(() -> rows.committed().size() >= all.size());
            assertEquals(JobStatus.RUNNING, zeta.status(jobId));
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            RowAccounting.assertExactlyOnce(all, rows.committed());
            long laneAReaders = RuntimeStats.readersOpened() - readersBefore;
            if (laneA) {
                assertTrue(laneAReaders >= 2, "Lane A readers opened: " + laneAReaders);
            } else {
                assertEquals(0, laneAReaders, "Lane A readers on a Lane B job");
            }
            CollectedRows.clear(runId);
        }
    }

    @Test
    void aStreamingJobFollowsAppendsExactlyOnceOnLaneA() throws Exception {
        followAppends("stream_a", true);
    }

    @Test
    void theSameStreamingJobOnLaneBExactlyOnce() throws Exception {
        followAppends("stream_b", false);
    }
}
