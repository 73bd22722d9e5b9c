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
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.poll-linger} at its bound ({@code reader.idle-wait}) on a real engine: a reader
 * whose rows trickle in one at a time hands them to the engine in a few larger turns instead of one
 * turn per row, and the bounded job still finishes with every row exactly once.
 */
class LaneAPollLingerTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final String JOB_NAME = "lane-a-linger";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put("allowed-connectors", Arrays.asList(ManagedFakeSource.IDENTIFIER));
        cfg.put("reader.idle-wait", "200ms");
        cfg.put("reader.poll-linger", "200ms");
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("lane-a-linger", 22810).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void rowsThatTrickleInLeaveInFewerTurnsAndEachExactlyOnce() throws Exception {
        tricklingRowsLeaveInFewTurnsEachOnce(
                zeta, JOB_NAME, "lane-a-linger", "LaneAPollLingerTest");
    }

    /**
     * Runs the bounded 5 × 20 job at 100 rows/s per reader on {@code zeta} (whose settings linger)
     * and checks that its 100 rows took fewer than 50 poll turns, that lingers were counted, and
     * that every row was written once. Paced one row per fetch, without a linger every row wakes
     * the task thread for a turn of its own (at least 100 turns).
     */
    static void tricklingRowsLeaveInFewTurnsEachOnce(
            EmbeddedZeta zeta, String jobName, String runId, String label) throws Exception {
        RuntimeStats.reset();
        ManagedJobs.finish5x20ExactlyOnce(
                zeta,
                ManagedJobs.bounded5x20(jobName, runId, "    rows.per.second = 100\n"),
                runId,
                BOUND);
        long records = RuntimeStats.total(RuntimeStats.Counter.RECORDS);
        long turns = RuntimeStats.total(RuntimeStats.Counter.POLL_TURNS);
        long lingered = RuntimeStats.total(RuntimeStats.Counter.POLLS_LINGERED);
        assertEquals(100, records);
        assertTrue(turns < records / 2, "turns " + turns + " for " + records + " rows");
        assertTrue(lingered > 0, "ManagedSourcePollsLingered counted the deferred polls");
        System.out.printf(
                "[%s] FINISHED, 100 rows once, %d poll turns, ManagedSourcePollsLingered %d%n",
                label, turns, lingered);
    }
}
