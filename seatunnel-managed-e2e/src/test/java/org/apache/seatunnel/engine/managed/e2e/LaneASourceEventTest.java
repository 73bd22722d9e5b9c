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
import java.util.TreeMap;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeFaults;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Enumerator-to-reader source events on a real engine: ManagedFake's enumerator sends one event to
 * each reader after it registers. On Lane A every reader receives exactly its own event (over the
 * managed transport, encoded by the connector's versioned event serializer); on Lane B the stock
 * engine drops it, which is today's behaviour.
 */
class LaneASourceEventTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-a-source-event";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta = EmbeddedZeta.builder("lane-a-source-event", 22350).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @AfterEach
    void uninstall() {
        LaneASettings.clear();
    }

    private static void install(boolean enabled) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", enabled);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(
                        ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        LaneASettings.install(cfg);
    }

    private static String job(String runId, String eventRunId) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 2\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  Managed {\n"
                + "    connector = \"ManagedFakeTesting\"\n"
                + "    job-name = \""
                + JOB_NAME
                + "\"\n"
                + "    split.count = 4\n"
                + "    bounded = false\n"
                + "    rows.per.second = 300\n"
                + "    source.event.run.id = \""
                + eventRunId
                + "\"\n"
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
    void enumeratorEventReachesEveryReaderOnLaneA() throws Exception {
        install(true);
        RuntimeStats.reset();
        String eventRun = "source-event-a-" + System.nanoTime();
        String runId = "source-event-a";
        long jobId = zeta.submit(job(runId, eventRun));
        long start = System.nanoTime();
        await().atMost(BOUND).until(() -> ManagedFakeFaults.eventsReceived(eventRun).size() >= 2);
        long millis = (System.nanoTime() - start) / 1_000_000;
        // Rows keep flowing after the event, and each reader got exactly its own event once.
        CollectedRows rows = CollectedRows.of(runId);
        await().atMost(BOUND).until(() -> rows.committed().size() >= 100);
        Map<Integer, Integer> expected = new TreeMap<>();
        expected.put(0, 1);
        expected.put(1, 1);
        assertEquals(expected, ManagedFakeFaults.eventsReceived(eventRun));
        assertEquals(2, RuntimeStats.readersOpened(), "the job ran on Lane A");
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        System.out.printf(
                "[LaneASourceEventTest] Lane A: events %s received %d ms after submit%n",
                ManagedFakeFaults.eventsReceived(eventRun), millis);
        ManagedFakeFaults.clear(eventRun);
        CollectedRows.clear(runId);
    }

    @Test
    void stockEngineDropsTheEventOnLaneB() throws Exception {
        install(false);
        RuntimeStats.reset();
        String eventRun = "source-event-b-" + System.nanoTime();
        String runId = "source-event-b";
        long jobId = zeta.submit(job(runId, eventRun));
        CollectedRows rows = CollectedRows.of(runId);
        // Both readers got their splits (assigned in registerReader, before the event was sent)
        // and a checkpoint completed after registration.
        await().atMost(BOUND).until(() -> rows.committed().size() >= 100);
        assertEquals(0, RuntimeStats.readersOpened(), "the job ran on Lane B");
        assertTrue(ManagedFakeFaults.eventsReceived(eventRun).isEmpty(), "Lane B drops events");
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        ManagedFakeFaults.clear(eventRun);
        CollectedRows.clear(runId);
    }
}
