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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * STIP-31's {@code SourceCommandTransportAdapter}: the receiving end of a delivered command on the
 * target's member. It decodes the frame, routes it and answers an {@link AdmissionAck} at once.
 *
 * <p>Threading: stateless apart from the shared registry and counters; called concurrently on
 * Hazelcast generic operation threads (or inline on a local sender's thread). It never waits,
 * sleeps, spins, takes a lock or throws, and it holds no reference to connector code: it only
 * decodes (bounded by {@code command.max-payload-bytes}), then either calls {@link
 * ReaderMailbox#offer} (lock-free admission) or a {@link CoordinatorEndpoint} (which only
 * enqueues).
 *
 * <p>Routing:
 *
 * <ul>
 *   <li>a frame that does not decode → the decoder's status and reason ({@code INVALID_PAYLOAD} or
 *       {@code UNSUPPORTED_PROTOCOL}), final for the sender;
 *   <li>{@link #isCoordinatorBound coordinator-bound} kinds → the endpoint registered for the
 *       envelope's {@code sourceRuntimeId};
 *   <li>every other kind → the {@link ReaderFence} of the current mailbox of {@code
 *       (sourceRuntimeId, targetSubtask)} (job, kind, sender member, attempt, coordinator epoch),
 *       then the mailbox, whose admission checks capacity ({@code RETRY_LATER}), duplicates and
 *       terminal state;
 *   <li>no endpoint or mailbox registered → {@code RETRY_LATER} with {@code NO_SUCH_TARGET}. Why
 *       not {@code STALE_TARGET}: on this path "unknown" almost always means "not registered yet"
 *       (a reader still opening, a coordinator still restoring), and a final answer would make the
 *       sender drop a command the target is about to want. The sender's deadline bounds the wait;
 *       an attempt that really is gone is fenced by its successor's mailbox, which answers {@code
 *       STALE_TARGET} once it registers.
 * </ul>
 *
 * <p>Admission latency: each delivery is timed from the frame's arrival to its ack; one slower than
 * {@code admission.p99-budget} (STIP-31: admission p99 at most 5 ms) counts in {@code
 * ManagedSourceAdmissionOverBudget}, so an operator sees the budget broken when that count exceeds
 * 1 % of the deliveries.
 *
 * <p>Every final refusal is counted per reason ({@code ManagedSourceTransportRefused{Reason}}) and
 * logged at most once per reason per minute, with ids and never payload bytes ({@link
 * RefusalReporter}).
 */
public final class SourceCommandTransportAdapter<M> {
    /** The {@code targetAttemptId} of an ack that no attempt answered. */
    public static final long UNKNOWN_ATTEMPT = -1L;

    /** The default of {@code admission.p99-budget}. */
    public static final long DEFAULT_ADMISSION_BUDGET_NANOS =
            ManagedSourceOptions.ADMISSION_P99_BUDGET.defaultValue().toNanos();

    private static final Set<CommandKind> COORDINATOR_BOUND =
            EnumSet.of(
                    CommandKind.READER_REGISTRATION,
                    CommandKind.SPLIT_REQUEST,
                    CommandKind.SPLITS_RETURNED,
                    CommandKind.READER_EVENT,
                    CommandKind.ASSIGNMENT_ACK,
                    CommandKind.READER_CHECKPOINTED);

    private final TransportTargets<M> targets;
    private final int maxPayloadBytes;
    private final long noTargetRetryAfterMillis;
    private final TransportMetrics metrics;
    private final RefusalReporter refusals;
    private final long admissionBudgetNanos;
    private final LongSupplier nanoClock;

    /**
     * @param maxPayloadBytes frames declaring a larger payload are refused before their checksum
     * @param noTargetRetryAfterMillis the retry hint sent with {@code NO_SUCH_TARGET}
     */
    public SourceCommandTransportAdapter(
            TransportTargets<M> targets,
            int maxPayloadBytes,
            long noTargetRetryAfterMillis,
            TransportMetrics metrics) {
        this(
                targets,
                maxPayloadBytes,
                noTargetRetryAfterMillis,
                metrics,
                DEFAULT_ADMISSION_BUDGET_NANOS);
    }

    /**
     * @param admissionBudgetNanos {@code admission.p99-budget}
     */
    public SourceCommandTransportAdapter(
            TransportTargets<M> targets,
            int maxPayloadBytes,
            long noTargetRetryAfterMillis,
            TransportMetrics metrics,
            long admissionBudgetNanos) {
        this(
                targets,
                maxPayloadBytes,
                noTargetRetryAfterMillis,
                metrics,
                System::currentTimeMillis,
                RefusalReporter.LOG_INTERVAL_MILLIS,
                admissionBudgetNanos,
                System::nanoTime);
    }

