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

package org.apache.seatunnel.engine.managed.source.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.junit.jupiter.api.Test;

/** Existing connectors stay on Lane B unless every check passes; restores never switch lane. */
class LaneSelectorTest {
    private static final ManagedSourceCapability CAPABLE =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    private static ManagedSourceConfig config(boolean enabled, String fallback) {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", enabled);
        m.put("allowed-jobs", Arrays.asList("orders"));
        m.put("allowed-connectors", Arrays.asList("ManagedFake"));
        m.put("ineligible-fallback", fallback);
        return ManagedSourceConfig.fromMap(m);
    }

    @Test
    void everyDecisionCarriesTheNumberedReasonOfItsBranch() {
        ManagedSourceConfig on = config(true, "LANE_B");
        assertEquals(
                LaneReason.DISABLED,
                LaneSelector.decide(config(false, "LANE_B"), "orders", "ManagedFake", CAPABLE)
                        .reasonCode());
        assertEquals(
                LaneReason.JOB_NOT_ALLOWED,
                LaneSelector.decide(on, "other", "ManagedFake", CAPABLE).reasonCode());
        assertEquals(
                LaneReason.CONNECTOR_NOT_ALLOWED,
                LaneSelector.decide(on, "orders", "Jdbc", CAPABLE).reasonCode());
        assertEquals(
                LaneReason.CONNECTOR_INELIGIBLE,
                LaneSelector.decide(on, "orders", "ManagedFake", null).reasonCode());
        assertEquals(
                LaneReason.ELIGIBLE,
                LaneSelector.decide(on, "orders", "ManagedFake", CAPABLE).reasonCode());
        for (LaneReason r : LaneReason.values()) {
            assertEquals(r, LaneReason.ofCode(r.code()));
        }
    }

    /**
     * An engine the runtime was not built for keeps allowlisted jobs on Lane B, also with {@code
     * ineligible-fallback: FAIL}; the kill switch and the allowlists still come first.
     */
    @Test
    void aHostRefusalKeepsAllowlistedJobsOnLaneB() {
        String why = "built for SeaTunnel Zeta 2.3.8 and the engine is 2.3.9";
        LaneDecision d =
                LaneSelector.decide(config(true, "FAIL"), "orders", "ManagedFake", CAPABLE, why);
        assertEquals(Lane.B, d.lane());
        assertEquals(LaneReason.ENGINE_UNSUPPORTED, d.reasonCode());
        assertTrue(d.reason().contains(why), d.reason());
        assertEquals(
                LaneReason.DISABLED,
                LaneSelector.decide(config(false, "LANE_B"), "orders", "ManagedFake", CAPABLE, why)
                        .reasonCode());
        assertEquals(
                LaneReason.JOB_NOT_ALLOWED,
                LaneSelector.decide(config(true, "LANE_B"), "other", "ManagedFake", CAPABLE, why)
                        .reasonCode());
    }

    @Test
    void killSwitchOffKeepsEveryJobOnLaneB() {
        LaneDecision d =
                LaneSelector.decide(config(false, "LANE_B"), "orders", "ManagedFake", CAPABLE);
        assertEquals(Lane.B, d.lane());
        assertTrue(d.reason().contains("enabled is false"), d.reason());
    }

    @Test
    void jobOrConnectorNotAllowlistedStaysOnLaneB() {
        assertEquals(
                Lane.B,
                LaneSelector.decide(config(true, "LANE_B"), "other", "ManagedFake", CAPABLE)
                        .lane());
        assertEquals(
                Lane.B,
                LaneSelector.decide(config(true, "LANE_B"), "orders", "Jdbc", CAPABLE).lane());
    }

    @Test
    void allowlistedAndCapableRunsOnLaneAWithTheDigestRecorded() {
        LaneDecision d =
                LaneSelector.decide(config(true, "LANE_B"), "orders", "ManagedFake", CAPABLE);
        assertEquals(Lane.A, d.lane());
        assertEquals(CAPABLE.digest(), d.capabilityDigest());
    }

    @Test
    void wildcardAllowsEveryName() {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", true);
        m.put("allowed-jobs", Arrays.asList("*"));
        m.put("allowed-connectors", Arrays.asList("*"));
        assertEquals(
                Lane.A,
                LaneSelector.decide(ManagedSourceConfig.fromMap(m), "x", "y", CAPABLE).lane());
    }

    @Test
    void ineligibleConnectorFallsBackOrFailsAsConfigured() {
        assertEquals(
                Lane.B,
                LaneSelector.decide(config(true, "LANE_B"), "orders", "ManagedFake", null).lane());
        ManagedSourceCapability noWakeup =
                ManagedSourceCapability.builder().boundedPoll(true).build();
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                LaneSelector.decide(
                                        config(true, "FAIL"), "orders", "ManagedFake", noWakeup));
        assertTrue(e.getMessage().contains("wakeup"), e.getMessage());
    }

    @Test
    void restoreOnAnotherLaneOrDigestFailsWithAnOperatorReadableReason() {
        LaneDecision a =
                LaneSelector.decide(config(true, "LANE_B"), "orders", "ManagedFake", CAPABLE);
        LaneDecision b =
                LaneSelector.decide(config(false, "LANE_B"), "orders", "ManagedFake", CAPABLE);
        a.verifyRestore(Lane.A, CAPABLE.digest());
        b.verifyRestore(Lane.B, "");
        IllegalStateException lane =
                assertThrows(IllegalStateException.class, () -> b.verifyRestore(Lane.A, "x"));
        assertTrue(lane.getMessage().contains("taken on Lane A"), lane.getMessage());
        IllegalStateException digest =
                assertThrows(
                        IllegalStateException.class, () -> a.verifyRestore(Lane.A, "deadbeef"));
        assertTrue(digest.getMessage().contains("deadbeef"), digest.getMessage());
    }

    @Test
    void aCheckpointWithTheDescriptorVersionOneDigestOfTheSamePromisesRestores() {
        LaneDecision a =
                LaneSelector.decide(config(true, "LANE_B"), "orders", "ManagedFake", CAPABLE);
        // What a Lane A checkpoint recorded for bounded poll + wakeup before descriptor v2.
        a.verifyRestore(Lane.A, "e40c328b76e310ea63d9df82b45d208c");
        assertThrows(
                IllegalStateException.class,
                () -> a.verifyRestore(Lane.A, "61d572e27d0a9bdc68135e15d3ae7d94"),
                "a v1 digest of other promises is refused");
    }
}
