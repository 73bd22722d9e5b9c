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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSplit;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.split-window} on a real Zeta 2.3.8 member. A reader whose every split ends holds at
 * most its window of unread splits: each checkpoint the engine stores holds at most that many
 * splits per reader, however many the job has, and the rest wait in the coordinator. A reader whose
 * splits never end is not held to it: it gets every split, however many more than the window.
 */
class LaneASplitWindowTest {
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final String JOB_NAME = "lane-a-split-window";
    private static final int WINDOW = 64;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", List.of(JOB_NAME));
        cfg.put("allowed-connectors", List.of(ManagedFakeSource.IDENTIFIER));
        cfg.put("reader.split-window", WINDOW);
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("lane-a-split-window", 24900).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String mode, String sourceOptions, String runId) {
        return "env {\n  job.mode = \""
                + mode
                + "\"\n  parallelism = 2\n  checkpoint.interval = 300\n}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \""
                + JOB_NAME
                + "\"\n"
                + sourceOptions
                + "  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private static long metric(long jobId, String name) {
        return zeta.jobMetricSum(jobId, name);
    }

    private static int connectorSplits(List<ManagedSplit> state) {
        int n = 0;
        for (ManagedSplit s : state) {
            if (s.kind() == ManagedSplit.Kind.CONNECTOR) {
                n++;
            }
        }
        return n;
    }

    @Test
    void everyStoredReaderStateHoldsAtMostTheWindowAndTheJobReadsEverySplitOnce() throws Exception {
        String runId = "split-window-bounded";
        int splits = 6_000;
        int rows = 5;
        long jobId =
                zeta.submit(
                        job(
                                "BATCH",
                                "    split.count = "
                                        + splits
                                        + "\n    rows.per.split = "
                                        + rows
                                        + "\n    bounded = true\n    rows.per.second = 5000\n",
                                runId));
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        // Every checkpoint stored while the job runs (about 3 s at 5,000 rows/s per reader).
        Set<Long> seen = new HashSet<>();
        int largest = 0;
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (true) {
            CompletedCheckpoint cp = StoredCheckpoints.latest(zeta, jobId, 1);
            if (cp != null && seen.add(cp.getCheckpointId())) {
                for (Map.Entry<Integer, List<ManagedSplit>> e :
                        StoredCheckpoints.readerSplits(cp).entrySet()) {
                    int held = connectorSplits(e.getValue());
                    largest = Math.max(largest, held);
                    assertTrue(
                            held <= WINDOW,
                            "reader "
                                    + e.getKey()
                                    + " stored "
                                    + held
                                    + " splits in checkpoint "
                                    + cp.getCheckpointId()
                                    + ", more than its window "
                                    + WINDOW);
                }
            }
            try {
                done.get(20, TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException running) {
                assertTrue(System.nanoTime() < deadline, "job did not end within " + BOUND);
            }
        }
        JobResult result = done.get();
        assertEquals(JobStatus.FINISHED, result.getStatus(), "error: " + result.getError());
        assertTrue(seen.size() >= 3, "checkpoints seen while running: " + seen);
        assertTrue(largest > 0, "the readers held splits at the checkpoints seen");
        assertTrue(
                metric(jobId, "ManagedSourceSplitWindowWaits") > 0,
                "the coordinator held splits back at the window");

        Map<String, Integer> counts = CollectedRows.multiset(CollectedRows.of(runId).written());
        assertEquals(splits * rows, counts.size(), "every row");
        for (int n = 0; n < splits; n++) {
            for (long seq = 0; seq < rows; seq++) {
                Integer c = counts.get(ManagedFakeRows.payload(n, seq));
                assertEquals(1, c == null ? 0 : c, "split " + n + " row " + seq);
            }
        }
        CollectedRows.clear(runId);
        System.out.printf(
                "[LaneASplitWindowTest] %d splits, window %d: %d checkpoints seen, at most %d"
                        + " splits in a reader's state%n",
                splits, WINDOW, seen.size(), largest);
    }

    @Test
    void aReaderOfEndlessSplitsGetsThemAllEvenBeyondTheWindow() throws Exception {
        String runId = "split-window-endless";
        int splits = 3 * WINDOW;
        long jobId =
                zeta.submit(
                        job(
                                "STREAMING",
                                "    split.count = "
                                        + splits
                                        + "\n    bounded = false\n    rows.per.second = 2000\n",
                                runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        CollectedRows rows = CollectedRows.of(runId);
        // Every split, endless as it is, yields its first row: no split waits for a window.
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            Set<String> written = new HashSet<>(rows.written());
                            for (int n = 0; n < splits; n++) {
                                if (!written.contains(ManagedFakeRows.payload(n, 0))) {
                                    return false;
                                }
                            }
                            return true;
                        });
        assertEquals(0, metric(jobId, "ManagedSourceSplitWindowWaits"), "not held to a window");
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        CollectedRows.clear(runId);
    }
}
