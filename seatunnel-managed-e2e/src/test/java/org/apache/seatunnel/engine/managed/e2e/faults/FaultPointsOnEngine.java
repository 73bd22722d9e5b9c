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

package org.apache.seatunnel.engine.managed.e2e.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.provider.Arguments;

/**
 * STIP-31's eleven fault points on a real Zeta 2.3.8 engine: for each point and each action the
 * runtime carries out there, a bounded Lane A job (ManagedFake, p = 2, 60 splits of 20 rows paced
 * at 600 rows/s per reader, a checkpoint every 300 ms, readers holding at most 4 unread splits so
 * assignments flow all along) gets the fault once, after its first completed checkpoint, and must
 * end FINISHED with every row committed exactly once. A fault that fails a task or the coordinator
 * (CRASH, or a command that can no longer be placed) must make the job restore and read on; a STALL
 * outlasts the checkpoint's timeout. Subclasses choose one member or two.
 *
 * <p>Threading: JUnit's thread; the faults run on the engine's.
 */
abstract class FaultPointsOnEngine {
    static final String JOB_NAME = "lane-a-fault-points";
    static final int SPLITS = 60;
    static final int ROWS_PER_SPLIT = 20;
    static final Duration BOUND = Duration.ofSeconds(90);
    static EmbeddedZeta zeta;

