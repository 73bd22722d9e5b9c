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
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of one Lane A reader subtask, engine-neutral: its mailbox, its event loop around the
 * connector's reader, the local signals engine callbacks become ({@link LocalSignals}), the
 * snapshot handover from the loop's barrier callback to the engine's snapshot call, and what the
 * attempt tells its coordinator (registration, apply acknowledgements, inclusion reports: {@link
 * CoordinatorMessages}) through a {@link ReaderUplink}. Built by {@link ReaderAttemptBuilder}. An
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
 * what the attempt sent complete on the uplink's threads (see {@link CoordinatorMessages}). The
 * graceful-close flag and the end-of-input and closed flags are atomic or volatile. Life cycle:
 * built → {@link #start} (opens the connector's reader) → {@link #register} → driven → {@link
 * #close}; one instance per attempt, never reused.
 */
public final class ReaderAttempt<T, SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderAttempt.class);

    private final ReaderMailbox mailbox;
    private final LocalSignals local;
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
    private final CoordinatorMessages messages;
    private final ManagedSourceReader<T, SplitT> connector;
    private final int splitWindow;
    private final AppliedAcks appliedAcks;

    private final AtomicBoolean gracefulCloseOffered = new AtomicBoolean();
    private volatile boolean endOfInput;
    private volatile boolean closed;

    ReaderAttempt(ReaderAttemptBuilder<T, SplitT> b) {
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
        this.local = new LocalSignals(mailbox);
        this.messages = new CoordinatorMessages(mailbox, uplink);
        this.appliedAcks = new AppliedAcks(messages::sendAppliedAck, splitWindow);
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

    public static <T, SplitT extends SourceSplit> ReaderAttemptBuilder<T, SplitT> builder() {
        return new ReaderAttemptBuilder<>();
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
        // The split window only if the connector counts what it holds: a reader whose splits may
        // never end must be able to hold every split it is given.
        messages.register(
                connector.splitBacklog() >= 0 ? splitWindow : RegistrationPayload.NO_SPLIT_WINDOW);
    }

    /** See {@link CoordinatorMessages#send}. Any thread. */
    public void sendToCoordinator(CommandKind kind, byte[] payload, boolean fatalOnFailure) {
        messages.send(kind, payload, fatalOnFailure);
    }

    /**
     * Sends one of the connector's requests (a split request or a source event) without waiting,
     * numbered {@code sequence} so the coordinator hands a redelivered one to the enumerator once.
     * The caller ({@code OutboundRequests}) bounds, fences and accounts for them. Any thread.
     */
    public CompletableFuture<AdmissionAck> sendRequest(
            CommandKind kind, long sequence, byte[] payload) {
        return messages.sendRequest(kind, sequence, payload);
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
        AdmissionAck ack = local.barrierApplyingItself(checkpointId);
        if (!ack.status().isAdmitted()) {
            return BarrierResult.refused(checkpointId, ack);
        }
        BarrierResult result = loop.runControlsUntilBarrier(checkpointId, publishWaitNanos);
        // The driver is woken only if the barrier leaves it something to do: a command the barrier
        // released from the cut gate or one that came in meanwhile, the engine's final barrier
        // (after which it must stop driving at once), or the end of its handoff wait. A lone
        // reader's driver waiting in the handoff for this barrier is woken here; a cohort member's
        // waits for the whole cohort, whose last barrier wakes the members waiting in the handoff.
        // A driver waiting for data has nothing to do with a barrier: waking it for each one only
        // puts it back to sleep, a wake-up per checkpoint per reader on a member whose cores the
        // engine's barrier threads need. markTaken publishes the taken barrier before the handoff
        // flag is read, and the driver raises that flag before it reads the taken barrier, so one
        // of the two sees the other.
        boolean cohortWakes = mailbox.barriers().markTaken(checkpointId);
        if (mailbox.hasPendingWork() || loop.heldCommands() > 0 || gracefulCloseOffered.get()) {
            signal.signal();
        } else if (!cohortWakes) {
            mailbox.barriers().wakeDriverInHandoff();
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
            appliedAcks.resend(
                    loop.appliedWatermark(epoch),
                    connector.splitBacklog(),
                    loop.lastProcessedBarrier());
        }
    }

    /** The engine completed a checkpoint; the loop tells the connector once per id. */
    public void notifyCheckpointComplete(long checkpointId) {
        if (!closed) {
            logIfDropped(local.checkpointComplete(checkpointId), "checkpoint complete");
        }
    }

    /** The engine aborted a checkpoint. */
    public void notifyCheckpointAborted(long checkpointId) {
        if (!closed) {
            logIfDropped(local.checkpointAborted(checkpointId), "checkpoint aborted");
        }
    }

    private void logIfDropped(AdmissionAck ack, String signal) {
        if (!ack.status().isAdmitted()) {
            LOG.debug("Lane A reader {} dropped {}: {}", mailbox.attemptId(), signal, ack);
        }
    }

    /**
     * The engine will call no more poll turns (a savepoint's or a bounded job's final barrier): the
     * attempt closes gracefully; controls and barriers still run. Idempotent; any thread.
     */
    public void gracefulClose() {
        // Once per attempt: the driver and the barrier call may both see the final barrier.
        if (gracefulCloseOffered.compareAndSet(false, true) && !closed) {
            logIfDropped(local.gracefulClose(), "graceful close");
        }
    }

    /** Closes the loop (and the connector's reader) once; offers after it are dropped. */
    public void close() throws Exception {
        closed = true;
        messages.abandonRegistration();
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
            if (!messages.reportIfNew(meta, cut)) {
                loopMetrics.reportsUnchanged.incrementAndGet();
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
                    loop.appliedWatermark(command.coordinatorEpoch()),
                    connector.splitBacklog(),
                    loop.lastProcessedBarrier());
        }

        @Override
        public void onTurnEnded() {
            appliedAcks.backlog(connector.splitBacklog(), loop.lastProcessedBarrier());
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

    /** What an engine binding does when the connector marked a schema change. */
    public interface SchemaChangeListener {
        /** See {@link ReaderLoopHost#onSchemaChangeRequested}. */
        void requested(SchemaChangeMark mark, long epoch);
    }
}
