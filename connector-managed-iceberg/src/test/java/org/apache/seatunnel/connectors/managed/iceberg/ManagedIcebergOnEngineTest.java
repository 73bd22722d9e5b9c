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

package org.apache.seatunnel.connectors.managed.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ManagedIceberg on a real embedded Zeta engine over real Hadoop-catalog tables, bounded jobs with
 * exact row accounting in the testkit's exactly-once sink, on Lane A and on Lane B.
 */
class ManagedIcebergOnEngineTest {
    @TempDir static Path warehouse;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("managed-iceberg-engine", 26500);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    static ManagedJob icebergJob(String name, IcebergTestTable t, int parallelism) {
        ManagedJob job =
                ManagedJob.source(ManagedIcebergSourceFactory.IDENTIFIER)
                        .name(name)
                        .parallelism(parallelism);
        for (Map.Entry<String, Object> e : t.options().entrySet()) {
            job.option(e.getKey(), e.getValue());
        }
        return job;
    }

    @Test
    void boundedJobOverATableOfManySnapshotsReadsEveryRowOnceOnLaneA() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "bounded_many")) {
            for (int i = 0; i < 20; i++) {
                t.append(1 + i % 3, 50);
            }
            t.appendEmpty();
            // Few pending splits at a time: the 40 files go out in chunks.
            RunResult run =
                    harness.runBounded(
                            icebergJob("iceberg-bounded", t, 2)
                                    .option("discovery.max-pending-splits", 7)
                                    .option("discovery.interval-ms", 50));
            assertEquals(JobStatus.FINISHED, run.status(), run.error());
            run.assertFinishedExactlyOnce(t.keys());
            assertTrue(run.laneAReadersOpened() >= 2, run.toString());
        }
    }

    @Test
    void theSameJobRunsOnLaneBExactlyOnce() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "bounded_lane_b")) {
            for (int i = 0; i < 5; i++) {
                t.append(2, 40);
            }
            RunResult run =
                    harness.runBounded(
                            icebergJob("iceberg-bounded-b", t, 2)
                                    .option("discovery.max-pending-splits", 3)
                                    .option("discovery.interval-ms", 50),
                            Lane.B);
            assertEquals(JobStatus.FINISHED, run.status(), run.error());
            run.assertFinishedExactlyOnce(t.keys());
        }
    }
}