    SourceCommandTransportAdapter(
            TransportTargets<M> targets,
            int maxPayloadBytes,
            long noTargetRetryAfterMillis,
            TransportMetrics metrics,
            LongSupplier clockMillis,
            long refusalLogIntervalMillis) {
        this(
                targets,
                maxPayloadBytes,
                noTargetRetryAfterMillis,
                metrics,
                clockMillis,
                refusalLogIntervalMillis,
                DEFAULT_ADMISSION_BUDGET_NANOS,
                System::nanoTime);
    }

    SourceCommandTransportAdapter(
            TransportTargets<M> targets,
            int maxPayloadBytes,
            long noTargetRetryAfterMillis,
            TransportMetrics metrics,
            LongSupplier clockMillis,
            long refusalLogIntervalMillis,
            long admissionBudgetNanos,
            LongSupplier nanoClock) {
        this.admissionBudgetNanos = admissionBudgetNanos;
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.targets = Objects.requireNonNull(targets, "targets");
        this.maxPayloadBytes = maxPayloadBytes;
        this.noTargetRetryAfterMillis = noTargetRetryAfterMillis;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.refusals = new RefusalReporter(metrics, clockMillis, refusalLogIntervalMillis);
    }

    /** True for the kinds a reader sends to its coordinator. */
    public static boolean isCoordinatorBound(CommandKind kind) {
        return COORDINATOR_BOUND.contains(kind);
    }

    /** The largest payload a frame may declare here. */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /**
     * Decodes, routes and returns the encoded ack: what the engine binding's delivery operation
     * answers.
     */
    public byte[] deliverFrame(byte[] frame, M from) {
        long start = nanoClock.getAsLong();
        byte[] ack = AdmissionAckCodec.encode(deliver(frame, from));
        if (nanoClock.getAsLong() - start > admissionBudgetNanos) {
            metrics.admissionOverBudget.incrementAndGet();
        }
        return ack;
    }

    /** {@code admission.p99-budget} in nanoseconds. */
    public long admissionBudgetNanos() {
        return admissionBudgetNanos;
    }

    /**
     * Opens a {@link CommandBatchCodec} batch and delivers its entries one by one, in order,
     * exactly as separate {@link #deliverFrame} calls would (same decoding, fencing, admission,
     * metrics and per-command admission timing), and answers one ack per entry. A batch that does
     * not open (bad magic or version, checksum, count or size over {@link
     * CommandBatchCodec#MAX_ENTRIES}, truncated, trailing bytes) is refused as a whole with the
     * decoder's status and reason, final for every entry. Once an entry is answered {@code
     * RETRY_LATER}, the later entries of the batch for the same target (source runtime, subtask,
     * direction) are not offered and answered {@code RETRY_LATER} with {@code BEHIND_REFUSED}: a
     * command must not overtake one sent before it. What the engine binding's batch operation
     * answers. Never throws.
     */
    public byte[] deliverBatchFrame(byte[] batch, M from) {
        CommandBatchCodec.BatchResult opened =
                CommandBatchCodec.decode(
                        batch,
                        CommandBatchCodec.MAX_ENTRIES,
                        CommandBatchCodec.maxBatchBytes(
                                CommandBatchCodec.MAX_ENTRIES, maxPayloadBytes));
        if (!opened.isSuccess()) {
            metrics.decodeFailures.incrementAndGet();
            refusals.refused(
                    AdmissionAck.rejected(
                            opened.failureStatus(), UNKNOWN_ATTEMPT, opened.reasonCode()),
                    null,
                    from);
            return CommandBatchCodec.encodeRefusal(opened.failureStatus(), opened.reasonCode());
        }
        metrics.batchesReceived.incrementAndGet();
        List<AdmissionAck> acks = new ArrayList<>(opened.count());
        // Targets of this batch that answered RETRY_LATER: their later entries are not offered.
        List<long[]> refused = null;
        for (int i = 0; i < opened.count(); i++) {
            long start = nanoClock.getAsLong();
            SourceCommandCodec.DecodeResult decoded =
                    SourceCommandCodec.decode(
                            opened.batch(), opened.offset(i), opened.length(i), maxPayloadBytes);
            AdmissionAck ack;
            if (!decoded.isSuccess()) {
                metrics.decodeFailures.incrementAndGet();
                ack = answered(decoded.toRejection(UNKNOWN_ATTEMPT), null, from);
            } else if (isBehindRefused(refused, decoded.envelope())) {
                ack =
                        answered(
                                AdmissionAck.retryLater(
                                        decoded.envelope().targetAttemptId(),
                                        noTargetRetryAfterMillis,
                                        ReasonCode.BEHIND_REFUSED));
            } else {
                ack = route(decoded.envelope(), from);
                if (ack.status() == AdmissionStatus.RETRY_LATER) {
                    if (refused == null) {
                        refused = new ArrayList<>(1);
                    }
                    refused.add(targetOf(decoded.envelope()));
                }
            }
            acks.add(ack);
            if (nanoClock.getAsLong() - start > admissionBudgetNanos) {
                metrics.admissionOverBudget.incrementAndGet();
            }
        }
        return CommandBatchCodec.encodeAcks(acks);
    }

