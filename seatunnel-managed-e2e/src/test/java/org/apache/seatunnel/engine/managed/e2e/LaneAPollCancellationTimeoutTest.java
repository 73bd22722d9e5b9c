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
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Lane A reader that blocks in a poll turn past {@code poll.cancellation-timeout} fails its job
 * on a real engine with an error, as the master reports it, that names the connector, the subtask
 * and {@code POLL_CANCELLATION_TIMEOUT}; the healthy reader, interrupted inside its own turns by
 * the engine's restart and cancel, ends as a cancel and is never reported as a connector failure.
 */
class LaneAPollCancellationTimeoutTest {
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String JOB_NAME = "lane-a-poll-timeout";
    private static final int BLOCKED_SUBTASK = 0;
    private static EmbeddedZeta zeta;
    private static LogCapture logs;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put("allowed-connectors", Arrays.asList(SafetyNetSource.IDENTIFIER));
        // Long turns, so the healthy reader is mostly inside one when the engine interrupts it.
        cfg.put("poll.soft-duration", "200ms");
        cfg.put("poll.hard-duration", "300ms");
        cfg.put("poll.cancellation-timeout", "1s");
        LaneASettings.install(cfg);
        logs = LogCapture.attach("org.apache.seatunnel.engine.managed");
        zeta = EmbeddedZeta.builder("lane-a-poll-timeout", 22620).start();
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

    private static String job(String runId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 2\n"
                + "  checkpoint.interval = 500\n"
                // One restart, then the job fails: both the restart and the final cancel
                // interrupt the healthy reader.
                + "  job.retry.times = 1\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \""
                + SafetyNetSource.IDENTIFIER
                + "\"\n"
                + "    job-name = \""
                + JOB_NAME
                + "\"\n"
                + "    split.count = 2\n"
                + "    rows.per.split = 1000000\n"
                + "    bounded = false\n"
                + "    behaviour = \"block\"\n"
                + "    block.subtask = "
                + BLOCKED_SUBTASK
                + "\n"
                + "    row.arrival.millis = 20\n"
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
    void aTurnPastTheCancellationTimeoutIsTheJobsErrorAndNoOtherReaderIsAConnectorFailure()
            throws Exception {
        RuntimeStats.reset();
        String runId = "lane-a-poll-timeout";
        long jobId = zeta.submit(job(runId));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        JobResult result = zeta.awaitResult(jobId, done, BOUND);
        String error = String.valueOf(result.getError());
        System.out.printf(
                "[LaneAPollCancellationTimeoutTest] %s, readers opened %d, error head: %s%n",
                result.getStatus(),
                RuntimeStats.readersOpened(),
                error.substring(0, Math.min(300, error.length())));

        assertEquals(JobStatus.FAILED, result.getStatus());
        assertTrue(error.contains("POLL_CANCELLATION_TIMEOUT"), error);
        assertTrue(error.contains("connector " + SafetyNetSource.IDENTIFIER), error);
        assertTrue(error.contains("subtask " + BLOCKED_SUBTASK), error);
        assertFalse(error.contains("CONNECTOR_FAILURE"), error);
        // Before the fix the job reported the checkpoint admission error of the failed reader.
        assertFalse(error.contains("TARGET_TERMINATED"), error);
        assertTrue(RuntimeStats.readersOpened() >= 4, "the job restarted once before failing");
        assertTrue(CollectedRows.of(runId).writtenCount() > 0, "the healthy reader read rows");
        CollectedRows.clear(runId);

        List<String> connectorFailures =
                logs.lines().stream()
                        .filter(l -> l.contains("CONNECTOR_FAILURE"))
                        .collect(Collectors.toList());
        assertTrue(connectorFailures.isEmpty(), connectorFailures.toString());
        List<String> cancelled =
                logs.lines().stream()
                        .filter(l -> l.contains("terminated: TerminalSignal{CANCEL"))
                        .collect(Collectors.toList());
        System.out.printf(
                "[LaneAPollCancellationTimeoutTest] reader attempts ended as a cancel: %d%n",
                cancelled.size());
    }
}
