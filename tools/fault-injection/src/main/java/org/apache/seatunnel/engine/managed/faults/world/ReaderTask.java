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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingMailbox;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReader;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReaderHost;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.MailboxPort;
import org.apache.seatunnel.engine.managed.faults.Transport;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LocalCommands;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopHost;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;

/**
 * Threading: confined to the run's thread, which plays the task thread T, the checkpoint thread A
 * and the operation threads H of one reader subtask attempt; the run never overlaps two calls, as
 * the Zeta host's checkpoint lock guarantees. Life cycle: {@link #open()} (start the loop and
 * register), steps and barriers, {@link #close()} when the attempt ends.
 *
 * <p>One reader attempt hosted as {@code ManagedReaderHost} hosts it: a real {@link ReaderMailbox}
 * and {@link ReaderEventLoop} around a {@link RowReader}, barriers offered to the mailbox and run
 * through {@link ReaderEventLoop#runControlsUntilBarrier}, the state checkpointed as serialized
 * splits plus serialized runtime metadata, the inclusion report and apply acknowledgements sent to
 * the coordinator of its epoch. The connector and the host are wrapped with the fault-injecting
 * wrappers (points 5–8), and coordinator commands enter through the fault-injecting admission
 * (point 3).
 */
public final class ReaderTask implements ReaderLoopHost<RowSplit> {
    static final long JOB_ID = 1;
    static final long SOURCE_ID = 1;

    private final MiniEngine engine;
    private final int subtask;
    private final long attemptId;
    private final CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator;
    private final ReaderMailbox mailbox;
    private final LocalCommands local;
    private final RowReader reader;
    private final ReaderEventLoop<String, RowSplit> loop;
    private final MailboxPort port;
    private final RowSplit.Ser splitSer = new RowSplit.Ser();
    private final SourceRuntimeCheckpointMetadataSerializer metaSer =
            new SourceRuntimeCheckpointMetadataSerializer();
    private final Object checkpointLock = new Object();
    private final Map<String, RowSplit> admitted = new LinkedHashMap<>();

    private ReaderState pendingState;
    private Throwable pendingFailure;
    private boolean finished;
    private boolean closed;

    ReaderTask(
            MiniEngine engine,
            int subtask,
            long attemptId,
            CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
            MailboxLimits limits,
            WorkerMailboxBudget budget,
            PollBudget pollBudget,
            int rowsPerTurn,
            FaultInjector faults,
            Transport transport) {
        this.engine = engine;
        this.subtask = subtask;
        this.attemptId = attemptId;
        this.coordinator = coordinator;
        this.mailbox =
                new ReaderMailbox(
                        JOB_ID,
                        SOURCE_ID,
                        subtask,
                        attemptId,
                        limits,
                        budget,
                        engine.time(),
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        this.local = new LocalCommands(mailbox);
        String name = "reader " + subtask + "/" + attemptId;
        // The reader context's sendSplitRequest: an engine call that only enqueues on the loop.
        this.reader =
                new RowReader(
                        () -> coordinator.handleSplitRequest(subtask, attemptId), rowsPerTurn);
        Collector<String> output =
                new Collector<String>() {
                    @Override
                    public void collect(String row) {
                        engine.sink().write(subtask, row);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return checkpointLock;
                    }
                };
        this.loop =
                new ReaderEventLoop<>(
                        mailbox,
                        new FaultInjectingReader<>(reader, faults, name),
                        new FaultInjectingReaderHost<>(this, faults, transport, name),
                        output,
                        pollBudget,
                        String::length,
                        new ReaderLoopMetrics());
        this.port =
                new FaultInjectingMailbox(
                        this::admit, faults, attemptId, limits.retryAfterMillis());
    }

    /**
     * The transport adapter's admission, recording admitted assignments: with checkpoints disabled
     * the tracker forgets an assignment once admitted, so the ownership check must find the split
     * in the mailbox.
     */
    private AdmissionAck admit(SourceCommandEnvelope env) {
        AdmissionAck ack = mailbox.offer(env);
        if (ack.status() == AdmissionStatus.ACCEPTED
                && env.commandKind() == CommandKind.SPLIT_ASSIGNMENT) {
            try {
                RowSplit s = splitSer.deserialize(env.copyPayload());
                admitted.put(s.splitId(), s);
            } catch (IOException e) {
                throw new IllegalStateException("undecodable assignment", e);
            }
        }
        return ack;
    }

    /** Splits admitted to the mailbox whose assignment the connector has not taken yet. */
    List<RowSplit> admittedNotApplied() {
        List<RowSplit> out = new ArrayList<>();
        for (RowSplit s : admitted.values()) {
            if (!reader.wasAdded(s.splitId())) {
                out.add(s);
            }
        }
        return out;
    }

    boolean admittedOrApplied(String splitId) {
        return admitted.containsKey(splitId) || reader.wasAdded(splitId);
    }

    /** Starts the loop fresh (Zeta hands reader state to the enumerator) and registers. */
    void open() throws Exception {
        loop.start(0);
        coordinator.registerReader(subtask, attemptId);
    }

    /** One {@code pollNext}: one loop iteration. */
    LoopStatus step() {
        LoopStatus s = loop.runOnce();
        if (s == LoopStatus.FINISHED) {
            finished = true;
        }
        return s;
    }

    /**
     * The engine's {@code snapshotState} for barrier {@code checkpointId}, as the Zeta host does
     * it: the barrier enters the mailbox behind every admitted command, the loop runs controls
     * until it took the barrier, and the state comes back through {@link #onCheckpoint}.
     */
    ReaderState snapshot(long checkpointId) {
        pendingState = null;
        pendingFailure = null;
        AdmissionAck ack = mailbox.offer(local.barrier(checkpointId));
        if (!ack.status().isAdmitted()) {
            throw new IllegalStateException(
                    "checkpoint " + checkpointId + " barrier was not admitted: " + ack);
        }
        // Single-threaded: no producer can be between claiming and publishing a slot.
        boolean done = loop.runControlsUntilBarrier(checkpointId, 0);
        ReaderState state = pendingState;
        pendingState = null;
        if (!done || state == null || pendingFailure != null) {
            throw new IllegalStateException(
                    name() + " could not take checkpoint " + checkpointId, pendingFailure);
        }
        return state;
    }

    void notifyCheckpointComplete(long checkpointId) {
        offerLocal(local.checkpointComplete(checkpointId));
    }

    private void offerLocal(SourceCommandEnvelope env) {
        if (!closed) {
            mailbox.offer(env);
        }
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            loop.close();
        } catch (Exception e) {
            throw new IllegalStateException(name() + " did not close", e);
        }
    }

