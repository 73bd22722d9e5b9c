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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats.Counter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.off-loop-check} on a real engine. A raw-SPI reader whose fetch thread advances its
 * split offsets itself ({@link SafetyNetSource} behaviour {@code off-loop}) runs a bounded job with
 * checkpoints: with the check on it is warned about once per reader attempt, naming connector, job
 * and subtask, and {@code ManagedSourceOffLoopStateChanges} counts it; with the check off (the
 * default) nothing is checked or reported. ManagedFake, whose state moves only where it emits, runs
 * with the check on every checkpoint, through a restore, and is never reported.
 */
class LaneAOffLoopStateCheckTest {
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String OFF_LOOP_JOB = "lane-a-off-loop";
    private static final String FAKE_JOB = "lane-a-off-loop-fake";
    private static final String WARNING = "checkpoint-visible state changed while no poll turn";
    private static EmbeddedZeta zeta;
    private LogCapture logs;

    @BeforeAll
    static void startEngine() {
        settings(true);
        zeta = EmbeddedZeta.builder("lane-a-off-loop-check", 26300).start();
    }

    @AfterAll
    static void stopEngine() {
        ArmedFaults.disarm();
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @BeforeEach
    void captureLogs() {
        RuntimeStats.reset();
        logs = LogCapture.attach("org.apache.seatunnel.engine.managed");
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    /** Lane A for both jobs; the check on every checkpoint, or off (its default). */
    private static void settings(boolean check) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(OFF_LOOP_JOB, FAKE_JOB));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(
                        SafetyNetSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        if (check) {
            cfg.put("reader.off-loop-check.enabled", true);
            cfg.put("reader.off-loop-check.interval", 1);
        }
        LaneASettings.install(cfg);
    }

    /**
     * Bounded, p=2, checkpoints every 200 ms: 4 splits of 60 rows, one row fetched every 20 ms, so
     * each reader runs about 2.4 s and takes about a dozen checkpoints while mostly waiting for its
     * fetch thread, which moves the offset before it signals the row.
     */
    private static String offLoopJob(String runId) {
        return "env {\n  job.mode = \"BATCH\"\n  parallelism = 2\n  checkpoint.interval = 200\n}\n"
                + "source {\n  Managed {\n"
                + "    connector = \""
                + SafetyNetSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + OFF_LOOP_JOB
                + "\"\n"
                + "    split.count = 4\n    rows.per.split = 60\n    bounded = true\n"
                + "    behaviour = \"off-loop\"\n    row.arrival.millis = 20\n"
                + "  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private long runOffLoopJob(String runId) throws Exception {
        long jobId = zeta.submit(offLoopJob(runId));
        assertEquals(JobStatus.FINISHED, zeta.awaitTerminal(jobId, BOUND));
        // Without a restore the bug loses nothing: every row arrives once.
        assertEquals(240, CollectedRows.of(runId).writtenCount());
        CollectedRows.clear(runId);
        return jobId;
    }

    @Test
    void aFetchThreadThatMovesOffsetsIsReportedOncePerReaderAttempt() throws Exception {
        settings(true);
        long jobId = runOffLoopJob("off-loop-on");

        long attempts = RuntimeStats.readersOpened();
        long checks = RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS);
        long changes = RuntimeStats.total(Counter.OFF_LOOP_STATE_CHANGES);
        assertEquals(2, attempts, "one Lane A attempt per subtask, no failover");
        assertTrue(changes > 0, "changes found in " + checks + " checks");
        List<String> warnings = logs.matching(Level.WARN, WARNING);
        assertFalse(warnings.isEmpty());
        Set<String> attemptsWarned = new TreeSet<>();
        for (String w : warnings) {
            assertTrue(w.contains("connector " + SafetyNetSource.IDENTIFIER), w);
            assertTrue(w.contains("job " + OFF_LOOP_JOB + " (" + jobId + ")"), w);
            assertTrue(w.matches("(?s).*subtask [01] .*"), w);
            // No split (ManagedFake's split ids are "split-N") in the log.
            assertFalse(w.contains("split-"), w);
            attemptsWarned.add(w.replaceAll("(?s).*\\(attempt (-?\\d+)\\).*", "$1"));
        }
        assertEquals(warnings.size(), attemptsWarned.size(), "once per attempt: " + warnings);
        assertTrue(warnings.size() <= attempts, warnings.toString());
        System.out.printf(
                "[LaneAOffLoopStateCheckTest] check on: %d checks, %d changes, %d warnings for %d"
                        + " attempts%n",
                checks, changes, warnings.size(), attempts);
    }

