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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane B on a real Zeta 2.3.8 member: the managed FakeSource's legacy {@code pollNext} path, 5
 * splits × 20 rows, p=2, batch mode, must reach FINISHED with every (split, seq) delivered exactly
 * once. Prints the wall time from submit to FINISHED.
 */
class LaneBBoundedJobTest {

    private static final Duration BOUND = Duration.ofSeconds(120);

    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta = EmbeddedZeta.builder("lane-b-bounded", 22110).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
    }

    static String job(String runId) {
        return "env {\n"
                + "  job.mode = \"BATCH\"\n"
                + "  parallelism = 2\n"
                + "}\n"
                + "source {\n"
                + "  ManagedFake {\n"
                + "    split.count = 5\n"
                + "    rows.per.split = 20\n"
                + "    bounded = true\n"
                + "  }\n"
                + "}\n"
                + "sink {\n"
                + "  ManagedCollect {\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "  }\n"
                + "}\n";
    }

    private static List<String> expected() {
        return ManagedJobs.expected5x20();
    }

    @Test
    void boundedJobFinishesAndDeliversEverySplitSeqExactlyOnce() throws Exception {
        // Run twice: the first run pays class loading and JIT, the second is the warm figure.
        long[] millis = new long[2];
        for (int attempt = 0; attempt < 2; attempt++) {
            String runId = "bounded-" + attempt;
            long jobId = zeta.submit(job(runId));
            long submittedAt = zeta.submittedAtNanos(jobId);
            AtomicLong endedAt = new AtomicLong();
            CompletableFuture<JobResult> done =
                    zeta.completion(jobId).whenComplete((r, e) -> endedAt.set(System.nanoTime()));
            JobResult result = zeta.awaitResult(jobId, done, BOUND);

            assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
            assertEquals(JobStatus.FINISHED, zeta.status(jobId));
            millis[attempt] = TimeUnit.NANOSECONDS.toMillis(endedAt.get() - submittedAt);

            CollectedRows rows = CollectedRows.of(runId);
            Map<String, Integer> written = CollectedRows.multiset(rows.written());
            assertEquals(CollectedRows.multiset(expected()), written, "written exactly once");
            Map<String, Integer> committed = CollectedRows.multiset(rows.committed());
            assertEquals(CollectedRows.multiset(expected()), committed, "committed exactly once");
            CollectedRows.clear(runId);
        }
        System.out.printf(
                "[LaneBBoundedJobTest] bounded 5x20 p=2 submit->FINISHED: cold %d ms, warm %d ms%n",
                millis[0], millis[1]);
    }
}
