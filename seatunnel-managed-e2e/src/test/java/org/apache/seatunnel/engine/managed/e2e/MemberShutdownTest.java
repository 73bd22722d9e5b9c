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
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A member that shuts down while a Lane A job runs on it (coordinator and readers) closes the
 * connector's enumerator exactly once and every reader, without an ERROR from the runtime: the
 * member service closes its coordinators on their own loops before it stops the loop threads.
 */
class MemberShutdownTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB = "member-shutdown";

    @AfterEach
    void uninstall() {
        LaneASettings.clear();
    }

    private static String job(String runId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 2\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + SchedulerSpiSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + JOB
                + "\"\n"
                + "    run.id = \""
                + runId
                + "\"\n"
                + "    split.count = 4\n"
                + "    bounded = false\n"
                + "    rows.per.second = 200\n"
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
    void memberShutdownClosesTheEnumeratorOnceAndEveryReaderQuietly() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB));
        cfg.put("allowed-connectors", Arrays.asList(SchedulerSpiSource.IDENTIFIER));
        LaneASettings.install(cfg);
        String runId = "member-shutdown-1";
        SchedulerSpiProbe.clear(runId);
        RuntimeStats.reset();
        EmbeddedZeta zeta = EmbeddedZeta.builder("member-shutdown", 22710).start();
        try (LogCapture log = LogCapture.attach("org.apache.seatunnel.engine.managed.source")) {
            try {
                zeta.submit(job(runId));
                await().atMost(BOUND).until(() -> CollectedRows.of(runId).written().size() > 50);
                assertEquals(2, RuntimeStats.readersLive(), "both readers run on Lane A");
            } finally {
                zeta.close();
            }

            SchedulerSpiProbe probe = SchedulerSpiProbe.of(runId);
            assertEquals(1, probe.enumeratorCloses.get(), "the connector's enumerator closed once");
            // The engine closes each reader on its task thread once the shutdown interrupted it,
            // which can be just after zeta.close() returned (seen on CI): bounded, not instant.
            await().atMost(BOUND)
                    .untilAsserted(
                            () ->
                                    assertEquals(
                                            0,
                                            RuntimeStats.readersLive(),
                                            "every Lane A reader closed"));
            List<String> errors = log.matching(Level.ERROR, "");
            assertEquals(List.of(), errors, "no ERROR from the runtime at member shutdown");
            assertTrue(
                    log.matching(Level.WARN, "refused the drain").isEmpty(),
                    log.lines().toString());
        } finally {
            CollectedRows.clear(runId);
            SchedulerSpiProbe.clear(runId);
        }
    }
}
