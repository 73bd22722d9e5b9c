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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Zeta 2.3.8 binds a schema-change checkpoint to its source task's schema-change phase only after
 * it released the checkpoint lock, so the checkpoint's end notification can arrive first and leave
 * the phase open: the engine then never polls the reader again. On a real engine this test puts a
 * Lane A reader's task into exactly that state (a phase bound to a checkpoint whose completion and
 * end were both delivered before) and checks that Lane A ends the phase, and that the bounded job
 * then finishes with every row exactly once.
 */
class LaneASchemaChangeEndRepairTest {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String JOB_NAME = "lane-a-schema-end";
    private static final String PHASE =
            "org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle$SchemaChangePhase";
    private static final int SPLITS = 2;
    private static final int ROWS_PER_SPLIT = 2000;
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        LaneASettings.enable(List.of(JOB_NAME), List.of(ManagedFakeSource.IDENTIFIER));
        zeta = EmbeddedZeta.builder("lane-a-schema-end", 24650).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void aSchemaChangePhaseWhoseEndTheEngineLostIsEndedAndTheJobFinishes() throws Exception {
        String runId = "schema-end-" + System.nanoTime();
        CollectedRows rows = CollectedRows.of(runId);
        long jobId =
                zeta.submit(
                        "env {\n  job.mode = \"BATCH\"\n  parallelism = 1\n"
                                + "  checkpoint.interval = 300\n}\n"
                                + "source {\n  Managed {\n    connector = \""
                                + ManagedFakeSource.IDENTIFIER
                                + "\"\n    job-name = \""
                                + JOB_NAME
                                + "\"\n    split.count = "
                                + SPLITS
                                + "\n    rows.per.split = "
                                + ROWS_PER_SPLIT
                                + "\n    bounded = true\n    rows.per.second = 500\n  }\n}\n"
                                + "sink {\n  "
                                + ThrottledSink.IDENTIFIER
                                + " {\n    run.id = \""
                                + runId
                                + "\"\n    collect = true\n    rows.per.second = 1000000\n"
                                + "  }\n}\n");
        zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
        await().atMost(BOUND).until(() -> RuntimeStats.readersLive() == 1);
        await().atMost(BOUND)
                .until(() -> EngineInternals.sourceFlowOf(zeta.server(0), jobId) != null);
        AtomicReference<Object> phaseRef =
                EngineInternals.schemaChangePhaseOf(
                        EngineInternals.sourceFlowOf(zeta.server(0), jobId));
        await().atMost(BOUND).until(() -> latestCompleted(jobId) >= 1);

        // A schema change in progress: the engine stops polling the reader.
        Method create = Class.forName(PHASE).getDeclaredMethod("createAfterPhase");
        create.setAccessible(true);
        Object phase = create.invoke(null);
        phaseRef.set(phase);
        // Checkpoint y completes while the phase is not bound to it yet; once y + 1 completed,
        // y's end notification was delivered too (the engine completes checkpoints one at a
        // time and ends each before it returns). Binding y now leaves the phase as the race does.
        long y = latestCompleted(jobId) + 1;
        await().atMost(BOUND).until(() -> latestCompleted(jobId) >= y + 1);
        Method bind = Class.forName(PHASE).getDeclaredMethod("setCheckpointId", long.class);
        bind.setAccessible(true);
        bind.invoke(phase, y);

        await().atMost(BOUND).until(() -> phaseRef.get() == null);
        assertEquals(JobStatus.FINISHED, zeta.awaitTerminal(jobId, BOUND));
        Map<Integer, Long> perSplit =
                Accounting.assertContiguousExactlyOnce(rows.committed(), SPLITS);
        for (int s = 0; s < SPLITS; s++) {
            assertEquals(ROWS_PER_SPLIT, perSplit.get(s), "split " + s + " read to its end");
        }
        CollectedRows.clear(runId);
    }

    private static long latestCompleted(long jobId) {
        return zeta.latestCompletedCheckpointId(jobId, 1);
    }
}
