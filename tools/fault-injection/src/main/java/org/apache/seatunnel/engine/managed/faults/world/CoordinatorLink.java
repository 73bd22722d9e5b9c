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

package org.apache.seatunnel.engine.managed.faults.world;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.OfferResult;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderUplink;

/**
 * The world's way from one reader attempt to the coordinator of its epoch: decodes what the shared
 * {@code ReaderAttempt} sends (registration, apply acknowledgement, inclusion report, split
 * request) and offers it to the real coordinator loop in process, as {@code
 * ManagedEnumeratorHost#onReaderCommand} does on the engine; answers as that host does, with the
 * coordinator epoch as the ack's target attempt id. Inclusion reports travel fire-and-forget and
 * the engine's configuration says how many the network loses.
 *
 * <p>Threading: confined to the run's thread. Life cycle: one per reader attempt, bound to the
 * coordinator of the epoch the attempt was started in.
 */
final class CoordinatorLink implements ReaderUplink {
    private final MiniEngine engine;
    private final CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator;
    private final long coordinatorEpoch;
    private long boundEpoch;

    CoordinatorLink(
            MiniEngine engine,
            CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
            long coordinatorEpoch) {
        this.engine = engine;
        this.coordinator = coordinator;
        this.coordinatorEpoch = coordinatorEpoch;
    }

    @Override
    public long coordinatorEpoch() {
        return boundEpoch;
    }

    @Override
    public void registered(long epoch) {
        if (boundEpoch == 0) {
            boundEpoch = epoch;
        }
    }

    @Override
    public CompletableFuture<AdmissionAck> send(SourceCommandEnvelope env) {
        int subtask = env.targetSubtask();
        long attempt = env.senderAttemptId();
        OfferResult r;
        switch (env.commandKind()) {
            case READER_REGISTRATION:
                r = coordinator.registerReader(subtask, attempt);
                break;
            case SPLIT_REQUEST:
                r = coordinator.handleSplitRequest(subtask, attempt);
                break;
            case ASSIGNMENT_ACK:
                r = coordinator.assignmentApplied(subtask, attempt, env.payload().getLong());
                break;
            case READER_CHECKPOINTED:
                if (engine.loseInclusionReport(env)) {
                    CompletableFuture<AdmissionAck> lost = new CompletableFuture<>();
                    lost.completeExceptionally(new IOException("inclusion report lost"));
                    return lost;
                }
                ReaderInclusionReport report;
                try {
                    report =
                            ReaderInclusionReport.fromMetadata(
                                    ReaderInclusionReport.Kind.CHECKPOINT,
                                    subtask,
                                    attempt,
                                    new SourceRuntimeCheckpointMetadataSerializer()
                                            .deserialize(env.copyPayload()));
                } catch (IOException e) {
                    throw new AssertionError("the reader sent undecodable metadata", e);
                }
                r = coordinator.reportInclusion(report);
                break;
            default:
                return CompletableFuture.completedFuture(
                        AdmissionAck.rejected(
                                AdmissionStatus.INVALID_PAYLOAD,
                                coordinatorEpoch,
                                ReasonCode.KIND_NOT_ACCEPTED));
        }
        switch (r) {
            case ENQUEUED:
                return CompletableFuture.completedFuture(
                        AdmissionAck.accepted(coordinatorEpoch, AdmissionAck.NO_SEQUENCE));
            case CLOSED:
                return CompletableFuture.completedFuture(
                        AdmissionAck.rejected(
                                AdmissionStatus.TERMINAL_REJECTED,
                                coordinatorEpoch,
                                ReasonCode.TARGET_TERMINATED));
            default:
                return CompletableFuture.completedFuture(
                        AdmissionAck.retryLater(
                                coordinatorEpoch, 10, ReasonCode.MAILBOX_COUNT_FULL));
        }
    }
}
