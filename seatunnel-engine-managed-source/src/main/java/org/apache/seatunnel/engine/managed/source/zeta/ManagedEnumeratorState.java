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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.Serializable;
import java.util.Objects;
import org.apache.seatunnel.engine.managed.source.lane.Lane;

/**
 * The wrapper's enumerator checkpoint: the lane and capability digest it was taken with, the
 * checkpoint id, and the coordinator's one-cut blob (connector enumerator state and assignment
 * tracker together). {@link Serializable} only because the SPI's type bound demands it; it is
 * always written by {@link ManagedEnumeratorStateSerializer}.
 *
 * <p>Threading: immutable, any thread.
 */
public final class ManagedEnumeratorState implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Lane lane;
    private final String capabilityDigest;
    private final long checkpointId;
    private final byte[] coordinatorBlob;

    public ManagedEnumeratorState(
            Lane lane, String capabilityDigest, long checkpointId, byte[] coordinatorBlob) {
        this.lane = Objects.requireNonNull(lane, "lane");
        this.capabilityDigest = Objects.requireNonNull(capabilityDigest, "capabilityDigest");
        this.checkpointId = checkpointId;
        this.coordinatorBlob = Objects.requireNonNull(coordinatorBlob, "coordinatorBlob");
    }

    public Lane lane() {
        return lane;
    }

    public String capabilityDigest() {
        return capabilityDigest;
    }

    public long checkpointId() {
        return checkpointId;
    }

    byte[] coordinatorBlob() {
        return coordinatorBlob;
    }
}
