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

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * What a coordinator accepts from readers: frames of its own job, for a subtask within its
 * parallelism, of its epoch (or of none yet), from the reader attempt registered for that subtask
 * on the member the engine deployed the subtask on, with a payload of the kind's shape.
 *
 * <p>Threading: {@link #check} and {@link #registered} run concurrently on operation threads,
 * lock-free. The registered attempt and member of a subtask are one immutable value published by
 * one compare-and-set, so a concurrent check sees either no registration or a complete one.
 *
 * <p>Why the engine's own record of the reader's member: Zeta's reader task registers with the
 * enumerator task through its own operation, which records the calling member per subtask. A
 * registration from any other member cannot come from the deployed reader. Within one coordinator
 * epoch a subtask has exactly one attempt (Zeta restarts readers together with their coordinator),
 * so a second attempt for a registered subtask is refused rather than allowed to replace it.
 */
public final class CoordinatorFence<M> {
    private static final long NONE = 0;

    private final long jobId;
    private final long epoch;
    private final int parallelism;
    private final IntFunction<M> deployedMember;
    private final AtomicReferenceArray<Registration> registrations;

    /**
     * @param deployedMember the member the engine recorded for a reader subtask, or null while the
     *     engine has not recorded it yet
     */
    public CoordinatorFence(
            long jobId, long epoch, int parallelism, IntFunction<M> deployedMember) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be positive: " + parallelism);
        }
        this.jobId = jobId;
        this.epoch = epoch;
        this.parallelism = parallelism;
        this.deployedMember = Objects.requireNonNull(deployedMember, "deployedMember");
        this.registrations = new AtomicReferenceArray<>(parallelism);
    }

    public long epoch() {
        return epoch;
    }

    /**
     * Checks a coordinator-bound frame.
     *
     * @return null if the frame may be acted on, else the answer to send (a refusal, a retry, or
     *     {@code DUPLICATE} for a repeated registration of the registered attempt)
     */
    public AdmissionAck check(SourceCommandEnvelope env, M from, long retryAfterMillis) {
        if (env.jobId() != jobId) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.WRONG_JOB);
        }
        int subtask = env.targetSubtask();
        if (subtask < 0 || subtask >= parallelism) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.SUBTASK_OUT_OF_RANGE);
        }
        if (env.coordinatorEpoch() != NONE && env.coordinatorEpoch() != epoch) {
            return refuse(AdmissionStatus.STALE_TARGET, ReasonCode.STALE_EPOCH);
        }
        ReasonCode shape = payloadShape(env);
        if (shape != ReasonCode.NONE) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, shape);
        }
        long attempt = env.senderAttemptId();
        if (attempt == NONE) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.BAD_HEADER_FIELD);
        }
        Registration r = registrations.get(subtask);
        long registered = r == null ? NONE : r.attempt;
        if (env.commandKind() == CommandKind.READER_REGISTRATION) {
            M deployed = deployedMember.apply(subtask);
            if (deployed == null) {
                return AdmissionAck.retryLater(
                        epoch, retryAfterMillis, ReasonCode.AWAITING_REGISTRATION);
            }
            if (!deployed.equals(from)) {
                return refuse(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.FOREIGN_SENDER);
            }
            if (registered == attempt) {
                return AdmissionAck.rejected(AdmissionStatus.DUPLICATE, epoch, ReasonCode.NONE);
            }
            if (registered != NONE) {
                return refuse(AdmissionStatus.STALE_TARGET, ReasonCode.UNREGISTERED_ATTEMPT);
            }
            return null;
        }
        if (r == null || registered != attempt) {
            return refuse(AdmissionStatus.STALE_TARGET, ReasonCode.UNREGISTERED_ATTEMPT);
        }
        if (!r.member.equals(from)) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, ReasonCode.FOREIGN_SENDER);
        }
        return null;
    }

    /**
     * Records the registration of a checked {@code READER_REGISTRATION} once the coordinator loop
     * accepted it.
     *
     * @return false if another attempt registered the subtask first (the caller answers a refusal)
     */
    public boolean registered(int subtask, long attempt, M from) {
        if (registrations.compareAndSet(subtask, null, new Registration(attempt, from))) {
            return true;
        }
        Registration r = registrations.get(subtask);
        return r.attempt == attempt && r.member.equals(from);
    }

    /** Undoes {@link #registered} when the coordinator loop could not take the registration. */
    public void unregistered(int subtask, long attempt) {
        Registration r = registrations.get(subtask);
        if (r != null && r.attempt == attempt) {
            registrations.compareAndSet(subtask, r, null);
        }
    }

    /** The registered attempt of {@code subtask}, or null if none. */
    public Long attempt(int subtask) {
        Registration r = subtask >= 0 && subtask < parallelism ? registrations.get(subtask) : null;
        return r == null ? null : r.attempt;
    }

    /** The member of the registered attempt of {@code subtask}, or null. */
    public M member(int subtask) {
        Registration r = subtask >= 0 && subtask < parallelism ? registrations.get(subtask) : null;
        return r == null ? null : memberOf(r);
    }

    @SuppressWarnings("unchecked")
    private M memberOf(Registration r) {
        return (M) r.member;
    }

    private static final class Registration {
        final long attempt;
        final Object member;

        Registration(long attempt, Object member) {
            this.attempt = attempt;
            this.member = Objects.requireNonNull(member, "member");
        }
    }

    private static ReasonCode payloadShape(SourceCommandEnvelope env) {
        switch (env.commandKind()) {
            case READER_REGISTRATION:
                return env.payloadVersion() == RegistrationPayload.VERSION
                        ? RegistrationPayload.check(env.payload())
                        : ReasonCode.MALFORMED_PAYLOAD;
            case SPLIT_REQUEST:
                return env.payloadLength() == 0 ? ReasonCode.NONE : ReasonCode.MALFORMED_PAYLOAD;
            case ASSIGNMENT_ACK:
                return env.payloadVersion() == AppliedAckPayload.VERSION
                        ? AppliedAckPayload.check(env.payload())
                        : ReasonCode.MALFORMED_PAYLOAD;
            case READER_CHECKPOINTED:
                // Decoded by the endpoint, which answers MALFORMED_PAYLOAD when that fails.
                return env.payloadLength() > 0 ? ReasonCode.NONE : ReasonCode.MALFORMED_PAYLOAD;
            case READER_EVENT:
                // The connector's versioned event bytes, decoded on the coordinator loop.
                return ReasonCode.NONE;
            default:
                // SPLITS_RETURNED travels through the engine's own path on Lane A.
                return ReasonCode.KIND_NOT_ACCEPTED;
        }
    }

    private AdmissionAck refuse(AdmissionStatus status, ReasonCode reason) {
        // A coordinator answers with its epoch as the target attempt id (see ReaderFence).
        return AdmissionAck.rejected(status, epoch, reason);
    }
}
