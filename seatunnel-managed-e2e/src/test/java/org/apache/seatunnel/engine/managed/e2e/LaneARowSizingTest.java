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
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.zeta.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane A sizes rows as Zeta's source collector does, by the source's row type. Rows with an {@code
 * ARRAY<DATE>} column are the case in point: SeaTunnel sizes a {@code LocalDate[]} only by type, so
 * a poll turn that sized its sampled rows without the type rejected every one of them (and, before
 * a rejected sample counted 0 bytes, failed the job) where the stock lane runs fine.
 */
class LaneARowSizingTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.allow("lane-a-sizing");
        zeta = EmbeddedZeta.builder("lane-a-sizing", 47220).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void rowsOnlyTheRowTypeCanSizeRunOnLaneAAndAreSizedByIt() throws Exception {
        RuntimeStats.reset();
        String runId = "lane-a-sizing";
        String job =
                ManagedJobs.bounded5x20("lane-a-sizing", runId)
                        .replace(
                                "    bounded = true\n",
                                "    bounded = true\n    dates.column = true\n");
        assertTrue(job.contains("dates.column = true"), job);
        CompletableFuture<JobResult> done = zeta.completion(zeta.submit(job));
        await().atMost(BOUND).until(done::isDone);
        JobResult result = done.get();
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());

        CollectedRows rows = CollectedRows.of(runId);
        assertEquals(
                CollectedRows.multiset(ManagedJobs.expected5x20()),
                CollectedRows.multiset(rows.written()),
                "written exactly once");
        CollectedRows.clear(runId);
        assertEquals(2, RuntimeStats.readersOpened(), "both readers ran on Lane A");
        assertEquals(100, RuntimeStats.total(RuntimeStats.Counter.RECORDS));
        assertEquals(0, RuntimeStats.total(RuntimeStats.Counter.UNSIZED_RECORDS));
        // Every row is at least id, split and seq (20 bytes) and three dates (72 bytes) by type.
        long bytes = RuntimeStats.total(RuntimeStats.Counter.BYTES);
        assertTrue(bytes >= 100 * (20 + 72), "bytes " + bytes);
    }
}
