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
 * How one barrier handed to a {@link ReaderAttempt} ended: its snapshot, or why there is none (the
 * mailbox refused the barrier, or the loop could not take it).
 *
 * <p>Threading: immutable, any thread.
 */
public final class BarrierResult {
    private final long checkpointId;
    private final ReaderSnapshot snapshot;
    private final AdmissionAck refusal;
    private final Throwable failure;

    private BarrierResult(
            long checkpointId, ReaderSnapshot snapshot, AdmissionAck refusal, Throwable failure) {
        this.checkpointId = checkpointId;
        this.snapshot = snapshot;
        this.refusal = refusal;
        this.failure = failure;
    }

    static BarrierResult taken(ReaderSnapshot snapshot) {
        return new BarrierResult(snapshot.checkpointId(), snapshot, null, null);
    }

    static BarrierResult refused(long checkpointId, AdmissionAck refusal) {
        return new BarrierResult(checkpointId, null, refusal, null);
    }

    static BarrierResult failed(long checkpointId, Throwable failure) {
        return new BarrierResult(checkpointId, null, null, failure);
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** The snapshot, or null if the barrier was not taken. */
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
        return snapshot != null
                ? "BarrierResult{taken " + snapshot + '}'
                : "BarrierResult{checkpoint "
                        + checkpointId
                        + (refusal != null ? " refused: " + refusal : " failed: " + failure)
                        + '}';
    }
}
