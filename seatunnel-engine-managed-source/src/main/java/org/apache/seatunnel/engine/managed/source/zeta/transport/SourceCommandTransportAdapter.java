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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import com.hazelcast.cluster.Address;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threading: stateless apart from the shared registry and counters; called concurrently on
 * Hazelcast generic operation threads (or inline on a local sender's thread). It never waits,
 * sleeps, spins, takes a lock or throws, and it holds no reference to connector code: it only
 * decodes (bounded by {@code command.max-payload-bytes}), then either calls {@link
 * ReaderMailbox#offer} (lock-free admission) or a {@link CoordinatorEndpoint} (which only
 * enqueues).
 *
 * <p>STIP-31's {@code SourceCommandTransportAdapter}: the receiving end of a delivered command on
 * the target's member. It decodes the frame, routes it and answers an {@link AdmissionAck} at once.
 *
 * <p>Routing:
 *
 * <ul>
 *   <li>a frame that does not decode → the decoder's status and reason ({@code INVALID_PAYLOAD} or
 *       {@code UNSUPPORTED_PROTOCOL}), final for the sender;
 *   <li>{@link #isCoordinatorBound coordinator-bound} kinds → the endpoint registered for the
 *       envelope's {@code sourceRuntimeId};
 *   <li>every other kind → the current mailbox of {@code (sourceRuntimeId, targetSubtask)}, whose
 *       admission checks the attempt ({@code STALE_TARGET}), capacity ({@code RETRY_LATER}),
 *       duplicates and terminal state;
 *   <li>no endpoint or mailbox registered → {@code RETRY_LATER} with {@code NO_SUCH_TARGET}. Why
 *       not {@code STALE_TARGET}: on this path "unknown" almost always means "not registered yet"
 *       (a reader still opening, a coordinator still restoring), and a final answer would make the
 *       sender drop a command the target is about to want. The sender's deadline bounds the wait;
 *       an attempt that really is gone is fenced by its successor's mailbox, which answers {@code
 *       STALE_TARGET} once it registers.
 * </ul>
 */
public final class SourceCommandTransportAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(SourceCommandTransportAdapter.class);

    /** The {@code targetAttemptId} of an ack that no attempt answered. */
    public static final long UNKNOWN_ATTEMPT = -1L;

    private static final Set<CommandKind> COORDINATOR_BOUND =
            EnumSet.of(
                    CommandKind.READER_REGISTRATION,
                    CommandKind.SPLIT_REQUEST,
                    CommandKind.SPLITS_RETURNED,
                    CommandKind.READER_EVENT,
                    CommandKind.ASSIGNMENT_ACK,
                    CommandKind.READER_CHECKPOINTED);

    private final TransportTargets targets;
    private final int maxPayloadBytes;
    private final long noTargetRetryAfterMillis;
    private final TransportMetrics metrics;

    /**
     * @param maxPayloadBytes frames declaring a larger payload are refused before their checksum
     * @param noTargetRetryAfterMillis the retry hint sent with {@code NO_SUCH_TARGET}
     */
    public SourceCommandTransportAdapter(
            TransportTargets targets,
            int maxPayloadBytes,
            long noTargetRetryAfterMillis,
            TransportMetrics metrics) {
        this.targets = Objects.requireNonNull(targets, "targets");
        this.maxPayloadBytes = maxPayloadBytes;
        this.noTargetRetryAfterMillis = noTargetRetryAfterMillis;
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** True for the kinds a reader sends to its coordinator. */
    public static boolean isCoordinatorBound(CommandKind kind) {
        return COORDINATOR_BOUND.contains(kind);
    }

    /**
     * Decodes, routes and returns the encoded ack: what {@link DeliverCommandOperation} answers.
     */
    public byte[] deliverFrame(byte[] frame, Address from) {
        return AdmissionAckCodec.encode(deliver(frame, from));
    }

    /** Decodes and routes one frame. Never throws. */
    public AdmissionAck deliver(byte[] frame, Address from) {
        SourceCommandCodec.DecodeResult decoded =
                SourceCommandCodec.decode(
                        frame, 0, frame == null ? 0 : frame.length, maxPayloadBytes);
        if (!decoded.isSuccess()) {
            metrics.decodeFailures.incrementAndGet();
            // Debug only: a peer that sends garbage would otherwise flood the log; the counter
            // and the sender's final status make it visible.
            LOG.debug("Refused an undecodable command frame from {}: {}", from, decoded);
            return answered(decoded.toRejection(UNKNOWN_ATTEMPT));
        }
        return route(decoded.envelope(), from);
    }

    /** Routes one decoded envelope. Never throws. */
    public AdmissionAck route(SourceCommandEnvelope env, Address from) {
        try {
            if (isCoordinatorBound(env.commandKind())) {
                CoordinatorEndpoint endpoint = targets.coordinator(env.sourceRuntimeId());
                if (endpoint == null) {
                    return noSuchTarget();
                }
                metrics.coordinatorDeliveries.incrementAndGet();
                return answered(
                        Objects.requireNonNull(
                                endpoint.onReaderCommand(env, from),
                                "CoordinatorEndpoint answered null"));
            }
            ReaderMailbox mailbox = targets.reader(env.sourceRuntimeId(), env.targetSubtask());
            if (mailbox == null) {
                return noSuchTarget();
            }
            metrics.readerDeliveries.incrementAndGet();
            return answered(mailbox.offer(env));
        } catch (RuntimeException e) {
            // A bug in a handler must not escape onto the operation thread (Hazelcast would log
            // and send the exception back); answer RETRY_LATER so the sender retries until its
            // deadline and the command is not silently dropped. Errors (OOM) are left to
            // Hazelcast's own handler.
            metrics.handlerFailures.incrementAndGet();
            LOG.warn(
                    "Admission of {} for source {} subtask {} failed; answering RETRY_LATER",
                    env.commandKind(),
                    env.sourceRuntimeId(),
                    env.targetSubtask(),
                    e);
            return answered(
                    AdmissionAck.retryLater(
                            UNKNOWN_ATTEMPT, noTargetRetryAfterMillis, ReasonCode.NONE));
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
}
