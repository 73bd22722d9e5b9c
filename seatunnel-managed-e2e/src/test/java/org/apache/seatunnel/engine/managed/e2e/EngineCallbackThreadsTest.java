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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Observes the stock engine's callbacks on two loopback members: which thread runs each reader and
 * enumerator callback, that the reflection paths of {@link EngineInternals} lead from the contexts
 * to the member a task runs on, that savepoint + restore with the same job id resumes without a
 * duplicate or a gap, and what cancel does to a reader waiting in {@code pollNext}. Prints the
 * observations for ENGINE-NOTES.md.
 */
class EngineCallbackThreadsTest {

    private static final Duration BOUND = Duration.ofSeconds(90);

    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        zeta =
                EmbeddedZeta.builder("engine-callback-threads", 22130)
                        .members(2)
                        .checkpointIntervalMillis(1000)
                        .start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
    }

    private static String job(String probeRun, String sinkRun) {
        return "env {\n"
                + "  job.mode = \"STREAMING\"\n"
                + "  parallelism = 2\n"
                + "  checkpoint.interval = 1000\n"
                + "}\n"
                + "source {\n"
                + "  ManagedProbe {\n"
                + "    run.id = \""
                + probeRun
                + "\"\n"
                + "    split.count = 4\n"
                + "    bounded = false\n"
                + "    rows.per.second = 300\n"
                + "    slow.data.millis = 150\n"
                + "  }\n"
                + "}\n"
                + "sink {\n"
                + "  ManagedCollect {\n"
                + "    run.id = \""
                + sinkRun
                + "\"\n"
                + "  }\n"
                + "}\n";
    }

    @Test
    void callbacksThreadsMembersSavepointRestoreAndCancel() throws Exception {
        String sinkRun = "threads-sink";
        Probe first = Probe.of("threads-1");
        long jobId = zeta.submit(job("threads-1", sinkRun));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND)
                .until(
                        () ->
                                first.sawCallback("Reader.notifyCheckpointComplete")
                                        && zeta.storedCheckpointIds(jobId).size() >= 2);

        zeta.savePoint(jobId, BOUND);
        assertEquals(JobStatus.SAVEPOINT_DONE, zeta.awaitTerminal(jobId, BOUND));
        int committedAtSavepoint = CollectedRows.of(sinkRun).committed().size();

        Probe second = Probe.of("threads-2");
        zeta.assumeRestorable(jobId);
        zeta.submit(jobId, job("threads-2", sinkRun), true);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND)
                .until(
                        () ->
                                second.sawCallback("Reader.notifyCheckpointComplete")
                                        && CollectedRows.of(sinkRun).committed().size()
                                                > committedAtSavepoint);

        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        // Both contexts lead to a real member of this cluster.
        Set<String> memberAddresses = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            memberAddresses.add(zeta.member(i).node.getThisAddress().toString());
        }
        for (Map.Entry<String, String> fact : first.facts().entrySet()) {
            if (fact.getKey().endsWith(".member")) {
                for (String address : fact.getValue().split(" \\| ")) {
                    assertTrue(memberAddresses.contains(address), fact.toString());
                }
            }
        }
        assertTrue(first.facts().containsKey("enumerator.member"));
        assertTrue(first.facts().containsKey("reader[0].member"));
        assertTrue(first.facts().containsKey("reader[1].member"));

        // The restored run got its splits back through addSplitsBack, and nothing was read twice
        // or skipped: per split the committed seqs are exactly 0..k-1.
        assertTrue(second.sawCallback("Source.restoreEnumerator"));
        assertTrue(second.sawCallback("Enumerator.addSplitsBack"));
        List<String> committed = CollectedRows.of(sinkRun).committed();
        Map<String, Integer> counts = CollectedRows.multiset(committed);
        Map<Integer, TreeSet<Long>> seqsBySplit = new TreeMap<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            assertEquals(1, e.getValue(), "committed twice: " + e.getKey());
            String[] parts = e.getKey().substring("fake-".length()).split(":");
            seqsBySplit
                    .computeIfAbsent(Integer.parseInt(parts[0]), k -> new TreeSet<>())
                    .add(Long.parseLong(parts[1]));
        }
        assertEquals(4, seqsBySplit.size());
        for (Map.Entry<Integer, TreeSet<Long>> e : seqsBySplit.entrySet()) {
            assertEquals(e.getValue().size() - 1, e.getValue().last(), "gap in split " + e);
        }

        print("first run (fresh)", first);
        print("second run (restored from savepoint, then canceled)", second);
        System.out.printf(
                "[EngineCallbackThreadsTest] committed rows %d (at savepoint %d), per split %s%n",
                committed.size(),
                committedAtSavepoint,
                seqsBySplit.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue().size())
                        .reduce((a, b) -> a + ", " + b)
                        .orElse(""));
        Probe.clear("threads-1");
        Probe.clear("threads-2");
        CollectedRows.clear(sinkRun);
    }

    private static void print(String title, Probe probe) {
        StringBuilder sb = new StringBuilder("[EngineCallbackThreadsTest] " + title + "\n");
        probe.threads()
                .forEach((k, v) -> sb.append("  ").append(k).append(" : ").append(v).append('\n'));
        probe.facts()
                .forEach(
                        (k, v) ->
                                sb.append("  fact ")
                                        .append(k)
                                        .append(" = ")
                                        .append(v)
                                        .append('\n'));
        System.out.print(sb);
    }
}
