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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeConfig;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedEnumeratorState;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSplit;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lane A, unbounded, checkpoint every second: at least three checkpoints complete, the checkpoint
 * the engine would restore from holds one runtime-metadata entry per reader subtask (lane A, the
 * planned capability digest, its own checkpoint id) next to the connector splits, the enumerator
 * state records lane A, and a cancel ends the job CANCELED.
 */
class LaneAStreamingCheckpointTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    private static final String JOB_NAME = "lane-a-streaming";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(List.of(JOB_NAME), List.of(ManagedFakeSource.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-streaming", 22310).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void checkpointsCompleteWithRuntimeMetadataAndCancelEndsCanceled() throws Exception {
        RuntimeStats.reset();
        String runId = "lane-a-streaming";
        String job =
                ManagedJobs.streaming(
                        JOB_NAME,
                        "    split.count = 4\n    bounded = false\n    rows.per.second = 200\n",
                        runId);
        long jobId = zeta.submit(job);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        long start = System.nanoTime();
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> zeta.latestCompletedCheckpointId(jobId, 1) >= 3);
        long toThird = (System.nanoTime() - start) / 1_000_000;

        CompletedCheckpoint cp = StoredCheckpoints.latest(zeta, jobId, 1);
        assertNotNull(cp);
        String digest =
                new ManagedFakeSource(ManagedFakeConfig.builder().build())
                        .managedSourceCapability()
                        .digest();
        Map<Integer, SourceRuntimeCheckpointMetadata> meta = StoredCheckpoints.readerMetadata(cp);
        assertEquals(2, meta.size(), "one runtime metadata entry per reader subtask: " + meta);
        for (Map.Entry<Integer, SourceRuntimeCheckpointMetadata> e : meta.entrySet()) {
            SourceRuntimeCheckpointMetadata m = e.getValue();
            assertEquals(Lane.A, m.lane(), "subtask " + e.getKey());
            assertEquals(digest, m.capabilityDigest(), "subtask " + e.getKey());
            assertEquals(cp.getCheckpointId(), m.lastBarrierCheckpointId(), "subtask " + e);
            assertEquals(1, m.readerAttemptLineage().size(), "subtask " + e);
        }
        // The connector's own splits travel next to the metadata: 4 splits over 2 readers.
        int connectorSplits = 0;
        for (List<ManagedSplit> splits : StoredCheckpoints.readerSplits(cp).values()) {
            for (ManagedSplit s : splits) {
                if (s.kind() == ManagedSplit.Kind.CONNECTOR) {
                    connectorSplits++;
                }
            }
        }
        assertEquals(4, connectorSplits, "connector splits in the checkpoint");
        List<ManagedEnumeratorState> enumerators = StoredCheckpoints.enumeratorStates(cp);
        assertEquals(1, enumerators.size());
        assertEquals(Lane.A, enumerators.get(0).lane());
        assertEquals(digest, enumerators.get(0).capabilityDigest());
        assertEquals(cp.getCheckpointId(), enumerators.get(0).checkpointId());

        CollectedRows rows = CollectedRows.of(runId);
        // Rate-limited data keeps flowing between checkpoints (400 rows/s over both readers).
        await().atMost(BOUND).until(() -> rows.committed().size() >= 400);
        assertEquals(2, RuntimeStats.readersOpened(), "both readers ran on Lane A");
        assertTrue(RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS) >= 2 * 3);

        zeta.cancel(jobId, BOUND);
        assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
        for (Map.Entry<String, Integer> e : CollectedRows.multiset(rows.committed()).entrySet()) {
            assertEquals(1, e.getValue(), "committed twice: " + e.getKey());
        }
        long[] waits = RuntimeStats.barrierWaitsSorted();
        System.out.printf(
                "[LaneAStreamingCheckpointTest] 3 checkpoints %d ms after RUNNING; latest %d;"
                        + " rows written %d; barrier waits n=%d max=%d us%n",
                toThird,
                cp.getCheckpointId(),
                rows.writtenCount(),
                waits.length,
                waits.length == 0 ? 0 : waits[waits.length - 1] / 1000);
        CollectedRows.clear(runId);
    }
}