    @Test
    void withTheCheckOffNothingIsCheckedOrReported() throws Exception {
        settings(false);
        try {
            runOffLoopJob("off-loop-off");
        } finally {
            settings(true);
        }
        assertEquals(2, RuntimeStats.readersOpened());
        assertTrue(RuntimeStats.total(Counter.CHECKPOINTS) > 0, "the job took checkpoints");
        assertEquals(0, RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS));
        assertEquals(0, RuntimeStats.total(Counter.OFF_LOOP_STATE_CHANGES));
        assertTrue(logs.matching(Level.WARN, WARNING).isEmpty());
        System.out.printf(
                "[LaneAOffLoopStateCheckTest] check off: %d reader checkpoints, 0 checks%n",
                RuntimeStats.total(Counter.CHECKPOINTS));
    }

    @Test
    void managedFakeIsNeverReportedAcrossManyCheckpointsAndARestore() throws Exception {
        settings(true);
        String runId = "off-loop-fake";
        long jobId =
                zeta.submit(
                        "env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n"
                                + "  checkpoint.interval = 200\n}\n"
                                + "source {\n  Managed {\n"
                                + "    connector = \""
                                + ManagedFakeTestingSourceFactory.IDENTIFIER
                                + "\"\n"
                                + "    job-name = \""
                                + FAKE_JOB
                                + "\"\n"
                                + "    split.count = 4\n    bounded = false\n"
                                + "    rows.per.second = 2000\n"
                                + "  }\n}\n"
                                + "sink {\n  ManagedCollect {\n    run.id = \""
                                + runId
                                + "\"\n  }\n}\n");
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        // 30 reader checkpoints: 15 of the job, each checked by both readers.
        await().atMost(BOUND)
                .until(
                        () ->
                                RuntimeStats.total(Counter.CHECKPOINTS) >= 30
                                        && RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS) >= 30);
        assertEquals(2, RuntimeStats.readersOpened());

        // A restore: the coordinator fails at a checkpoint's completion, the pipeline restores.
        ArmedFaults.arm(
                FaultSite.GLOBAL_COMPLETION_BEFORE_TRACKER_GC,
                FaultAction.CRASH,
                jobId,
                null,
                0,
                1,
                0);
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 4);
        ArmedFaults.disarm();
        long checksAtRestore = RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS);
        long checkpointsAtRestore = RuntimeStats.total(Counter.CHECKPOINTS);
        // The restored attempts check too: 30 more reader checkpoints and checks.
        await().atMost(BOUND)
                .until(
                        () ->
                                RuntimeStats.total(Counter.CHECKPOINTS) >= checkpointsAtRestore + 30
                                        && RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS)
                                                >= checksAtRestore + 30);
        long checks = RuntimeStats.total(Counter.OFF_LOOP_STATE_CHECKS);
        long checkpoints = RuntimeStats.total(Counter.CHECKPOINTS);
        long records = RuntimeStats.total(Counter.RECORDS);
        zeta.cancel(jobId, BOUND);
        zeta.awaitTerminal(jobId, BOUND);
        CollectedRows.clear(runId);

        assertEquals(0, RuntimeStats.total(Counter.OFF_LOOP_STATE_CHANGES));
        assertTrue(logs.matching(Level.WARN, WARNING).isEmpty());
        assertTrue(records > 0);
        System.out.printf(
                "[LaneAOffLoopStateCheckTest] ManagedFake: %d reader checkpoints, %d checks"
                        + " (%d before the restore), 0 changes, %d records%n",
                checkpoints, checks, checksAtRestore, records);
    }
}
