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

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The adaptive poll linger ({@code reader.wake-budget}, {@code reader.poll-linger} left at 0) on a
 * real engine: the member's count of Lane A readers reaches every reader loop, so with a budget of
 * 10 wake-ups a second even one reader lingers at the cap (100 ms), rows that trickle in leave in a
 * few larger turns, and the bounded job finishes with every row exactly once. With the budget at 0
 * (the same job in {@link LaneAPollLingerTest}'s shape without a linger) every row takes a turn.
 */
class LaneAAdaptiveLingerTest {
    private static final String JOB_NAME = "lane-a-adaptive-linger";
    private static EmbeddedZeta zeta;

    @BeforeAll
    static void startEngine() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME));
        cfg.put("allowed-connectors", Arrays.asList(ManagedFakeSource.IDENTIFIER));
        cfg.put("reader.wake-budget", 10);
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("lane-a-adaptive-linger", 22830).start();
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    @Test
    void aSmallWakeBudgetCoalescesTricklingRowsIntoFewTurnsEachRowOnce() throws Exception {
        LaneAPollLingerTest.tricklingRowsLeaveInFewTurnsEachOnce(
                zeta, JOB_NAME, "lane-a-adaptive-linger", "LaneAAdaptiveLingerTest");
    }
}
