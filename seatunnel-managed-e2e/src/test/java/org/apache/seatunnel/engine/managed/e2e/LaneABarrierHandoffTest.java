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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeFaults;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.zeta.RuntimeStats;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Barrier handoff and output-aware turns on a real engine, each through a restore: the coordinator
 * announces every checkpoint to its readers, which step aside for the barrier (counted as
 * handoffs); with a sink capped at 2,000 rows/s per writer the readers' turns end when the queue to
 * the sink holds its in-flight bound (counted as output-blocked time) instead of blocking in the
 * engine's collector. In both, an injected reader failure restores the pipeline from the last
 * checkpoint, and at the sink the committed rows are, per split, seq 0..k-1 exactly once and in
 * order.
 */
class LaneABarrierHandoffTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-handoff";
    private static final int SPLITS = 4;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(
                List.of(JOB_NAME),
                List.of(ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-handoff", 24310).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    private static String job(String runId, String sourceOptions, long sinkRowsPerSecond) {
        return "env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n"
                + "  checkpoint.interval = 1000\n}\n"
                + "source {\n  Managed {\n    connector = \""
                + ManagedFakeTestingSourceFactory.IDENTIFIER
                + "\"\n    job-name = \""
                + JOB_NAME
                + "\"\n    split.count = "
                + SPLITS
                + "\n    bounded = false\n"
                + sourceOptions
                + "  }\n}\n"
                + "sink {\n  "
                + ThrottledSink.IDENTIFIER
                + " {\n    run.id = \""
                + runId
                + "\"\n    collect = true\n    rows.per.second = "
                + sinkRowsPerSecond
                + "\n  }\n}\n";
    }

    /**
     * Runs the job, waits for the injected reader failure, for the restored readers and for {@code
     * more} committed rows after it, cancels and checks exact, ordered accounting.
     */
    private static CollectedRows runThroughRestore(
            String name, String sourceOptions, long sinkRowsPerSecond, int more) throws Exception {
        String runId = "handoff-" + name;
        String faultId = "lane-a-handoff-" + name + "-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        RuntimeStats.reset();
        long jobId =
                zeta.submit(
                        job(
                                runId,
                                sourceOptions
                                        + "    fault.id = \""
                                        + faultId
                                        + "\"\n    fail.once.at.row = 3000\n",
                                sinkRowsPerSecond));
        await().atMost(BOUND).until(() -> ManagedFakeFaults.fired(faultId + "/reader"));
        int committedAtFailure = rows.committed().size();
        await().atMost(BOUND).until(() -> RuntimeStats.readersOpened() >= 4);
        await().atMost(BOUND).until(() -> rows.committed().size() >= committedAtFailure + more);
        assertEquals(JobStatus.RUNNING, zeta.status(jobId));
        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));

        Map<Integer, Long> perSplit =
                Accounting.assertContiguousExactlyOnce(rows.committed(), SPLITS);
        assertOrderedPerSplit(rows.committed());
        System.out.printf(
                "[LaneABarrierHandoffTest] %s: committed per split %s (%d at failure), written %d,"
                        + " handoffs %d, handoff timeouts %d, output blocked %d ms%n",
                name,
                perSplit,
                committedAtFailure,
                rows.writtenCount(),
                RuntimeStats.total(RuntimeStats.Counter.BARRIER_HANDOFFS),
                RuntimeStats.total(RuntimeStats.Counter.BARRIER_HANDOFF_TIMEOUTS),
                RuntimeStats.total(RuntimeStats.Counter.OUTPUT_BLOCKED_NANOS) / 1_000_000);
        ManagedFakeFaults.clear(faultId);
        return rows;
    }

    /** Per split, the committed seqs appear in increasing order (commit order is write order). */
    private static void assertOrderedPerSplit(List<String> committed) {
        Map<Integer, Long> last = new HashMap<>();
        for (String key : committed) {
            String[] parts = key.substring("fake-".length()).split(":");
            int split = Integer.parseInt(parts[0]);
            long seq = Long.parseLong(parts[1]);
            Long prev = last.put(split, seq);
            assertTrue(
                    prev == null || seq > prev, "split " + split + ": " + seq + " after " + prev);
        }
    }

    @Test
    void announcedBarriersAreHandedOverAndRowsStayExactlyOnceInOrderThroughARestore()
            throws Exception {
        CollectedRows rows =
                runThroughRestore("handoff", "    rows.per.second = 4000\n", 1_000_000, 4000);
        assertTrue(
                RuntimeStats.total(RuntimeStats.Counter.BARRIER_HANDOFFS) > 0,
                "readers stepped aside for announced barriers");
        CollectedRows.clear("handoff-handoff");
        assertTrue(rows.commitCalls() > 0);
    }

    @Test
    void outputAwareTurnsUnderBackpressureKeepRowsExactlyOnceInOrderThroughARestore()
            throws Exception {
        // An unpaced source into a sink capped at 2,000 rows/s per writer: the queue to the sink
        // fills, and turns end at its in-flight bound rather than blocking in the collector.
        runThroughRestore("backpressure", "", 2000, 3000);
        assertTrue(
                RuntimeStats.total(RuntimeStats.Counter.OUTPUT_BLOCKED_NANOS) > 0,
                "readers waited for room outside the checkpoint lock");
        CollectedRows.clear("handoff-backpressure");
    }
}
