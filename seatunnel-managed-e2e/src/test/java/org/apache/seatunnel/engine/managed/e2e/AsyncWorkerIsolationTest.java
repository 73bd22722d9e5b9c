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
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The async worker pool on a real Zeta 2.3.8 member: two Lane A jobs whose coordinators keep 5 s
 * {@code callAsync} discoveries running do not hold up a third job's checkpoints, because async
 * work runs on the member's own DISCOVERY workers and never on the coordinator-loop threads that
 * take every coordinator's snapshot; each coordinator's over-limit submission (beyond {@code
 * coordinator.async-max-concurrency} running plus {@code coordinator.async-queue-capacity} waiting)
 * reaches its result handler as a {@link RejectedExecutionException}, counted member-wide; and each
 * job's share of the pool is released when the job ends.
 *
 * <p>Threading: test thread only; connectors report through {@link SlowDiscoveryProbe}.
 */
class AsyncWorkerIsolationTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String SLOW_A = "async-slow-a";
    private static final String SLOW_B = "async-slow-b";
    private static final String PROBE = "async-probe";
    private static final int MAX_CONCURRENCY = 2;
    private static final int QUEUE = 1;
    private static final int BURST = 4;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(SLOW_A, SLOW_B, PROBE));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(SlowDiscoverySource.IDENTIFIER, ManagedFakeSource.IDENTIFIER));
        cfg.put("coordinator.async-max-concurrency", MAX_CONCURRENCY);
        cfg.put("coordinator.async-queue-capacity", QUEUE);
        // Room for both slow jobs' running discoveries: the isolation shown is from the loops.
        cfg.put("async-worker.discovery-threads", 2 * MAX_CONCURRENCY);
        // Installed before the member starts: its async workers read the member-wide bounds then.
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("async-isolation", 24100).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String slowJob(String jobName, String runId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 1\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + SlowDiscoverySource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + jobName
                + "\"\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "    discovery.burst = "
                + BURST
                + "\n"
                + "    discovery.millis = 5000\n"
                + "    split.count = 1\n"
                + "    bounded = false\n"
                + "    rows.per.second = 10\n"
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

    @Test
    void slowDiscoveriesOfTwoJobsDoNotDelayAThirdJobsCheckpoints() throws Exception {
        SourceAsyncWorkerPool pool = ManagedSourceMemberService.of(zeta.member(0)).asyncWorkers();
        long rejectedBefore = pool.rejected();
        SlowDiscoveryProbe a = SlowDiscoveryProbe.of("async-slow-a");
        SlowDiscoveryProbe b = SlowDiscoveryProbe.of("async-slow-b");
        long jobA = zeta.submit(slowJob(SLOW_A, "async-slow-a"));
        long jobB = zeta.submit(slowJob(SLOW_B, "async-slow-b"));
        try {
            // Each coordinator: two discoveries running, one waiting, one over the limit.
            for (SlowDiscoveryProbe p : new SlowDiscoveryProbe[] {a, b}) {
                await().atMost(BOUND)
                        .until(() -> p.running.get() == MAX_CONCURRENCY && !p.rejections.isEmpty());
                assertEquals(BURST - MAX_CONCURRENCY - QUEUE, p.rejections.size());
                assertTrue(
                        p.rejections.get(0).getMessage().contains("async-max-concurrency"),
                        p.rejections.get(0).getMessage());
                assertTrue(p.otherFailures.isEmpty(), p.otherFailures.toString());
            }
            assertTrue(
                    pool.rejected() - rejectedBefore >= 2,
                    "over-limit submissions counted in ManagedSourceAsyncRejected");
            assertEquals(2, pool.openShares(), "one pool lane per running coordinator");

            String runId = "async-probe";
            long probeJob =
                    zeta.submit(
                            ManagedJobs.streaming(
                                    PROBE,
                                    "    split.count = 2\n    bounded = false\n"
                                            + "    rows.per.second = 100\n",
                                    runId));
            zeta.awaitStatus(probeJob, JobStatus.RUNNING, BOUND);
            long first = Math.max(0, zeta.latestCompletedCheckpointId(probeJob, 1));
            // Three checkpoints of the probe job while discoveries of 5 s each are in flight: on
            // the coordinator-loop threads they would hold the probe's snapshot for seconds.
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> zeta.latestCompletedCheckpointId(probeJob, 1) >= first + 3);
            for (SlowDiscoveryProbe p : new SlowDiscoveryProbe[] {a, b}) {
                // A delivered result is resubmitted in the same loop turn.
                assertTrue(
                        p.inFlight() >= MAX_CONCURRENCY,
                        "the slow jobs' discoveries were still running or waiting: "
                                + p.inFlight());
            }
            for (String t : a.callableThreads) {
                assertTrue(t.contains("managed-source-async-discovery-"), "callable ran on " + t);
            }
            assertEquals(3, pool.openShares());

            zeta.cancel(probeJob, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(probeJob, BOUND));
            CollectedRows.clear(runId);
        } finally {
            a.release.countDown();
            b.release.countDown();
            zeta.cancel(jobA, BOUND);
            zeta.cancel(jobB, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobA, BOUND));
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobB, BOUND));
            SlowDiscoveryProbe.clear("async-slow-a");
            SlowDiscoveryProbe.clear("async-slow-b");
            CollectedRows.clear("async-slow-a");
            CollectedRows.clear("async-slow-b");
        }
        // Each coordinator released its share when its job ended.
        await().atMost(BOUND).until(() -> pool.openShares() == 0);
    }
}
