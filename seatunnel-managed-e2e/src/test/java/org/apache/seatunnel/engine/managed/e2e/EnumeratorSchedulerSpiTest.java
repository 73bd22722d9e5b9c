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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * The scheduler SPI on a real Zeta 2.3.8 member: one enumerator class ({@link
 * SchedulerSpiEnumerator}) that discovers splits through {@code scheduler().callAsync} and assigns
 * them in the result handler, and assigns one more split from a plain thread of its own, runs
 * unchanged on Lane A (job allowlisted) and on Lane B (not allowlisted). Both bounded jobs must
 * FINISH with every row exactly once. On Lane A the own thread's assignment is marshalled onto the
 * coordinator loop (before, it threw); on Lane B the callable and handler run on the context's
 * scheduler thread, which the enumerator's close stops.
 *
 * <p>Threading: test thread only; the connector reports through {@link SchedulerSpiProbe}.
 */
class EnumeratorSchedulerSpiTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final String LANE_A_JOB = "scheduler-spi-lane-a";
    private static final String LANE_B_JOB = "scheduler-spi-lane-b";
    private static final String SCHEDULER_THREAD = "seatunnel-enumerator-scheduler-";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(LANE_A_JOB));
        cfg.put("allowed-connectors", Arrays.asList(SchedulerSpiSource.IDENTIFIER));
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("scheduler-spi", 22560).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String jobName, String runId) {
        return "env {\n"
                + "  job.mode = \"BATCH\"\n"
                + "  parallelism = 2\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + SchedulerSpiSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + "    run.id = \""
                + runId
                + "\"\n"
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

    /** Runs the job to its end and checks what both lanes must show. */
    private static SchedulerSpiProbe runToFinished(String jobName, String runId)
            throws InterruptedException {
        SchedulerSpiProbe.clear(runId);
        RuntimeStats.reset();
        long jobId = zeta.submit(job(jobName, runId));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());

        CollectedRows rows = CollectedRows.of(runId);
        Map<String, Integer> expected = CollectedRows.multiset(ManagedJobs.expected5x20());
        assertEquals(expected, CollectedRows.multiset(rows.written()), "written exactly once");
        assertEquals(expected, CollectedRows.multiset(rows.committed()), "committed exactly once");
        CollectedRows.clear(runId);

        SchedulerSpiProbe probe = SchedulerSpiProbe.of(runId);
        assertNull(probe.ownThreadFailure.get(), "the own thread's assignment failed");
        assertEquals("scheduler-spi-own-thread", probe.ownThreadAssigned.get());
        assertEquals(2, probe.noMoreSplitsSignalled.size(), probe.noMoreSplitsSignalled.toString());
        return probe;
    }

    @Test
    void laneAMarshalsTheOwnThreadsAssignmentAndRunsTheHandlerOnTheLoop() throws Exception {
        SchedulerSpiProbe probe = runToFinished(LANE_A_JOB, "scheduler-spi-a");
        assertEquals(2, RuntimeStats.readersOpened(), "both readers ran on Lane A");
        assertTrue(
                probe.handlerThread.get() != null
                        && !probe.handlerThread.get().startsWith(SCHEDULER_THREAD),
                "the handler ran on the coordinator loop: " + probe.handlerThread.get());
    }

    @Test
    void laneBRunsCallableAndHandlerOnTheSchedulerThreadAndCloseStopsIt() throws Exception {
        SchedulerSpiProbe probe = runToFinished(LANE_B_JOB, "scheduler-spi-b");
        assertEquals(0, RuntimeStats.readersOpened(), "Lane B: no managed reader");
        String thread = probe.handlerThread.get();
        assertTrue(thread != null && thread.startsWith(SCHEDULER_THREAD), "handler on " + thread);
        assertEquals(thread, probe.discoveryThread.get(), "callable on the same thread");
        // The engine closes the enumerator when the job ends; its close stops the thread.
        await().atMost(BOUND).until(() -> !threadAlive(thread));
        assertFalse(threadAlive(thread));
    }

    private static boolean threadAlive(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name) && t.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
