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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Lane A reader whose {@code isAvailable()} future never completes, while its data arrives on its
 * own fetch thread, still finishes its bounded job on a real engine: the runtime polls it after
 * every command and every {@code reader.idle-wait}, and warns once per reader attempt that its
 * availability was not signalled, naming the connector, the job and the subtask.
 */
class LaneAAvailabilityNotSignalledTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-unsignalled";
    private static EmbeddedZeta zeta;
    private static LogCapture logs;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put("allowed-connectors", Arrays.asList(SafetyNetSource.IDENTIFIER));
        cfg.put("reader.idle-wait", "100ms");
        LaneASettings.install(cfg);
        logs = LogCapture.attach("org.apache.seatunnel.engine.managed");
        zeta = EmbeddedZeta.builder("lane-a-unsignalled", 22610).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        if (logs != null) {
            logs.close();
        }
        LaneASettings.clear();
    }

    @Test
    void aReaderThatNeverSignalsAvailabilityFinishesAndIsReportedOncePerAttempt() throws Exception {
        RuntimeStats.reset();
        String runId = "lane-a-unsignalled";
        long jobId =
                ManagedJobs.finish5x20ExactlyOnce(
                        zeta, ManagedJobs.unsignalled5x20(JOB_NAME, runId), runId, BOUND);

        long attempts = RuntimeStats.readersOpened();
        assertEquals(2, attempts, "one Lane A attempt per subtask, no failover");
        List<String> warnings = logs.matching(Level.WARN, "availability not signalled");
        assertEquals(attempts, warnings.size(), "one warning per reader attempt: " + warnings);
        Set<String> subtasks = new TreeSet<>();
        for (String w : warnings) {
            assertTrue(w.contains("connector " + SafetyNetSource.IDENTIFIER), w);
            assertTrue(w.contains("job " + JOB_NAME + " (" + jobId + ")"), w);
            subtasks.add(w.replaceAll(".*subtask (\\d+).*", "$1"));
        }
        assertEquals(new TreeSet<>(Arrays.asList("0", "1")), subtasks);
        long unsignalled = RuntimeStats.total(RuntimeStats.Counter.AVAILABILITY_NOT_SIGNALLED);
        assertTrue(unsignalled >= attempts, "counted every time: " + unsignalled);
        System.out.printf(
                "[LaneAAvailabilityNotSignalledTest] FINISHED, 100 rows once, %d warnings,"
                        + " ManagedSourceAvailabilityNotSignalled %d%n",
                warnings.size(), unsignalled);
    }
}