    /** Starts the engine of a subclass: {@code members} members, a 2 s checkpoint timeout. */
    static void start(String cluster, int basePort, int members) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", List.of(JOB_NAME));
        cfg.put("allowed-connectors", List.of(ManagedFakeSource.IDENTIFIER));
        cfg.put("reader.split-window", 4);
        LaneASettings.install(cfg);
        EmbeddedZeta.Builder b =
                EmbeddedZeta.builder(cluster, basePort).checkpointTimeoutMillis(2000);
        if (members > 1) {
            // Spread the coordinator and the readers over the members: commands cross them.
            b.members(members).slotsPerMember(2);
        }
        zeta = b.start();
    }

    @AfterAll
    static void stopEngine() {
        ArmedFaults.disarm();
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @AfterEach
    void disarm() {
        ArmedFaults.disarm();
    }

    /** Every point and every action the runtime (or the interposers, 9 and 10) carries out. */
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        String assignment = "SPLIT_ASSIGNMENT";
        out.add(Arguments.of(FaultSite.COMMAND_CREATION, FaultAction.CRASH, assignment, 1));
        out.add(Arguments.of(FaultSite.COMMAND_CREATION, FaultAction.LOSE, assignment, 1));
        out.add(Arguments.of(FaultSite.OPERATION_SEND, FaultAction.LOSE, assignment, 1));
        out.add(Arguments.of(FaultSite.OPERATION_SEND, FaultAction.DUPLICATE, assignment, 1));
        out.add(Arguments.of(FaultSite.OPERATION_SEND, FaultAction.DELAY, assignment, 1));
        out.add(Arguments.of(FaultSite.OPERATION_SEND, FaultAction.REORDER, assignment, 1));
        out.add(
                Arguments.of(
                        FaultSite.CAPACITY_RESERVATION, FaultAction.RETRY_LATER, assignment, 5));
        out.add(Arguments.of(FaultSite.ADMISSION_ACK, FaultAction.LOSE, assignment, 1));
        out.add(Arguments.of(FaultSite.ADMISSION_ACK, FaultAction.DELAY, assignment, 1));
        out.add(Arguments.of(FaultSite.CONNECTOR_APPLY_BEFORE_RETURN, FaultAction.CRASH, null, 1));
        out.add(Arguments.of(FaultSite.APPLY_COMPLETION, FaultAction.CRASH, null, 1));
        out.add(Arguments.of(FaultSite.APPLY_ACK, FaultAction.LOSE, null, 1));
        out.add(Arguments.of(FaultSite.APPLY_ACK, FaultAction.DUPLICATE, null, 1));
        for (FaultSite s :
                new FaultSite[] {
                    FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION,
                    FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK,
                    FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING
                }) {
            out.add(Arguments.of(s, FaultAction.CRASH, null, 1));
            out.add(Arguments.of(s, FaultAction.STALL, null, 1));
        }
        for (FaultAction a :
                new FaultAction[] {FaultAction.CRASH, FaultAction.LOSE, FaultAction.DELAY}) {
            out.add(Arguments.of(FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC, a, null, 1));
        }
        return out.stream();
    }

    /** Whether the documented outcome of this fault is a restore of the job. */
    static boolean restores(FaultSite site, FaultAction action) {
        return action == FaultAction.CRASH
                || (site == FaultSite.COMMAND_CREATION && action == FaultAction.LOSE);
    }

    /** Whether this fault makes a reader receive a command it already admitted. */
    static boolean redelivers(FaultSite site, FaultAction action) {
        return (site == FaultSite.OPERATION_SEND
                        && (action == FaultAction.DUPLICATE || action == FaultAction.REORDER))
                || (site == FaultSite.ADMISSION_ACK && action == FaultAction.LOSE);
    }

    private static String job(String runId) {
        return "env {\n  job.mode = \"BATCH\"\n  parallelism = 2\n"
                + "  checkpoint.interval = 300\n  job.retry.interval.seconds = 1\n}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \""
                + JOB_NAME
                + "\"\n    split.count = "
                + SPLITS
                + "\n    rows.per.split = "
                + ROWS_PER_SPLIT
                + "\n    bounded = true\n    rows.per.second = 600\n  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    void runWithFault(FaultSite site, FaultAction action, String detail, int times)
            throws Exception {
        String runId = "fault-" + site.number() + "-" + action + "-" + System.nanoTime();
        RuntimeStats.reset();
        long jobId = zeta.submit(job(runId));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        // After the first completed checkpoint, so there is something to restore to.
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> done.isDone() || zeta.latestCompletedCheckpointId(jobId, 1) >= 1);
        if (site == FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK
                || site == FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING) {
            int interposed = 0;
            for (int m = 0; m < zeta.memberCount(); m++) {
                interposed += EngineFaults.interpose(zeta.server(m), jobId);
            }
            assertEquals(2, interposed, "both reader tasks interposed");
        }
        ArmedFaults.Plan plan = ArmedFaults.arm(site, action, jobId, detail, 0, times, 4000);
        JobResult result = done.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        String what = plan + ", job " + jobId;
        assertEquals(JobStatus.FINISHED, result.getStatus(), what + ": " + result.getError());
        assertTrue(plan.fired() >= 1, "the fault was injected: " + what);
        if (restores(site, action)) {
            assertTrue(
                    RuntimeStats.readersOpened() > 2,
                    "the job restored and read on with new reader attempts: " + what);
        }
        if (redelivers(site, action)) {
            long refused =
                    RuntimeStats.admissions().getOrDefault(AdmissionStatus.DUPLICATE, 0L)
                            + RuntimeStats.total(RuntimeStats.Counter.DUPLICATES_SKIPPED);
            assertTrue(
                    refused >= 1,
                    "a reader answered the second delivery DUPLICATE or skipped it: " + what);
        }
        CollectedRows rows = CollectedRows.of(runId);
        Map<String, Integer> committed = CollectedRows.multiset(rows.committed());
        int missing = 0;
        int repeated = 0;
        for (int n = 0; n < SPLITS; n++) {
            for (long seq = 0; seq < ROWS_PER_SPLIT; seq++) {
                Integer c = committed.get(ManagedFakeRows.payload(n, seq));
                if (c == null) {
                    missing++;
                } else if (c > 1) {
                    repeated += c - 1;
                }
            }
        }
        assertEquals(
                SPLITS * ROWS_PER_SPLIT,
                committed.size(),
                what + ": rows committed (missing " + missing + ")");
        assertEquals(0, missing, what + ": missing rows");
        assertEquals(0, repeated, what + ": rows committed twice");
        System.out.printf(
                "[%s] %s: FINISHED, %d rows exactly once, %d reader attempts, fired at %s%n",
                getClass().getSimpleName(),
                plan,
                SPLITS * ROWS_PER_SPLIT,
                RuntimeStats.readersOpened(),
                plan.firedAt());
        CollectedRows.clear(runId);
    }
}
