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

package org.apache.seatunnel.engine.managed.source.reader;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;

/**
 * How one barrier ended: taken (with the snapshot its host made, if any), refused by the mailbox,
 * or not taken by the loop. The loop returns it from {@link
 * ReaderEventLoop#runControlsUntilBarrier}, so the snapshot travels back as a value rather than
 * through a field the barrier callback writes.
 *
 * <p>Threading: immutable, any thread.
 */
public final class BarrierResult {
    private final long checkpointId;
    private final boolean taken;
    private final ReaderSnapshot snapshot;
    private final AdmissionAck refusal;
    private final Throwable failure;

    private BarrierResult(
            long checkpointId,
            boolean taken,
            ReaderSnapshot snapshot,
            AdmissionAck refusal,
            Throwable failure) {
        this.checkpointId = checkpointId;
        this.taken = taken;
        this.snapshot = snapshot;
        this.refusal = refusal;
        this.failure = failure;
    }

    /** Taken; {@code snapshot} is what the host's barrier callback returned (may be null). */
    static BarrierResult taken(long checkpointId, ReaderSnapshot snapshot) {
        return new BarrierResult(checkpointId, true, snapshot, null, null);
    }

    static BarrierResult refused(long checkpointId, AdmissionAck refusal) {
        return new BarrierResult(checkpointId, false, null, refusal, null);
    }

    /** Not taken: {@code failure} says why, or is null when the loop did not reach the barrier. */
    static BarrierResult failed(long checkpointId, Throwable failure) {
        return new BarrierResult(checkpointId, false, null, null, failure);
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** True if the loop took the barrier: the reader and its cut were snapshotted. */
    public boolean isTaken() {
        return taken;
    }

    /** The snapshot, or null if the barrier was not taken (or its host keeps none). */
    public ReaderSnapshot snapshot() {
        return snapshot;
    }

    /** The mailbox's answer when it did not admit the barrier, else null. */
    public AdmissionAck refusal() {
        return refusal;
    }

    /**
     * Why an admitted barrier was not taken, if the loop said (a connector or host failure at the
     * snapshot); null when it was taken, refused, or not reached (the attempt terminated first).
     */
    public Throwable failure() {
        return failure;
    }

    @Override
    public String toString() {
        if (taken) {
            return "BarrierResult{taken " + (snapshot != null ? snapshot : checkpointId) + '}';
        }
        return "BarrierResult{checkpoint "
                + checkpointId
                + (refusal != null ? " refused: " + refusal : " failed: " + failure)
                + '}';
    }
}
