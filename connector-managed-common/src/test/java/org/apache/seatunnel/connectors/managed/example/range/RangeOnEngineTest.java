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

package org.apache.seatunnel.connectors.managed.example.range;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example's numbered enumerator ({@code NumberedSplitEnumerator}: ranges computed as readers
 * have room, cursors in the state) on a real embedded Zeta 2.3.8, on Lane A and Lane B: many
 * one-row ranges read exactly once, and a savepoint taken mid-job (its state holds cursors, not
 * ranges) restored to exactly once.
 */
class RangeOnEngineTest {
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("numbered-range", 26120);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static List<String> expected(int splits, long rows) {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            for (long n = 0; n < rows; n++) {
                keys.add(RowKeys.ofFields(s, n));
            }
        }
        Collections.sort(keys);
        return keys;
    }

    private static ManagedJob job(String name, int splits, long rows) {
        return ManagedJob.source(RangeSourceFactory.IDENTIFIER)
                .name(name)
                .option("splits", splits)
                .option("rows-per-split", rows)
                .parallelism(2);
    }

    @Test
    void twentyThousandOneRowRangesAreReadOnceOnBothLanes() {
        ManagedJob job = job("numbered-many", 20_000, 1);
        harness.runBounded(job).assertFinishedExactlyOnce(expected(20_000, 1));
        harness.runBounded(job, Lane.B).assertFinishedExactlyOnce(expected(20_000, 1));
    }

    @Test
    void aSavepointMidJobRestoresToExactlyOnceOnBothLanes() throws Exception {
        for (Lane lane : new Lane[] {Lane.A, Lane.B}) {
            savepointAndRestore(lane);
        }
    }

    private static void savepointAndRestore(Lane lane) throws Exception {
        int splits = 400;
        long rows = 5_000;
        ManagedJob job =
                job("numbered-savepoint-" + lane, splits, rows).env("checkpoint.interval", 200);
        List<String> committed =
                SavepointRun.savepointAndRestore(harness, job, lane, splits * rows);
        Collections.sort(committed);
        // A boolean, not the lists: a failure message of two million keys would not help.
        assertTrue(
                expected(splits, rows).equals(committed),
                "Lane " + lane + ": every row exactly once (" + committed.size() + " committed)");
    }
}
