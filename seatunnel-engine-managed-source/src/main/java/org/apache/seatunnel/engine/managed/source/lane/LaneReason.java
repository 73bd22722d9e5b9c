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

/**
 * Why a source runs on the lane it runs on, as a stable number that metrics can carry ({@code
 * ManagedSourceLaneReason}) and operators' tools can name; the full text stays in {@link
 * LaneDecision#reason()} and the planning log.
 */
public enum LaneReason {
    /** Lane A: enabled, job and connector allowlisted, capability eligible. */
    ELIGIBLE(0),
    /** Lane B: {@code managed-source.enabled} is false (the kill switch, or no section). */
    DISABLED(1),
    /** Lane B: the job is not in {@code allowed-jobs}. */
    JOB_NOT_ALLOWED(2),
    /** Lane B: the connector is not in {@code allowed-connectors}. */
    CONNECTOR_NOT_ALLOWED(3),
    /** Lane B: allowlisted, but the connector has no managed reader or another protocol major. */
    CONNECTOR_INELIGIBLE(4),
    /**
     * Lane B: allowlisted, but the engine planning the job is not the engine version this runtime
     * was built for, whose internals its engine binding touches.
     */
    ENGINE_UNSUPPORTED(5);

    private final int code;

    LaneReason(int code) {
        this.code = code;
    }

    /** The number {@code ManagedSourceLaneReason} reports; never reused for another reason. */
    public int code() {
        return code;
    }

    /** The reason of {@code code}, or null for a number this version does not know. */
    public static LaneReason ofCode(long code) {
        for (LaneReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }
}
