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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.common.metrics.JobMetrics;
import org.apache.seatunnel.api.common.metrics.Measurement;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.metrics-level} on a real engine: by default a Lane A reader's job metrics hold the
 * basic set only, and {@code DETAILED} adds the rest, while the job's rows are written once either
 * way.
 */
class LaneAReaderMetricsLevelTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-metrics-level";
    // Basic: what an operator watches. Detailed: one of each kind the detailed table adds.
    private static final List<String> BASIC =
            Arrays.asList(
                    "ManagedSourcePollTurns",
                    "ManagedSourcePollRecords",
                    "ManagedSourceMailboxBytes",
                    "ManagedSourceCommandsApplied",
                    "ManagedSourceReaderCheckpoints",
                    "ManagedSourceReaderRequestsOutstanding");
    private static final List<String> DETAILED =
            Arrays.asList(
                    "ManagedSourceAdmissionAccepted",
                    "ManagedSourceBarrierHandoffs",
                    "ManagedSourceOutputInFlightLimit",
                    "ManagedSourceReaderRequestsFenced");
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta = EmbeddedZeta.builder("lane-a-metrics-level", 22140).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
    }

    @AfterEach
    void uninstall() {
        LaneASettings.clear();
    }

    private static void install(String level) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put("allowed-connectors", Arrays.asList(ManagedFakeSource.IDENTIFIER));
        if (level != null) {
            cfg.put("reader.metrics-level", level);
        }
        LaneASettings.install(cfg);
    }

    /** Runs the 5 × 20 job (five readers) exactly once; the names in its job metrics. */
    private static JobMetrics runAndCollectMetrics(String runId) throws Exception {
        long jobId =
                ManagedJobs.finish5x20ExactlyOnce(
                        zeta, ManagedJobs.bounded5x20(JOB_NAME, runId), runId, BOUND);
        return zeta.coordinator().getJobMetrics(jobId);
    }

    @Test
    void byDefaultReadersRegisterTheBasicSetOnly() throws Exception {
        install(null);
        JobMetrics metrics = runAndCollectMetrics("metrics-level-basic");
        assertEquals(List.of(1L), values(metrics, "ManagedSourceLaneA"), "ran on Lane A");
        for (String name : BASIC) {
            assertFalse(values(metrics, name).isEmpty(), name + " in the job's metrics");
        }
        assertEquals(
                List.of(100L),
                List.of(
                        values(metrics, "ManagedSourcePollRecords").stream()
                                .mapToLong(v -> v)
                                .sum()),
                "the basic set still counts every row");
        for (String name : DETAILED) {
            assertTrue(values(metrics, name).isEmpty(), name + " is DETAILED only");
        }
    }

    @Test
    void detailedAddsTheRest() throws Exception {
        install("DETAILED");
        JobMetrics metrics = runAndCollectMetrics("metrics-level-detailed");
        for (String name : BASIC) {
            assertFalse(values(metrics, name).isEmpty(), name + " in the job's metrics");
        }
        for (String name : DETAILED) {
            assertFalse(values(metrics, name).isEmpty(), name + " registered at DETAILED");
        }
    }

    private static List<Long> values(JobMetrics metrics, String name) {
        List<Long> values = new java.util.ArrayList<>();
        for (Measurement m : metrics.get(name)) {
            values.add(((Number) m.getValue()).longValue());
        }
        return values;
    }
}
