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

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The lane chosen once for one deployment of one source, with what it was chosen from. Recorded in
 * the job plan (it travels inside the planned source) and in every checkpoint; a restore compares
 * against it and never re-chooses silently (invariant 12).
 *
 * <p>Threading: immutable, any thread.
 */
public final class LaneDecision implements Serializable {
    private static final long serialVersionUID = 2L;

    private final Lane lane;
    private final String capabilityDigest;
    private final List<String> restorableDigests;
    private final int protocolMajor;
    private final int protocolMinor;
    private final String reason;
    // Null in decisions made without the selector (tests, older plans): reasonCode() says so.
    private LaneReason reasonCode;

    public LaneDecision(
            Lane lane,
            String capabilityDigest,
            int protocolMajor,
            int protocolMinor,
            String reason) {
        this(
                lane,
                capabilityDigest,
                Collections.singletonList(capabilityDigest == null ? "" : capabilityDigest),
                protocolMajor,
                protocolMinor,
                reason);
    }

    /**
     * @param restorableDigests the digests a checkpoint of this deployment's capability may have
     *     recorded (the current one and those of tested descriptor migrations)
     */
    public LaneDecision(
            Lane lane,
            String capabilityDigest,
            List<String> restorableDigests,
            int protocolMajor,
            int protocolMinor,
            String reason) {
        this.lane = Objects.requireNonNull(lane, "lane");
        this.capabilityDigest = capabilityDigest == null ? "" : capabilityDigest;
        this.restorableDigests = Collections.unmodifiableList(new ArrayList<>(restorableDigests));
        this.protocolMajor = protocolMajor;
        this.protocolMinor = protocolMinor;
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Lane lane() {
        return lane;
    }

    /** Empty on Lane B. */
    public String capabilityDigest() {
        return capabilityDigest;
    }

    public int protocolMajor() {
        return protocolMajor;
    }

    public int protocolMinor() {
        return protocolMinor;
    }

    /** This decision with its reason as a number; called once, by the selector that made it. */
    LaneDecision because(LaneReason code) {
        this.reasonCode = code;
        return this;
    }

    /** Why this lane, as a number for metrics; null when the decision did not record one. */
    public LaneReason reasonCode() {
        return reasonCode;
    }

    /** Operator-readable: why this lane. */
    public String reason() {
        return reason;
    }

    /**
     * Checks a checkpoint's recorded lane and digest against this deployment's decision.
     *
     * @throws IllegalStateException with an operator-readable reason, before execution, when the
     *     checkpoint was taken on another lane or with another capability
     */
    public void verifyRestore(Lane recordedLane, String recordedDigest) {
        if (recordedLane != lane) {
            throw new IllegalStateException(
                    "Refusing to restore: the checkpoint was taken on Lane "
                            + recordedLane
                            + " but this deployment was planned on Lane "
                            + lane
                            + " ("
                            + reason
                            + "). Running tasks never switch lane. Restore with the managed-source"
                            + " settings the checkpoint was taken with, or start from a savepoint"
                            + " taken on Lane "
                            + lane
                            + ".");
        }
        if (lane == Lane.A && !restorableDigests.contains(recordedDigest)) {
            throw new IllegalStateException(
                    "Refusing to restore: the checkpoint's capability digest "
                            + recordedDigest
                            + " differs from the installed connector's "
                            + capabilityDigest
                            + "; no tested migration exists between them. Restore with the"
                            + " connector version that took the checkpoint.");
        }
    }

    @Override
    public String toString() {
        return "LaneDecision{lane="
                + lane
                + ", digest="
                + capabilityDigest
                + ", protocol="
                + protocolMajor
                + '.'
                + protocolMinor
                + ", reason="
                + reason
                + '}';
    }
}
