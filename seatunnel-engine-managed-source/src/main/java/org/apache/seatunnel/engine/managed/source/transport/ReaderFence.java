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

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * What a reader attempt accepts from another member: only the kinds a coordinator sends, only from
 * the member the engine placed its coordinator on, and only in the coordinator epoch the reader
 * registered with.
 *
 * <p>Threading: {@link #check} runs concurrently on operation threads; {@link #bindEpoch} is called
 * once by the reader host when its registration is acknowledged. The epoch is a single atomic
 * value, so a frame is checked either against "not yet known" or the bound epoch, never a mix.
 *
 * <p>Why the epoch is learned from the registration's acknowledgement: a coordinator answers its
 * acks with its epoch as the target attempt id, so a reader knows which coordinator incarnation it
 * registered with before it applies anything. Until then a reader-bound frame is answered {@code
 * RETRY_LATER} ({@code AWAITING_REGISTRATION}), which the coordinator's sender retries within its
 * deadline.
 */
public final class ReaderFence<M> {
    /** The kinds a coordinator sends to a reader; all others are local to the reader's member. */
    private static final Set<CommandKind> REMOTE_KINDS =
            EnumSet.of(
                    CommandKind.SPLIT_ASSIGNMENT,
                    CommandKind.NO_MORE_SPLITS,
                    CommandKind.SOURCE_EVENT,
                    CommandKind.CHECKPOINT_ABORTED);

    private static final long UNKNOWN = 0;

    private final ReaderMailbox mailbox;
    private final M coordinator;
    private final AtomicLong epoch = new AtomicLong(UNKNOWN);

    /**
     * @param coordinator the member the engine placed the source's coordinator on; frames from any
     *     other member are refused
     */
    public ReaderFence(ReaderMailbox mailbox, M coordinator) {
        this.mailbox = Objects.requireNonNull(mailbox, "mailbox");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    public ReaderMailbox mailbox() {
        return mailbox;
    }

    /**
     * Binds the coordinator epoch this attempt accepts commands of. The first binding wins: a
     * reader attempt lives within one coordinator epoch (Zeta restarts readers and coordinator
     * together).
     *
     * @return true if {@code coordinatorEpoch} is (now) the bound epoch
     */
    public boolean bindEpoch(long coordinatorEpoch) {
        if (coordinatorEpoch <= UNKNOWN) {
            return false;
        }
        return epoch.compareAndSet(UNKNOWN, coordinatorEpoch) || epoch.get() == coordinatorEpoch;
    }

    /** The bound epoch, 0 before the registration was acknowledged. */
    public long epoch() {
        return epoch.get();
    }

    /**
     * Checks a reader-bound frame from another member before the mailbox sees it.
     *
     * @return null if the frame may be offered to the mailbox, else the refusal to answer
     */
    AdmissionAck check(SourceCommandEnvelope env, M from, long retryAfterMillis) {
        long attempt = mailbox.attemptId();
        if (env.jobId() != mailbox.jobId()) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, attempt, ReasonCode.WRONG_JOB);
        }
        if (!REMOTE_KINDS.contains(env.commandKind())) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, attempt, ReasonCode.KIND_NOT_ACCEPTED);
        }
        if (!coordinator.equals(from)) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, attempt, ReasonCode.FOREIGN_SENDER);
        }
        if (env.targetAttemptId() != attempt) {
            return refuse(AdmissionStatus.STALE_TARGET, attempt, ReasonCode.STALE_ATTEMPT);
        }
        long bound = epoch.get();
        if (bound == UNKNOWN) {
            return AdmissionAck.retryLater(
                    attempt, retryAfterMillis, ReasonCode.AWAITING_REGISTRATION);
        }
        if (env.coordinatorEpoch() != bound || env.senderAttemptId() != bound) {
            return refuse(AdmissionStatus.STALE_TARGET, attempt, ReasonCode.STALE_EPOCH);
        }
        ReasonCode shape = payloadShape(env);
        if (shape != ReasonCode.NONE) {
            return refuse(AdmissionStatus.INVALID_PAYLOAD, attempt, shape);
        }
        return null;
    }

    /** The payload of each kind a coordinator sends, checked before the mailbox admits it. */
    private static ReasonCode payloadShape(SourceCommandEnvelope env) {
        switch (env.commandKind()) {
            case SPLIT_ASSIGNMENT:
                return env.payloadVersion() == AssignmentPayload.VERSION
                        ? AssignmentPayload.check(env.payload())
                        : ReasonCode.MALFORMED_PAYLOAD;
            case NO_MORE_SPLITS:
                return env.payloadLength() == 0 ? ReasonCode.NONE : ReasonCode.MALFORMED_PAYLOAD;
            case CHECKPOINT_ABORTED:
                return env.payloadLength() == LongPayload.BYTES
                        ? ReasonCode.NONE
                        : ReasonCode.MALFORMED_PAYLOAD;
            default:
                // Source events: the connector's versioned bytes, decoded on the reader's loop.
                return ReasonCode.NONE;
        }
    }

    private static AdmissionAck refuse(AdmissionStatus status, long attempt, ReasonCode reason) {
        return AdmissionAck.rejected(status, attempt, reason);
    }
}
