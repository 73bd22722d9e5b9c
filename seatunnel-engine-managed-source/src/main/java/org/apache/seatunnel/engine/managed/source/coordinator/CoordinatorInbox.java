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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.io.IOException;
import java.util.Objects;
import java.util.function.IntFunction;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The inbound side of one coordinator epoch: every reader-to-coordinator command is checked by its
 * {@link CoordinatorFence} (job, subtask, epoch, registered attempt, sender member, payload shape),
 * a reader's numbered requests are deduplicated by the {@link ReaderRequestLedger}, and what passes
 * is offered to the {@link CoordinatorEventLoop}; the answer goes back at once. An engine binding
 * only adapts its transport to {@link #onReaderCommand} (Zeta: the enumerator host as the member's
 * coordinator endpoint), so the model world runs the same checks the engine does.
 *
 * <p>Threading: {@link #onReaderCommand} runs concurrently on the transport's receiving threads
 * (Hazelcast operation threads in Zeta) and never blocks: the fence and the ledger are lock-free,
 * the loop's offers never wait. Acks carry this coordinator's epoch as their target attempt id:
 * that is how a reader learns the epoch it accepts commands of. Life cycle: one per coordinator
 * epoch, built with its loop.
 *
 * @param <M> the engine's member address
 */
public final class CoordinatorInbox<M> {
    private final CoordinatorEventLoop<?, ?> loop;
    private final CoordinatorFence<M> fence;
    private final ReaderRequestLedger requests;
    private final long epoch;
    private final long retryAfterMillis;

    /**
     * @param deployedMember the member the engine placed a reader subtask on, or null while the
     *     engine does not know it yet (a registration from elsewhere is refused)
     * @param retryAfterMillis the retry hint of a busy or not-yet-checkable answer
     */
    public CoordinatorInbox(
            CoordinatorEventLoop<?, ?> loop,
            long jobId,
            int parallelism,
            IntFunction<M> deployedMember,
            long retryAfterMillis) {
        this.loop = Objects.requireNonNull(loop, "loop");
        this.epoch = loop.epoch();
        this.fence = new CoordinatorFence<>(jobId, epoch, parallelism, deployedMember);
        this.requests = new ReaderRequestLedger(parallelism);
        this.retryAfterMillis = retryAfterMillis;
    }

    public CoordinatorFence<M> fence() {
        return fence;
    }

    public long epoch() {
        return epoch;
    }

    /** Admits one decoded reader-to-coordinator command from member {@code from}. */
    public AdmissionAck onReaderCommand(SourceCommandEnvelope env, M from) {
        AdmissionAck refused = fence.check(env, from, retryAfterMillis);
        if (refused != null) {
            return refused;
        }
        int subtask = env.targetSubtask();
        long attempt = env.senderAttemptId();
        OfferResult r;
        switch (env.commandKind()) {
            case READER_REGISTRATION:
                if (!fence.registered(subtask, attempt, from)) {
                    // Another attempt of the subtask registered concurrently and won.
                    return AdmissionAck.rejected(
                            AdmissionStatus.STALE_TARGET, epoch, ReasonCode.UNREGISTERED_ATTEMPT);
                }
                RegistrationPayload window = RegistrationPayload.decode(env.payload());
                r =
                        loop.registerReader(
                                subtask,
                                attempt,
                                window.windowCommands(),
                                window.windowBytes(),
                                window.windowSplits());
                if (r != OfferResult.ENQUEUED) {
                    // The reader retries; its retry must find the subtask unregistered.
                    fence.unregistered(subtask, attempt);
                }
                break;
            case SPLIT_REQUEST:
            case READER_EVENT:
                // Numbered by the reader's OutboundRequests, so a redelivered one is answered
                // DUPLICATE instead of reaching the enumerator twice.
                long sequence = env.senderSequence();
                if (!requests.isNew(subtask, attempt, sequence)) {
                    return AdmissionAck.rejected(AdmissionStatus.DUPLICATE, epoch, ReasonCode.NONE);
                }
                r =
                        env.commandKind() == CommandKind.SPLIT_REQUEST
                                ? loop.handleSplitRequest(subtask, attempt)
                                : loop.handleSourceEvent(subtask, attempt, env.copyPayload());
                if (r == OfferResult.ENQUEUED) {
                    requests.taken(subtask, attempt, sequence);
                }
                break;
            case ASSIGNMENT_ACK:
                AppliedAckPayload applied = AppliedAckPayload.decode(env.payload());
                r =
                        loop.assignmentApplied(
                                subtask,
                                attempt,
                                applied.watermark(),
                                applied.backlog(),
                                applied.lastBarrier());
                break;
            case READER_CHECKPOINTED:
                ReaderInclusionReport report;
                try {
                    report =
                            ReaderInclusionReport.fromMetadata(
                                    ReaderInclusionReport.Kind.CHECKPOINT,
                                    subtask,
                                    attempt,
                                    new SourceRuntimeCheckpointMetadataSerializer()
                                            .deserialize(env.copyPayload()));
                } catch (IOException | RuntimeException e) {
                    return AdmissionAck.rejected(
                            AdmissionStatus.INVALID_PAYLOAD, epoch, ReasonCode.MALFORMED_PAYLOAD);
                }
                r = loop.reportInclusion(report);
                break;
            default:
                // The fence refuses every other kind; kept for the compiler.
                return AdmissionAck.rejected(
                        AdmissionStatus.INVALID_PAYLOAD, epoch, ReasonCode.KIND_NOT_ACCEPTED);
        }
        switch (r) {
            case ENQUEUED:
                return AdmissionAck.accepted(epoch, AdmissionAck.NO_SEQUENCE);
            case CLOSED:
                return AdmissionAck.rejected(
                        AdmissionStatus.TERMINAL_REJECTED, epoch, ReasonCode.TARGET_TERMINATED);
            default:
                return AdmissionAck.retryLater(
                        epoch, retryAfterMillis, ReasonCode.MAILBOX_COUNT_FULL);
        }
    }
}
