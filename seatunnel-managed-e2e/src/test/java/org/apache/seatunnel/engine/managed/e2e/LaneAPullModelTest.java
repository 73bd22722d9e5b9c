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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * A pull-model connector on a real engine: its enumerator assigns a split only when a reader asks,
 * and its reader asks with {@code context.sendSplitRequest()} from inside its poll turns whenever
 * it has no split; each reader also sends a source event from {@code open()}, before its attempt
 * registered. On Lane A the bounded job finishes with every row exactly once, every event arrives
 * once, and no request call waited for the enumerator's handling: the request is a command on the
 * reader attempt's own transport lane. The same job on Lane B finishes too, but there each call
 * blocks the reader until the enumerator has handled it — which the probe detects, so the Lane A
 * check can fail.
 */
class LaneAPullModelTest {
    private static final int SPLITS = 6;
    private static final long ROWS = 500;
    private static LaneAHarness harness;

    @BeforeAll
    static void start() {
        harness = LaneAHarness.start("lane-a-pull-model", 24510);
    }

    @AfterAll
    static void stop() {
        if (harness != null) {
            harness.close();
        }
    }

    private static List<String> expectedKeys() {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < SPLITS; s++) {
            for (long n = 0; n < ROWS; n++) {
                keys.add(RowKeys.ofFields(s, n));
            }
        }
        return keys;
    }

    private static ManagedJob job(String probe) {
        return ManagedJob.source(PullSource.IDENTIFIER)
                .option("splits", SPLITS)
                .option("rows-per-split", ROWS)
                .option("probe", probe)
                .parallelism(2);
    }

    @Test
    void splitsRequestedFromInsidePollTurnsAreReadExactlyOnceWithoutBlockingTheLoop() {
        String probeName = "pull-a-" + System.nanoTime();
        PullProbe probe = PullProbe.of(probeName);
        try {
            harness.runBounded(job(probeName)).assertFinishedExactlyOnce(expectedKeys());
            System.out.printf(
                    "[LaneAPullModelTest] Lane A: %d requests handled, %d splits assigned,"
                            + " calls returned %d/%d, blocked calls %d%n",
                    probe.requestsHandled.get(),
                    probe.splitsAssigned.get(),
                    probe.callsReturned(0),
                    probe.callsReturned(1),
                    probe.blockedCalls.get());
            assertEquals(SPLITS, probe.splitsAssigned.get(), "every split went out on request");
            assertTrue(
                    probe.requestsHandled.get() >= SPLITS + 2,
                    "one request per split, and one per reader answered with no-more-splits");
            assertEquals(0, probe.blockedCalls.get(), "no request call waited for its handling");
            assertEquals(
                    "{0=1, 1=1}",
                    String.valueOf(new java.util.TreeMap<>(probe.eventsBySubtask)),
                    "each reader's event from open() reached the enumerator once");
        } finally {
            PullProbe.clear(probeName);
        }
    }

    @Test
    void onLaneBTheEnginesOwnRequestCallBlocksTheReader() {
        String probeName = "pull-b-" + System.nanoTime();
        PullProbe probe = PullProbe.of(probeName);
        try {
            harness.runBounded(job(probeName), Lane.B).assertFinishedExactlyOnce(expectedKeys());
            System.out.printf(
                    "[LaneAPullModelTest] Lane B: %d requests handled, blocked calls %d%n",
                    probe.requestsHandled.get(), probe.blockedCalls.get());
            assertTrue(
                    probe.blockedCalls.get() > 0,
                    "the detector sees the stock path's blocking request call");
        } finally {
            PullProbe.clear(probeName);
        }
    }
}
