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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
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
 * Lane A on a real Zeta 2.3.8 member: the same bounded job as {@link LaneBBoundedJobTest}, named
 * through the Managed source with Lane A enabled and allowlisted, must reach FINISHED with every
 * (split, seq) exactly once, and must really have run through the managed runtime.
 */
class LaneABoundedJobTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(List.of("lane-a-bounded"), List.of(ManagedFakeSource.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-bounded", 22210).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    static String job(String runId) {
        return ManagedJobs.bounded5x20("lane-a-bounded", runId);
    }

    private static List<String> expected() {
        return ManagedJobs.expected5x20();
    }

    @Test
    void boundedLaneAJobFinishesWithEveryRowExactlyOnce() throws Exception {
        long[] millis = new long[2];
        for (int attempt = 0; attempt < 2; attempt++) {
            RuntimeStats.reset();
            String runId = "lane-a-bounded-" + attempt;
            long jobId = zeta.submit(job(runId));
            long submittedAt = zeta.submittedAtNanos(jobId);
            AtomicLong endedAt = new AtomicLong();
            CompletableFuture<JobResult> done =
                    zeta.completion(jobId).whenComplete((r, e) -> endedAt.set(System.nanoTime()));
            JobResult result = zeta.awaitResult(jobId, done, BOUND);
            assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
            millis[attempt] = TimeUnit.NANOSECONDS.toMillis(endedAt.get() - submittedAt);

            assertEveryRowOnceOnLaneA(runId);
            assertTrue(RuntimeStats.total(RuntimeStats.Counter.COMMANDS_APPLIED) >= 5 + 2);
        }
        System.out.printf(
                "[LaneABoundedJobTest] bounded 5x20 p=2 submit->FINISHED: cold %d ms, warm %d ms%n",
                millis[0], millis[1]);
    }

    /**
     * Lane A sizes rows as Zeta's source collector does, by the source's row type. Rows with an
     * {@code ARRAY<DATE>} column are the case in point: SeaTunnel sizes a {@code LocalDate[]} only
     * by type, so a poll turn that sized its sampled rows without the type rejected every one of
     * them (and, before a rejected sample counted 0 bytes, failed the job) where the stock lane
     * runs fine.
     */
    @Test
    void rowsOnlyTheRowTypeCanSizeRunOnLaneAAndAreSizedByIt() throws Exception {
        RuntimeStats.reset();
        String runId = "lane-a-bounded-dates";
        String job = ManagedJobs.bounded5x20("lane-a-bounded", runId, "    dates.column = true\n");
        long jobId = zeta.submit(job);
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());

        assertEveryRowOnceOnLaneA(runId);
        assertEquals(0, RuntimeStats.total(RuntimeStats.Counter.UNSIZED_RECORDS));
        // Every row is at least id, split and seq (20 bytes) and three dates (72 bytes) by type.
        long bytes = RuntimeStats.total(RuntimeStats.Counter.BYTES);
        assertTrue(bytes >= 100 * (20 + 72), "bytes " + bytes);
    }

    private static void assertEveryRowOnceOnLaneA(String runId) {
        CollectedRows rows = CollectedRows.of(runId);
        assertEquals(
                CollectedRows.multiset(expected()),
                CollectedRows.multiset(rows.written()),
                "written exactly once");
        CollectedRows.clear(runId);
        assertEquals(2, RuntimeStats.readersOpened(), "both readers ran on Lane A");
        assertEquals(100, RuntimeStats.total(RuntimeStats.Counter.RECORDS));
    }
}
