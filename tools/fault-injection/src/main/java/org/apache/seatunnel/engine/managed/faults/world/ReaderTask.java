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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingMailbox;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReader;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReaderHost;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.MailboxPort;
import org.apache.seatunnel.engine.managed.faults.Transport;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorEventLoop;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.BarrierResult;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;

/**
 * One reader subtask attempt of the world: a thin adapter over the runtime's {@link ReaderAttempt}
 * (the same mailbox, loop, snapshot handover, registration and acknowledgements the Zeta host
 * drives), with a {@link RowReader} as the connector, the sink's writer as the collector and a
 * {@link CoordinatorLink} as the way to the coordinator. The connector and the attempt's loop
 * callbacks are wrapped with the fault-injecting wrappers (points 5–8), and coordinator commands
 * enter through the fault-injecting admission (point 3).
 *
 * <p>Threading: confined to the run's thread, which plays the task thread T, the checkpoint thread
 * A and the operation threads H of one reader subtask attempt; the run never overlaps two calls, as
 * the Zeta host's checkpoint lock guarantees. Life cycle: {@link #open()} (start the loop and
 * register), steps and barriers, {@link #close()} when the attempt ends.
 */
public final class ReaderTask {
    static final long JOB_ID = 1;
    static final long SOURCE_ID = 1;

    private final int subtask;
    private final long attemptId;
    private final RowReader reader;
    private final ReaderAttempt<String, RowSplit> attempt;
    private final MailboxPort port;
    private final RowSplit.Ser splitSer = new RowSplit.Ser();
    private final Object checkpointLock = new Object();
    private final Map<String, RowSplit> admitted = new LinkedHashMap<>();

    private boolean finished;
    private boolean closed;

    ReaderTask(
            MiniEngine engine,
            int subtask,
            long attemptId,
            long coordinatorEpoch,
            CoordinatorEventLoop<RowSplit, List<RowSplit>> coordinator,
            MailboxLimits limits,
            WorkerMailboxBudget budget,
            PollBudget pollBudget,
            int rowsPerTurn,
            FaultInjector faults,
            Transport transport) {
        this.subtask = subtask;
        this.attemptId = attemptId;
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
        this.attempt =
                ReaderAttempt.<String, RowSplit>builder()
                        .ids(JOB_ID, SOURCE_ID, subtask, attemptId)
                        .mailboxLimits(limits)
                        .workerBudget(budget)
                        .clock(engine.time())
                        .reader(new FaultInjectingReader<>(reader, faults, name))
                        .output(output)
                        .pollBudget(pollBudget)
                        .recordSizer(String::length)
                        .splitSerializer(splitSer)
                        .capabilityDigest(reader.managedSourceCapability().digest())
                        .uplink(new CoordinatorLink(engine, coordinator, coordinatorEpoch))
                        .hostDecorator(
                                h -> new FaultInjectingReaderHost<>(h, faults, transport, name))
                        .build();
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
        AdmissionAck ack = attempt.mailbox().offer(env);
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
        attempt.start();
        attempt.register();
    }

    /** One {@code pollNext}: one loop iteration. */
    LoopStatus step() {
        LoopStatus s = attempt.loop().runOnce();
        if (s == LoopStatus.FINISHED) {
            finished = true;
        }
        return s;
    }

    /**
     * The engine's {@code snapshotState} for barrier {@code checkpointId}, through the attempt's
     * barrier handover as the Zeta host takes it (single-threaded: no producer can be between
     * claiming and publishing a mailbox slot, so no publish wait).
     */
    ReaderSnapshot snapshot(long checkpointId) {
        BarrierResult r = attempt.takeBarrier(checkpointId, 0);
        if (r.refusal() != null) {
            throw new IllegalStateException(
                    "checkpoint " + checkpointId + " barrier was not admitted: " + r.refusal());
        }
        if (r.snapshot() == null) {
            throw new IllegalStateException(
                    name() + " could not take checkpoint " + checkpointId, r.failure());
        }
        return r.snapshot();
    }

    void notifyCheckpointComplete(long checkpointId) {
        attempt.notifyCheckpointComplete(checkpointId);
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            attempt.close();
        } catch (Exception e) {
            throw new IllegalStateException(name() + " did not close", e);
        }
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
        return attempt.mailbox();
    }

    ReaderEventLoop<String, RowSplit> loop() {
        return attempt.loop();
    }

    boolean finished() {
        return finished || attempt.reachedEndOfInput();
    }

    TerminalSignal terminalSignal() {
        return attempt.loop().terminalSignal();
    }

    String name() {
        return "reader " + subtask + " attempt " + attemptId;
    }
}
