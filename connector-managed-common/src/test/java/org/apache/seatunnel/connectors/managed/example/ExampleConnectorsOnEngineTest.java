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

package org.apache.seatunnel.connectors.managed.example;

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example connectors run on a real embedded Zeta 2.3.8 engine, on Lane A and on Lane B, each
 * job FINISHED with every row committed exactly once: the tutorial's range source (on the managed
 * reader base) and the counting source (a connector-common split reader and emitter through the
 * adapter).
 */
class ExampleConnectorsOnEngineTest {
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("example-connectors", 21910);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static List<String> numbers(int splits, long perSplit) {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            for (long n = 0; n < perSplit; n++) {
                keys.add(RowKeys.ofFields(s, n));
            }
        }
        return keys;
    }

    @Test
    void theTutorialRangeSourceRunsOnBothLanes() {
        ManagedJob job =
                ManagedJob.source("ManagedRange")
                        .option("splits", 4)
                        .option("rows-per-split", 2500)
                        .parallelism(2);
        harness.runBounded(job).assertFinishedExactlyOnce(numbers(4, 2500));
        harness.runBounded(job, Lane.B).assertFinishedExactlyOnce(numbers(4, 2500));
    }

    @Test
    void aConnectorCommonReaderRunsOnBothLanesThroughTheAdapter() {
        ManagedJob job =
                ManagedJob.source("ManagedCounting")
                        .option("splits", 3)
                        .option("per-split", 1000)
                        .parallelism(2);
        harness.runBounded(job).assertFinishedExactlyOnce(numbers(3, 1000));
        harness.runBounded(job, Lane.B).assertFinishedExactlyOnce(numbers(3, 1000));
    }
}
