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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of one Lane A reader subtask, engine-neutral: its mailbox, its event loop around the
 * connector's reader, the local commands engine callbacks become, the snapshot handover from the
 * loop's barrier callback to the engine's snapshot call, and what the attempt tells its coordinator
 * (registration, apply acknowledgements, inclusion reports) through a {@link ReaderUplink}. An
 * engine binding adds only its own threads, locks, transport and metrics registration: the Zeta
 * host ({@code ManagedReaderHost}) and the fault-injection world's reader task both drive this
 * class, so the model tests exercise the code the engine runs.
 *
 * <p>Threading: {@link #start}, {@link #takeBarrier}, {@link #close} and the {@link #loop()} are
 * called by the thread driving the attempt, one call at a time, as {@link ReaderEventLoop} requires
 * (the Zeta host holds the engine's checkpoint lock around each); the snapshot handover relies on
 * the loop's barrier callback running inside {@link #takeBarrier} on that thread. {@link
 * #notifyCheckpointComplete}, {@link #notifyCheckpointAborted}, {@link #register}, {@link
 * #sendToCoordinator} and the {@link #mailbox()}'s offer may be called from any thread. Answers to
 * what the attempt sent complete on the uplink's threads; among other things they record what the
 * last admitted inclusion report proved, in a volatile field the barrier path reads. Life cycle:
 * built → {@link #start} (opens the connector's reader) → {@link #register} → driven → {@link
 * #close}; one instance per attempt, never reused.
 */
public final class ReaderAttempt<T, SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderAttempt.class);

    private final ReaderMailbox mailbox;
    private final LocalCommands local;
    private final ReaderEventLoop<T, SplitT> loop;
    private final LoopSignal signal;
    private final ReaderLoopMetrics loopMetrics;
    private final ReaderIdentity identity;
    private final Serializer<SplitT> splitSerializer;
    private final Serializer<SourceEvent> eventSerializer;
    private final SourceRuntimeCheckpointMetadataSerializer metadataSerializer =
            new SourceRuntimeCheckpointMetadataSerializer();
    private final String capabilityDigest;
    private final ReaderUplink uplink;
    private final SchemaChangeListener schemaChangeListener;
    private final AtomicLong outboundIds = new AtomicLong();
    private final ManagedSourceReader<T, SplitT> connector;
    private final int splitWindow;
    private final AppliedAcks appliedAcks;

    private final AtomicBoolean gracefulCloseOffered = new AtomicBoolean();
    private volatile boolean endOfInput;
    private volatile boolean closed;

    // What the last checkpoint report the coordinator admitted proves: a later cut that proves
    // nothing more is not reported. Written where the report's answer completes, read by the
    // thread that takes a barrier.
    private volatile InclusionProof lastAdmittedReport;

    private ReaderAttempt(Builder<T, SplitT> b) {
        this.signal = b.signal != null ? b.signal : new LoopSignal();
        this.loopMetrics = b.loopMetrics != null ? b.loopMetrics : new ReaderLoopMetrics();
        this.splitSerializer = Objects.requireNonNull(b.splitSerializer, "splitSerializer");
        this.eventSerializer = b.eventSerializer;
        this.capabilityDigest = Objects.requireNonNull(b.capabilityDigest, "capabilityDigest");
        this.uplink = Objects.requireNonNull(b.uplink, "uplink");
        this.schemaChangeListener = b.schemaChangeListener;
        this.connector = Objects.requireNonNull(b.reader, "reader");
        if (b.splitWindow < 0) {
            throw new IllegalArgumentException("a split window is positive, or 0 for none");
        }
        this.splitWindow = b.splitWindow;
        this.appliedAcks = new AppliedAcks(this::sendAppliedAck, splitWindow);
        this.mailbox =
                new ReaderMailbox(
                        b.jobId,
                        b.sourceRuntimeId,
                        b.subtask,
                        b.attemptId,
                        Objects.requireNonNull(b.mailboxLimits, "mailboxLimits"),
                        Objects.requireNonNull(b.workerBudget, "workerBudget"),
                        Objects.requireNonNull(b.clock, "clock"),
                        signal,
                        new ReaderMailboxMetrics());
        this.local = new LocalCommands(mailbox);
        this.identity =
                b.identity != null ? b.identity : ReaderIdentity.unnamed(b.jobId, b.subtask);
        ReaderLoopHost<SplitT> callbacks = new LoopCallbacks();
        this.loop =
                new ReaderEventLoop<>(
                        mailbox,
                        identity,
                        connector,
                        b.hostDecorator == null ? callbacks : b.hostDecorator.apply(callbacks),
                        b.output,
                        Objects.requireNonNull(b.pollBudget, "pollBudget"),
                        Objects.requireNonNull(b.recordSizer, "recordSizer"),
                        loopMetrics);
        if (b.offLoopCheckInterval < 0) {
            throw new IllegalArgumentException("an off-loop check interval is positive, or 0");
        }
        if (b.offLoopCheckInterval > 0) {
            loop.setOffLoopCheck(new OffLoopStateCheck<>(b.offLoopCheckInterval, splitSerializer));
        }
    }

    public static <T, SplitT extends SourceSplit> Builder<T, SplitT> builder() {
        return new Builder<>();
    }

    /** Opens the connector's reader: a fresh start, the engine hands restored state elsewhere. */
    public void start() throws Exception {
        loop.start(0);
    }

    /**
     * Registers this attempt with the coordinator, without waiting. Its answer binds the
     * coordinator epoch ({@link ReaderUplink#registered}); a refused or undeliverable registration
     * fails the attempt ({@code NO_SUCH_TARGET}), since no coordinator would ever assign to it.
     */
    public void register() {
        // The credit window: the mailbox's normal capacity, which only coordinator commands use.
        // The split window only if the connector counts what it holds: a reader whose splits may
        // never end must be able to hold every split it is given.
        MailboxLimits limits = mailbox.limits();
        int windowSplits =
                connector.splitBacklog() >= 0 ? splitWindow : RegistrationPayload.NO_SPLIT_WINDOW;
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
        sent.whenComplete((ack, err) -> delivered(CommandKind.READER_REGISTRATION, ack, err, true));
    }

    private CompletableFuture<AdmissionAck> sendAppliedAck(long watermark, int backlog) {
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
        CompletableFuture<AdmissionAck> sent = uplinkSend(appliedAck(watermark, backlog));
        return fault == FaultAction.DUPLICATE ? uplinkSend(appliedAck(watermark, backlog)) : sent;
    }

    private SourceCommandEnvelope appliedAck(long watermark, int backlog) {
        return toCoordinator(
                        CommandKind.ASSIGNMENT_ACK, AppliedAckPayload.encode(watermark, backlog))
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
     * Hands barrier {@code checkpointId} to the loop behind every command admitted before it, runs
     * the loop's controls until it took the barrier, and returns the snapshot its callback handed
     * over. The loop applies what the barrier follows (held commands cut before it included), then
     * the connector and the cut are snapshotted, and the inclusion report is on its way before this
     * returns.
     *
     * @param publishWaitNanos how long to wait for a producer caught between claiming a mailbox
     *     slot ahead of the barrier and publishing it (0 when nothing offers concurrently)
     */
    public BarrierResult takeBarrier(long checkpointId, long publishWaitNanos) {
        // This thread applies the barrier itself, below: the driver is not woken for it.
        AdmissionAck ack = mailbox.offerApplyingItself(local.barrier(checkpointId));
        if (!ack.status().isAdmitted()) {
            return BarrierResult.refused(checkpointId, ack);
        }
        BarrierResult result = loop.runControlsUntilBarrier(checkpointId, publishWaitNanos);
        // Ends a driver's handoff wait for this announced barrier. A lone reader's driver is woken
        // here; it also looks again when idle: after the engine's final barrier it must stop
        // driving at once (which the graceful close offered with that barrier signals too). A
        // cohort member's driver waits for the whole cohort, whose last barrier wakes the members
        // waiting in the handoff (one waiting for data has nothing to do with it): waking it for
        // each barrier before that only puts it back to sleep, on a member whose cores the
        // engine's barrier threads need. Unless something is left for it: a command the barrier
        // released from the cut gate, or one that came in meanwhile.
        boolean cohortWakes = mailbox.barriers().markTaken(checkpointId);
        if (!cohortWakes || mailbox.hasPendingWork() || loop.heldCommands() > 0) {
            signal.signal();
        }
        return result;
    }

    /**
     * The loop has nothing to do: if the coordinator has not acknowledged everything this attempt
     * applied (an apply acknowledgement was lost on the way), say it again, so a coordinator that
     * waits for credit never waits for an attempt that has nothing left to apply. On the driving
     * thread, between iterations (it reads the loop's ledger).
     */
    public void onIdle() {
        long epoch = uplink.coordinatorEpoch();
        if (epoch > 0) {
            appliedAcks.resend(loop.appliedWatermark(epoch), connector.splitBacklog());
        }
    }

    /** The engine completed a checkpoint; the loop tells the connector once per id. */
    public void notifyCheckpointComplete(long checkpointId) {
        offerLocal(local.checkpointComplete(checkpointId));
    }

    /** The engine aborted a checkpoint. */
    public void notifyCheckpointAborted(long checkpointId) {
        offerLocal(local.checkpointAborted(checkpointId));
    }

    private void offerLocal(SourceCommandEnvelope env) {
        if (closed) {
            return;
        }
        AdmissionAck ack = mailbox.offer(env);
        if (!ack.status().isAdmitted()) {
            LOG.debug(
                    "Lane A reader {} dropped {}: {}", mailbox.attemptId(), env.commandKind(), ack);
        }
    }

    /**
     * Sends a reader-to-coordinator command without waiting, stamped with this attempt and the
     * bound coordinator epoch. A lost registration is fatal ({@code fatalOnFailure}); other losses
     * are recoverable (acks and inclusion reports are re-derived from later checkpoints).
     */
    public void sendToCoordinator(CommandKind kind, byte[] payload, boolean fatalOnFailure) {
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

    /** Sends a checkpoint report; once admitted, later cuts proving no more are not sent. */
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

    /**
     * Sends one of the connector's requests (a split request or a source event) without waiting,
     * numbered {@code sequence} so the coordinator hands a redelivered one to the enumerator once.
     * The caller ({@code OutboundRequests}) bounds, fences and accounts for them.
     */
    public CompletableFuture<AdmissionAck> sendRequest(
            CommandKind kind, long sequence, byte[] payload) {
        return uplink.send(toCoordinator(kind, payload).senderSequence(sequence).build());
    }

    /**
     * The engine will call no more poll turns (a savepoint's or a bounded job's final barrier): the
     * attempt closes gracefully; controls and barriers still run. Idempotent; any thread.
     */
    public void gracefulClose() {
        // Once per attempt: the driver and the barrier call may both see the final barrier.
        if (gracefulCloseOffered.compareAndSet(false, true)) {
            offerLocal(local.gracefulClose());
        }
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

    /** Closes the loop (and the connector's reader) once; offers after it are dropped. */
    public void close() throws Exception {
        closed = true;
        loop.close();
    }

    public ReaderMailbox mailbox() {
        return mailbox;
    }

    public ReaderEventLoop<T, SplitT> loop() {
        return loop;
    }

    /**
     * Signalled on every admitted command, availability and barrier: what an idle driver waits on.
     */
    public LoopSignal signal() {
        return signal;
    }

    public ReaderLoopMetrics loopMetrics() {
        return loopMetrics;
    }

    public ReaderIdentity identity() {
        return identity;
    }

    public long attemptId() {
        return mailbox.attemptId();
    }

    public int subtask() {
        return mailbox.subtask();
    }

    /** True once the connector reported end of input. */
    public boolean reachedEndOfInput() {
        return endOfInput;
    }

    /** The loop's callbacks: decoding, the snapshot handover and the acknowledgements. */
    private final class LoopCallbacks implements ReaderLoopHost<SplitT> {

        @Override
        public List<SplitT> decodeSplits(SourceCommandEnvelope assignment) throws IOException {
            if (assignment.payloadVersion() != AssignmentPayload.VERSION) {
                throw new IOException(
                        "split assignment payload version "
                                + assignment.payloadVersion()
                                + " is not "
                                + AssignmentPayload.VERSION);
            }
            List<byte[]> encoded = AssignmentPayload.decode(assignment.payload());
            List<SplitT> splits = new ArrayList<>(encoded.size());
            for (byte[] b : encoded) {
                splits.add(splitSerializer.deserialize(b));
            }
            return splits;
        }

        @Override
        public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) throws IOException {
            if (eventSerializer == null) {
                throw new IllegalStateException(
                        "received a source event but the connector declares no event serializer");
            }
            return eventSerializer.deserialize(event.copyPayload());
        }

        @Override
        public ReaderSnapshot onCheckpoint(
                long checkpointId, List<SplitT> splitState, ReaderCheckpointCut cut)
                throws IOException {
            List<String> ids = new ArrayList<>(splitState.size());
            List<byte[]> splits = new ArrayList<>(splitState.size());
            for (SplitT s : splitState) {
                ids.add(s.splitId());
                splits.add(splitSerializer.serialize(s));
            }
            byte[] meta = metadataSerializer.serialize(cut.toMetadata(capabilityDigest));
            ReaderSnapshot snapshot =
                    new ReaderSnapshot(checkpointId, mailbox.subtask(), ids, splits, meta);
            // The inclusion proof the coordinator's tracker waits for; fire-and-forget. A cut that
            // proves only what an admitted report already proved is not sent: the tracker marked
            // those assignments included then, and an inclusion stays valid for every later
            // checkpoint (a reader's applied commands only grow), so the report would change
            // nothing there. Most checkpoints of a running job are such; they would cost the
            // barrier path a report per reader and the coordinator a batch to decode.
            InclusionProof proof = new InclusionProof(uplink.coordinatorEpoch(), cut);
            if (proof.equals(lastAdmittedReport)) {
                loopMetrics.reportsUnchanged.incrementAndGet();
            } else {
                sendReport(meta, proof);
            }
            return snapshot;
        }

        @Override
        public void onCheckpointFailed(long checkpointId, Throwable cause) {
            // The loop returns the failure with the barrier's result.
        }

        @Override
        public void onApplied(SourceCommandEnvelope command) {
            // Every sequenced coordinator command takes credit: say how far this attempt got.
            appliedAcks.applied(
                    loop.appliedWatermark(command.coordinatorEpoch()), connector.splitBacklog());
        }

        @Override
        public void onTurnEnded() {
            appliedAcks.backlog(connector.splitBacklog());
        }

        @Override
        public void onSchemaChangeRequested(SchemaChangeMark mark, long epoch) {
            if (schemaChangeListener != null) {
                schemaChangeListener.requested(mark, epoch);
            }
        }

        @Override
        public void onEndOfInput() {
            endOfInput = true;
            // The last word on what this attempt applied, whatever happened to earlier ones.
            onIdle();
            LOG.info(
                    "Lane A reader subtask {} attempt {} reached end of input",
                    mailbox.subtask(),
                    mailbox.attemptId());
        }
    }

    /**
     * Builder of one attempt. Required: ids, limits, clock, reader, serializer, budgets, record
     * sizer, capability digest and uplink. Not thread-safe.
     */
    public static final class Builder<T, SplitT extends SourceSplit> {
        private long jobId;
        private long sourceRuntimeId;
        private int subtask;
        private long attemptId;
        private MailboxLimits mailboxLimits;
        private WorkerMailboxBudget workerBudget;
        private NanoClock clock;
        private LoopSignal signal;
        private ReaderLoopMetrics loopMetrics;
        private ReaderIdentity identity;
        private ManagedSourceReader<T, SplitT> reader;
        private Collector<T> output;
        private PollBudget pollBudget;
        private ToLongFunction<T> recordSizer;
        private Serializer<SplitT> splitSerializer;
        private Serializer<SourceEvent> eventSerializer;
        private String capabilityDigest;
        private ReaderUplink uplink;
        private UnaryOperator<ReaderLoopHost<SplitT>> hostDecorator;
        private SchemaChangeListener schemaChangeListener;
        private int splitWindow;
        private int offLoopCheckInterval;

        private Builder() {}

        /** Job, source runtime, subtask and attempt ids: what every envelope is addressed by. */
        public Builder<T, SplitT> ids(
                long jobId, long sourceRuntimeId, int subtask, long attemptId) {
            this.jobId = jobId;
            this.sourceRuntimeId = sourceRuntimeId;
            this.subtask = subtask;
            this.attemptId = attemptId;
            return this;
        }

        public Builder<T, SplitT> mailboxLimits(MailboxLimits v) {
            this.mailboxLimits = v;
            return this;
        }

        /** The member-wide byte budget every mailbox of the member draws from. */
        public Builder<T, SplitT> workerBudget(WorkerMailboxBudget v) {
            this.workerBudget = v;
            return this;
        }

        public Builder<T, SplitT> clock(NanoClock v) {
            this.clock = v;
            return this;
        }

        /** Optional: the signal an idle driver waits on (default: a new one). */
        public Builder<T, SplitT> signal(LoopSignal v) {
            this.signal = v;
            return this;
        }

        /** Optional: the loop's counters (default: new ones). */
        public Builder<T, SplitT> loopMetrics(ReaderLoopMetrics v) {
            this.loopMetrics = v;
            return this;
        }

        /** Optional: how warnings name the reader (default: job id and subtask). */
        public Builder<T, SplitT> identity(ReaderIdentity v) {
            this.identity = v;
            return this;
        }

        public Builder<T, SplitT> reader(ManagedSourceReader<T, SplitT> v) {
            this.reader = v;
            return this;
        }

        /** Optional: the collector, if known now; an engine may bind it per call instead. */
        public Builder<T, SplitT> output(Collector<T> v) {
            this.output = v;
            return this;
        }

        public Builder<T, SplitT> pollBudget(PollBudget v) {
            this.pollBudget = v;
            return this;
        }

        public Builder<T, SplitT> recordSizer(ToLongFunction<T> v) {
            this.recordSizer = v;
            return this;
        }

        public Builder<T, SplitT> splitSerializer(Serializer<SplitT> v) {
            this.splitSerializer = v;
            return this;
        }

        /** Optional: the connector's source-event serializer, if it declares one. */
        public Builder<T, SplitT> eventSerializer(Serializer<SourceEvent> v) {
            this.eventSerializer = v;
            return this;
        }

        /** The capability digest recorded in the checkpoint metadata (the planned one). */
        public Builder<T, SplitT> capabilityDigest(String v) {
            this.capabilityDigest = v;
            return this;
        }

        public Builder<T, SplitT> uplink(ReaderUplink v) {
            this.uplink = v;
            return this;
        }

        /**
         * Optional: wraps the callbacks the loop sees (the fault-injection world puts its fault
         * points between the loop and the attempt this way).
         */
        public Builder<T, SplitT> hostDecorator(UnaryOperator<ReaderLoopHost<SplitT>> v) {
            this.hostDecorator = v;
            return this;
        }

        /**
         * Optional: told on the loop's thread when the connector marked a schema change, for an
         * engine binding that must return to its engine so the engine triggers the schema-change
         * checkpoint (Zeta 2.3.8).
         */
        public Builder<T, SplitT> schemaChangeListener(SchemaChangeListener v) {
            this.schemaChangeListener = v;
            return this;
        }

        /**
         * Optional: the split window to offer the coordinator ({@code reader.split-window}): the
         * most splits this attempt wants to hold unread, if its connector counts them ({@link
         * ManagedSourceReader#splitBacklog()}). 0 (the default) offers none.
         */
        public Builder<T, SplitT> splitWindow(int v) {
            this.splitWindow = v;
            return this;
        }

        /**
         * Optional: {@code reader.off-loop-check}: compare the reader's state at one barrier in
         * this many with its state at the next call into the reader (see {@link
         * OffLoopStateCheck}). 0 (the default) turns the check off.
         */
        public Builder<T, SplitT> offLoopCheckInterval(int v) {
            this.offLoopCheckInterval = v;
            return this;
        }

        public ReaderAttempt<T, SplitT> build() {
            return new ReaderAttempt<>(this);
        }
    }

    /** What an engine binding does when the connector marked a schema change. */
    public interface SchemaChangeListener {
        /** See {@link ReaderLoopHost#onSchemaChangeRequested}. */
        void requested(SchemaChangeMark mark, long epoch);
    }

    /**
     * What a checkpoint report proves to the coordinator's tracker: the assignments of this attempt
     * applied under each coordinator epoch and whether no-more-splits was applied, for the
     * coordinator epoch the reader is bound to. Two cuts with equal proofs differ only in their
     * checkpoint id. Immutable.
     */
    static final class InclusionProof {
        private final long coordinatorEpoch;
        private final long attemptId;
        private final java.util.Map<Long, Long> watermarks;
        private final java.util.Map<Long, List<Long>> aboveWatermark;
        private final long noMoreSplitsGeneration;

        InclusionProof(long coordinatorEpoch, ReaderCheckpointCut cut) {
            this.coordinatorEpoch = coordinatorEpoch;
            this.attemptId = cut.attemptId();
            // The cut's maps are copies made for it and never changed.
            this.watermarks = cut.appliedSenderWatermarks();
            this.aboveWatermark = cut.appliedAboveWatermark();
            this.noMoreSplitsGeneration = cut.noMoreSplitsGeneration();
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof InclusionProof)) {
                return false;
            }
            InclusionProof p = (InclusionProof) o;
            return coordinatorEpoch == p.coordinatorEpoch
                    && attemptId == p.attemptId
                    && noMoreSplitsGeneration == p.noMoreSplitsGeneration
                    && watermarks.equals(p.watermarks)
                    && aboveWatermark.equals(p.aboveWatermark);
        }

        @Override
        public int hashCode() {
            return Objects.hash(coordinatorEpoch, attemptId, noMoreSplitsGeneration, watermarks);
        }
    }
}
