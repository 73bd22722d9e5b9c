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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.managed.testkit.engine.LaneAHarness;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tutorial's discovering source (4 ranges at start, 2 more every 200 ms until 12) on a real
 * embedded Zeta 2.3.8, on Lane A and Lane B: a bounded run, a run whose reader fails once, and a
 * savepoint taken while discovery still runs, restored; each ends with every row committed exactly
 * once.
 */
class GrowingRangeOnEngineTest {
    private static final int RANGES = 12;
    private static final long ROWS = 2000;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("growing-range", 26100);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static List<String> expected() {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < RANGES; s++) {
            for (long n = 0; n < ROWS; n++) {
                keys.add(RowKeys.ofFields(s, n));
            }
        }
        Collections.sort(keys);
        return keys;
    }

    /** How far {@code committed} is from {@link #expected()}, in a line. */
    private static String accounting(List<String> committed) {
        Map<String, Integer> counts = new HashMap<>();
        for (String k : committed) {
            counts.merge(k, 1, Integer::sum);
        }
        int missing = 0;
        int repeated = 0;
        for (String k : expected()) {
            Integer c = counts.remove(k);
            if (c == null) {
                missing++;
            } else {
                repeated += c - 1;
            }
        }
        return "missing " + missing + ", repeated " + repeated + ", unexpected " + counts.size();
    }

    private static ManagedJob job(String connector, String name) {
        return ManagedJob.source(connector)
                .name(name)
                .option("rows-per-split", ROWS)
                .option("discovery.interval-ms", 200)
                .parallelism(2);
    }

    @Test
    void aBoundedRunReadsEveryDiscoveredRangeOnceOnBothLanes() {
        ManagedJob job = job(GrowingRangeSourceFactory.IDENTIFIER, "growing-bounded");
        harness.runBounded(job).assertFinishedExactlyOnce(expected());
        harness.runBounded(job, Lane.B).assertFinishedExactlyOnce(expected());
    }

    @Test
    void aReaderFailureRestoresToExactlyOnceOnBothLanes() {
        for (Lane lane : new Lane[] {Lane.A, Lane.B}) {
            ManagedJob job =
                    job(FailOnceGrowingRangeSourceFactory.IDENTIFIER, "growing-fail-" + lane)
                            .env("checkpoint.interval", 200);
            FailOnceGrowingRangeSourceFactory.ARMED.set(true);
            harness.runBounded(job, lane).assertFinishedExactlyOnce(expected());
            assertFalse(
                    FailOnceGrowingRangeSourceFactory.ARMED.get(),
                    "Lane " + lane + ": the reader failure was injected");
        }
    }

    @Test
    void aSavepointWhileDiscoveryRunsRestoresToExactlyOnceOnBothLanes() throws Exception {
        for (Lane lane : new Lane[] {Lane.A, Lane.B}) {
            savepointAndRestore(lane);
        }
    }

    private static void savepointAndRestore(Lane lane) throws Exception {
        // Slower discovery (12 ranges take about 2 s) so the savepoint lands while it runs.
        ManagedJob job =
                job(GrowingRangeSourceFactory.IDENTIFIER, "growing-savepoint-" + lane)
                        .option("discovery.interval-ms", 500)
                        .env("checkpoint.interval", 200);
        List<String> committed =
                SavepointRun.savepointAndRestore(harness, job, lane, RANGES * ROWS);
        assertEquals(
                "missing 0, repeated 0, unexpected 0",
                accounting(committed),
                "Lane " + lane + ": every row exactly once");
    }
}