    /** Which ordered stream a command belongs to on this member: source, subtask, direction. */
    private static long[] targetOf(SourceCommandEnvelope env) {
        return new long[] {
            env.sourceRuntimeId(),
            env.targetSubtask(),
            isCoordinatorBound(env.commandKind()) ? 1 : 0,
            env.commandKind() == CommandKind.CHECKPOINT_ABORTED ? 1 : 0
        };
    }

    private static boolean isBehindRefused(List<long[]> refused, SourceCommandEnvelope env) {
        if (refused == null) {
            return false;
        }
        long[] t = targetOf(env);
        for (long[] r : refused) {
            if (java.util.Arrays.equals(r, t)) {
                return true;
            }
        }
        return false;
    }

    /** Decodes and routes one frame. Never throws. */
    public AdmissionAck deliver(byte[] frame, M from) {
        return deliver(frame, 0, frame == null ? 0 : frame.length, from);
    }

    private AdmissionAck deliver(byte[] frame, int offset, int length, M from) {
        SourceCommandCodec.DecodeResult decoded =
                SourceCommandCodec.decode(frame, offset, length, maxPayloadBytes);
        if (!decoded.isSuccess()) {
            metrics.decodeFailures.incrementAndGet();
            return answered(decoded.toRejection(UNKNOWN_ATTEMPT), null, from);
        }
        return route(decoded.envelope(), from);
    }

    /**
     * Routes one decoded envelope after the target's checks: a coordinator endpoint checks job,
     * subtask range, epoch, registered attempt, sender member and payload shape itself; a reader's
     * {@link ReaderFence} checks job, kind, sender member, attempt and epoch before its mailbox
     * sees the frame. Never throws.
     */
    public AdmissionAck route(SourceCommandEnvelope env, M from) {
        try {
            if (isCoordinatorBound(env.commandKind())) {
                CoordinatorEndpoint<M> endpoint = targets.coordinator(env.sourceRuntimeId());
                if (endpoint == null) {
                    return noSuchTarget();
                }
                metrics.coordinatorDeliveries.incrementAndGet();
                return answered(
                        Objects.requireNonNull(
                                endpoint.onReaderCommand(env, from),
                                "CoordinatorEndpoint answered null"),
                        env,
                        from);
            }
            ReaderFence<M> fence = targets.readerFence(env.sourceRuntimeId(), env.targetSubtask());
            if (fence == null) {
                return noSuchTarget();
            }
            metrics.readerDeliveries.incrementAndGet();
            AdmissionAck refused = fence.check(env, from, noTargetRetryAfterMillis);
            if (refused != null) {
                return answered(refused, env, from);
            }
            return answered(fence.mailbox().offer(env), env, from);
        } catch (RuntimeException e) {
            // A bug in a handler must not escape onto the operation thread (Hazelcast would log
            // and send the exception back); answer RETRY_LATER so the sender retries until its
            // deadline and the command is not silently dropped. Payload problems never get here:
            // the targets check payload shape and answer INVALID_PAYLOAD. Errors (OOM) are left
            // to Hazelcast's own handler.
            metrics.handlerFailures.incrementAndGet();
            refusals.handlerFailed(env, e);
            return answered(
                    AdmissionAck.retryLater(
                            UNKNOWN_ATTEMPT, noTargetRetryAfterMillis, ReasonCode.NONE),
                    env,
                    from);
        }
    }

    private AdmissionAck noSuchTarget() {
        metrics.noSuchTarget.incrementAndGet();
        return answered(
                AdmissionAck.retryLater(
                        UNKNOWN_ATTEMPT, noTargetRetryAfterMillis, ReasonCode.NO_SUCH_TARGET));
    }

    private AdmissionAck answered(AdmissionAck ack) {
        metrics.recordAnswered(ack.status());
        return ack;
    }

    private AdmissionAck answered(AdmissionAck ack, SourceCommandEnvelope env, M from) {
        AdmissionStatus status = ack.status();
        if (!status.isAdmitted() && status != AdmissionStatus.RETRY_LATER) {
            refusals.refused(ack, env, from);
        }
        return answered(ack);
    }
}
