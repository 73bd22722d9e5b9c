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

import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.engine.managed.source.config.LaneFallback;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion;

/**
 * Chooses the lane of one source when a job is planned: the global switch, then the per-job and
 * per-connector allowlists (exact names, or "*"), then the connector's capability. Existing
 * connectors stay on Lane B unless every check passes.
 *
 * <p>Threading: stateless, any thread.
 */
public final class LaneSelector {
    public static final String WILDCARD = "*";

    private LaneSelector() {}

    /**
     * @param capability null when the connector has no managed reader
     * @throws IllegalArgumentException when the job is allowlisted, the connector is ineligible and
     *     {@code ineligible-fallback} is FAIL
     */
    public static LaneDecision decide(
            ManagedSourceConfig config,
            String jobName,
            String connector,
            ManagedSourceCapability capability) {
        return decide(config, jobName, connector, capability, "");
    }

    /**
     * As {@link #decide(ManagedSourceConfig, String, String, ManagedSourceCapability)}, on a host
     * that may refuse Lane A.
     *
     * @param hostRefusal empty when the engine hosting the runtime supports Lane A, else why not
     *     (an engine version the binding was not built for): an allowlisted job then runs on Lane
     *     B, whatever {@code ineligible-fallback} says, as the stock engine would run it
     */
    public static LaneDecision decide(
            ManagedSourceConfig config,
            String jobName,
            String connector,
            ManagedSourceCapability capability,
            String hostRefusal) {
        if (!config.enabled()) {
            return laneB(LaneReason.DISABLED, "seatunnel.engine.managed-source.enabled is false");
        }
        if (!allowed(config.allowedJobs(), jobName)) {
            return laneB(LaneReason.JOB_NOT_ALLOWED, "job is not in managed-source.allowed-jobs");
        }
        if (!allowed(config.allowedConnectors(), connector)) {
            return laneB(
                    LaneReason.CONNECTOR_NOT_ALLOWED,
                    "connector " + connector + " is not in managed-source.allowed-connectors");
        }
        if (!hostRefusal.isEmpty()) {
            return laneB(LaneReason.ENGINE_UNSUPPORTED, hostRefusal);
        }
        String why =
                capability == null
                        ? "connector " + connector + " has no managed reader capability"
                        : capability.laneAIneligibilityReason(ProtocolVersion.MAJOR);
        if (!why.isEmpty()) {
            if (config.fallback() == LaneFallback.FAIL) {
                throw new IllegalArgumentException(
                        "Job is allowlisted for Lane A but connector "
                                + connector
                                + " is not eligible ("
                                + why
                                + ") and managed-source.ineligible-fallback is FAIL");
            }
            return laneB(
                    LaneReason.CONNECTOR_INELIGIBLE, "connector not eligible for Lane A: " + why);
        }
        return new LaneDecision(
                        Lane.A,
                        capability.digest(),
                        capability.restorableDigests(),
                        ProtocolVersion.MAJOR,
                        ProtocolVersion.MINOR,
                        "enabled, job and connector allowlisted, capability eligible")
                .because(LaneReason.ELIGIBLE);
    }

    private static LaneDecision laneB(LaneReason code, String reason) {
        return new LaneDecision(Lane.B, "", ProtocolVersion.MAJOR, ProtocolVersion.MINOR, reason)
                .because(code);
    }

    private static boolean allowed(java.util.Set<String> allowlist, String name) {
        return allowlist.contains(WILDCARD) || (name != null && allowlist.contains(name));
    }
}
