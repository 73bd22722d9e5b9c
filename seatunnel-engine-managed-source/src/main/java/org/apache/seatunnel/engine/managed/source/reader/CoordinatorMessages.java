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

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one reader attempt tells its coordinator through its {@link ReaderUplink}: the registration,
 * apply acknowledgements, checkpoint (inclusion) reports and the connector's requests, each stamped
 * with the attempt and the bound coordinator epoch and sent without waiting. A refused registration
 * fails the attempt; other losses are recoverable (acks and inclusion reports are re-derived from
 * later checkpoints).
 *
 * <p>Threading: any thread sends. Answers complete on the uplink's threads; the one a report's
 * answer records ({@code lastAdmittedReport}) is volatile, read by the thread that takes a barrier.
 */
final class CoordinatorMessages {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorMessages.class);

    private final ReaderMailbox mailbox;
    private final ReaderUplink uplink;
    private final AtomicLong outboundIds = new AtomicLong();
    // What the last checkpoint report the coordinator admitted proves: a later cut that proves
    // nothing more is not reported. Written where the report's answer completes, read by the
    // thread that takes a barrier.
    private volatile InclusionProof lastAdmittedReport;
    // The registration's send until the attempt closes: a closed attempt withdraws it (see
    // abandonRegistration).
    private volatile CompletableFuture<AdmissionAck> registration;

    CoordinatorMessages(ReaderMailbox mailbox, ReaderUplink uplink) {
        this.mailbox = mailbox;
        this.uplink = uplink;
    }

    /** The coordinator epoch the attempt is bound to, 0 before its registration's answer. */
    long coordinatorEpoch() {
        return uplink.coordinatorEpoch();
    }

    /**
     * Registers the attempt, offering {@code windowSplits} as its split window; see {@link
     * ReaderAttempt#register}.
     */
    void register(int windowSplits) {
        // The credit window: the mailbox's normal capacity, which only coordinator commands use.
        MailboxLimits limits = mailbox.limits();
        SourceCommandEnvelope env =
                toCoordinator(
                                CommandKind.READER_REGISTRATION,
                                RegistrationPayload.encode(
                                        limits.maxCommands(), limits.maxBytes(), windowSplits))
                        .payloadVersion(RegistrationPayload.VERSION)
                        .build();
        CompletableFuture<AdmissionAck> sent;
        try {
            sent = uplink.send(env);
        } catch (RuntimeException e) {
            delivered(CommandKind.READER_REGISTRATION, null, e, true);
            return;
        }
        registration = sent;
        sent.whenComplete((ack, err) -> delivered(CommandKind.READER_REGISTRATION, ack, err, true));
    }

    /**
     * The attempt closed: a registration still waiting for its answer is withdrawn, so the sender
     * sends it no more. Why: a registration the coordinator answered {@code RETRY_LATER} (it was
     * not open yet, or its source was being restarted) is retried until its deadline, and a retry
     * of a closed attempt could reach the coordinator of the next pipeline attempt, register the
     * dead attempt for its subtask there and get the live attempt's registration refused.
     */
    void abandonRegistration() {
        CompletableFuture<AdmissionAck> f = registration;
        if (f != null && !f.isDone()) {
            f.cancel(false);
        }
    }

    /** Sends an apply acknowledgement ({@link AppliedAcks}' sender); fault point 7 sits here. */
    CompletableFuture<AdmissionAck> sendAppliedAck(long watermark, int backlog, long lastBarrier) {
        FaultAction fault = FaultAction.PROCEED;
        if (FaultSeam.INSTALLED != null) {
            fault =
                    FaultSeam.at(
                            FaultSite.APPLY_ACK,
                            mailbox.jobId(),
                            mailbox.subtask(),
                            "watermark " + watermark + ", backlog " + backlog);
            if (fault == FaultAction.LOSE) {
                // Fault point 7, tests only: as if the transport had lost it.
                CompletableFuture<AdmissionAck> lost = new CompletableFuture<>();
                lost.completeExceptionally(new InjectedFaultException(FaultSite.APPLY_ACK, fault));
                return lost;
            }
        }
        CompletableFuture<AdmissionAck> sent =
                uplinkSend(appliedAck(watermark, backlog, lastBarrier));
        return fault == FaultAction.DUPLICATE
                ? uplinkSend(appliedAck(watermark, backlog, lastBarrier))
                : sent;
    }

    private SourceCommandEnvelope appliedAck(long watermark, int backlog, long lastBarrier) {
        return toCoordinator(
                        CommandKind.ASSIGNMENT_ACK,
                        AppliedAckPayload.encode(watermark, backlog, lastBarrier))
                .payloadVersion(AppliedAckPayload.VERSION)
                .build();
    }

    /** Sends through the uplink; a failure to hand over becomes a failed future. */
    private CompletableFuture<AdmissionAck> uplinkSend(SourceCommandEnvelope env) {
        try {
            return uplink.send(env);
        } catch (RuntimeException e) {
            CompletableFuture<AdmissionAck> failed = new CompletableFuture<>();
            failed.completeExceptionally(e);
            return failed;
        }
    }

    /**
     * Sends a reader-to-coordinator command without waiting, stamped with this attempt and the
     * bound coordinator epoch. A lost registration is fatal ({@code fatalOnFailure}); other losses
     * are recoverable (acks and inclusion reports are re-derived from later checkpoints).
     */
    void send(CommandKind kind, byte[] payload, boolean fatalOnFailure) {
        SourceCommandEnvelope env = toCoordinator(kind, payload).build();
        CompletableFuture<AdmissionAck> sent;
        try {
            sent = uplink.send(env);
        } catch (RuntimeException e) {
            delivered(kind, null, e, fatalOnFailure);
            return;
        }
        sent.whenComplete((ack, err) -> delivered(kind, ack, err, fatalOnFailure));
    }

    /**
     * The inclusion proof the coordinator's tracker waits for; fire-and-forget. A cut that proves
     * only what an admitted report already proved is not sent: the tracker marked those assignments
     * included then, and an inclusion stays valid for every later checkpoint (a reader's applied
     * commands only grow), so the report would change nothing there. Most checkpoints of a running
     * job are such; they would cost the barrier path a report per reader and the coordinator a
     * batch to decode.
     *
     * @return false if the report was not sent because it would prove nothing new
     */
    boolean reportIfNew(byte[] meta, ReaderCheckpointCut cut) {
        InclusionProof proof = new InclusionProof(uplink.coordinatorEpoch(), cut);
        if (proof.equals(lastAdmittedReport)) {
            return false;
        }
        sendReport(meta, proof);
        return true;
    }

    private void sendReport(byte[] meta, InclusionProof proof) {
        SourceCommandEnvelope env = toCoordinator(CommandKind.READER_CHECKPOINTED, meta).build();
        CompletableFuture<AdmissionAck> sent;
        try {
            sent = uplink.send(env);
        } catch (RuntimeException e) {
            delivered(CommandKind.READER_CHECKPOINTED, null, e, false);
            return;
        }
        sent.whenComplete(
                (ack, err) -> {
                    if (err == null && ack != null && ack.status().isAdmitted()) {
                        lastAdmittedReport = proof;
                    }
                    delivered(CommandKind.READER_CHECKPOINTED, ack, err, false);
                });
    }

    /** See {@link ReaderAttempt#sendRequest}. */
    CompletableFuture<AdmissionAck> sendRequest(CommandKind kind, long sequence, byte[] payload) {
        return uplink.send(toCoordinator(kind, payload).senderSequence(sequence).build());
    }

    private SourceCommandEnvelope.Builder toCoordinator(CommandKind kind, byte[] payload) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(mailbox.jobId())
                .sourceRuntimeId(mailbox.sourceRuntimeId())
                .targetSubtask(mailbox.subtask())
                .senderAttemptId(mailbox.attemptId())
                // 0 until the registration is acknowledged: the coordinator checks it when set.
                .coordinatorEpoch(uplink.coordinatorEpoch())
                .commandId(outboundIds.incrementAndGet())
                .payloadVersion(1)
                .payload(payload);
    }

    private void delivered(CommandKind kind, AdmissionAck ack, Throwable err, boolean fatal) {
        if (err instanceof CancellationException) {
            // Withdrawn by a closed attempt (abandonRegistration): nothing left to fail.
            return;
        }
        boolean ok = err == null && ack != null && ack.status().isAdmitted();
        if (ok && kind == CommandKind.READER_REGISTRATION) {
            // The coordinator answers with its epoch: from now on only its commands are accepted.
            uplink.registered(ack.targetAttemptId());
        }
        if (!ok && fatal) {
            mailbox.terminate(
                    TerminalSignal.fatal(
                            ReasonCode.NO_SUCH_TARGET,
                            err != null
                                    ? err
                                    : new IllegalStateException(
                                            "coordinator refused " + kind + ": " + ack)));
        } else if (!ok) {
            LOG.debug(
                    "Lane A reader {} could not deliver {}: {}",
                    mailbox.attemptId(),
                    kind,
                    err != null ? err.toString() : ack);
        }
    }
}
