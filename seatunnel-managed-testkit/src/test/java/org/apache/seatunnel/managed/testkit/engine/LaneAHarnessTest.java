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

package org.apache.seatunnel.managed.testkit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The harness as a connector author uses it: a tiny bounded connector defined in these test sources
 * ({@link RangeSource}) runs on a real embedded Zeta 2.3.8 member on Lane A and on Lane B, and each
 * lane's committed rows are exactly the expected ones, each once.
 */
class LaneAHarnessTest {
    private static final int SPLITS = 5;
    private static final long COUNT = 40;

    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("testkit-harness", 21710);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static ManagedJob rangeJob() {
        return ManagedJob.source(RangeSource.IDENTIFIER)
                .name("testkit-range")
                .option("splits", SPLITS)
                .option("count", COUNT)
                .parallelism(2);
    }

    @Test
    void boundedJobCommitsEveryRowExactlyOnceOnLaneA() {
        RunResult r = harness.runBounded(rangeJob());

        assertEquals(JobStatus.FINISHED, r.status(), "error: " + r.error());
        assertEquals(Lane.A, r.lane());
        assertEquals(2, r.laneAReadersOpened(), "both readers ran on Lane A");
        RowAccounting.assertExactlyOnce(RangeSource.expectedKeys(SPLITS, COUNT), r.committedRows());
    }

    @Test
    void sameJobCommitsEveryRowExactlyOnceOnLaneB() {
        RunResult r = harness.runBounded(rangeJob(), Lane.B);

        assertEquals(JobStatus.FINISHED, r.status(), "error: " + r.error());
        assertEquals(0, r.laneAReadersOpened(), "the kill switch kept the job on Lane B");
        r.assertFinishedExactlyOnce(RangeSource.expectedKeys(SPLITS, COUNT));
    }

    @Test
    void keyFieldKeysCommittedRowsByThatField() {
        RunResult r = harness.runBounded(rangeJob().option("splits", 2).keyField("id"));

        List<String> ids = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            for (long q = 0; q < COUNT; q++) {
                ids.add(Long.toString(s * 1_000_000L + q));
            }
        }
        r.assertFinishedExactlyOnce(ids);
    }

    /**
     * Zeta 2.3.8 takes no periodic checkpoint of a BATCH job whose {@code env} lacks {@code
     * checkpoint.interval}, whatever the engine's own interval; the harness gives the job the
     * engine's. The source holds its end until a checkpoint after its last row completed, so the
     * run only finishes if the job checkpoints (on both lanes).
     */
    @Test
    void boundedRunsTakeTheEnginesCheckpointsOnBothLanes() {
        for (Lane lane : Lane.values()) {
            RunResult r = harness.runBounded(rangeJob().option("end-after-checkpoint", true), lane);

            r.assertFinishedExactlyOnce(RangeSource.expectedKeys(SPLITS, COUNT));
        }
    }

    /**
     * A run that does not end within the harness's timeout fails with the job's status, and the
     * test's output gets the {@link HangReport} (every thread's stack): the source holds its end
     * for a checkpoint the job's interval never reaches within the bound.
     */
    @Test
    void aRunThatDoesNotEndFailsWithItsStatusAndAHangReport() {
        LaneAHarness shortWait = LaneAHarness.on(harness.zeta()).timeout(Duration.ofSeconds(3));
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        AssertionError e;
        System.setOut(new PrintStream(printed, true));
        try {
            e =
                    assertThrows(
                            AssertionError.class,
                            () ->
                                    shortWait.runBounded(
                                            rangeJob()
                                                    .option("end-after-checkpoint", true)
                                                    .env("checkpoint.interval", 600_000)));
        } finally {
            System.setOut(out);
        }
        assertTrue(e.getMessage().contains("did not end within PT3S"), e.getMessage());
        assertTrue(e.getMessage().contains("status RUNNING"), e.getMessage());
        String report = printed.toString();
        assertTrue(report.contains(", live 2,"), report);
        assertTrue(
                report.contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE"), report);
    }

    /** The job's own {@code checkpoint.interval} wins over the engine's. */
    @Test
    void aJobsOwnCheckpointIntervalIsKept() {
        String hocon =
                rangeJob().env("checkpoint.interval", 250).toHocon("run", harness.jobDefaults());

        assertTrue(hocon.contains("checkpoint.interval = 250\n"), hocon);
        assertTrue(!hocon.contains("checkpoint.interval = 1000"), hocon);
    }

    /**
     * Runtime settings installed before a run (here the poll cancellation timeout) stay in force
     * for it; the harness only sets the kill switch and the allowlists.
     */
    @Test
    void runsKeepTheRuntimeSettingsInstalledBefore() {
        Map<String, Object> custom = new LinkedHashMap<>();
        custom.put("poll.cancellation-timeout", "7s");
        LaneASettings.install(custom);

        RunResult r = harness.runBounded(rangeJob());

        r.assertFinishedExactlyOnce(RangeSource.expectedKeys(SPLITS, COUNT));
        Map<String, Object> used = LaneASettings.current();
        assertEquals("7s", used.get("poll.cancellation-timeout"), "settings: " + used);
        assertEquals(true, used.get("enabled"), "settings: " + used);
        assertEquals(
                Collections.singletonList("testkit-range"),
                used.get("allowed-jobs"),
                "settings: " + used);
    }

    /**
     * A connector that does not declare bounded poll and wakeup is planned on Lane B; a test that
     * asked for Lane A must fail instead of passing on the wrong lane.
     */
    @Test
    void aRunAskedForLaneAFailsWhenTheConnectorIsPlannedOnLaneB() {
        AssertionError e =
                assertThrows(
                        AssertionError.class,
                        () -> harness.runBounded(rangeJob().option("capable", false)));
        assertTrue(e.getMessage().contains("no Lane A reader opened"), e.getMessage());
    }
}