    // ------------------------------------------------------------------ ReaderLoopHost

    @Override
    public List<RowSplit> decodeSplits(SourceCommandEnvelope assignment) throws IOException {
        return Collections.singletonList(splitSer.deserialize(assignment.copyPayload()));
    }

    @Override
    public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) {
        throw new IllegalStateException("this source sends no source events");
    }

    @Override
    public void onCheckpoint(long checkpointId, List<RowSplit> splitState, ReaderCheckpointCut cut)
            throws IOException {
        List<byte[]> splits = new ArrayList<>(splitState.size());
        for (RowSplit s : splitState) {
            splits.add(splitSer.serialize(s));
        }
        SourceRuntimeCheckpointMetadata meta =
                RuntimeMetadata.metadata(cut, attemptId, reader.managedSourceCapability().digest());
        byte[] metaBytes = metaSer.serialize(meta);
        pendingState = new ReaderState(subtask, splits, metaBytes);
        // The inclusion proof, fire-and-forget over the transport (READER_CHECKPOINTED); the
        // coordinator decodes the metadata bytes it receives.
        engine.reportInclusion(
                coordinator,
                RuntimeMetadata.inclusion(
                        ReaderInclusionReport.Kind.CHECKPOINT,
                        subtask,
                        attemptId,
                        metaSer.deserialize(metaBytes)));
    }

    @Override
    public void onCheckpointFailed(long checkpointId, Throwable cause) {
        pendingFailure = cause;
    }

    @Override
    public void onApplied(SourceCommandEnvelope command) {
        if (command.commandKind() == CommandKind.SPLIT_ASSIGNMENT) {
            coordinator.assignmentApplied(subtask, attemptId, command.commandId());
        }
    }

    @Override
    public void onEndOfInput() {
        finished = true;
    }

    // ------------------------------------------------------------------ views

    int subtask() {
        return subtask;
    }

    long attemptId() {
        return attemptId;
    }

    MailboxPort port() {
        return port;
    }

    RowReader reader() {
        return reader;
    }

    ReaderMailbox mailbox() {
        return mailbox;
    }

    ReaderEventLoop<String, RowSplit> loop() {
        return loop;
    }

    boolean finished() {
        return finished;
    }

    TerminalSignal terminalSignal() {
        return loop.terminalSignal();
    }

    String name() {
        return "reader " + subtask + " attempt " + attemptId;
    }
}
