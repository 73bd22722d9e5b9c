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
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReader;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingReaderHost;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.Transport;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.BarrierResult;
import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.OutboundRequests;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderDriver;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.transport.ReaderFence;
import org.apache.seatunnel.engine.managed.source.transport.SenderUplink;

/**
 * One reader subtask attempt of the world: a thin adapter over the runtime's {@link ReaderAttempt}
 * (the same mailbox, loop, snapshot handover, registration and acknowledgements the Zeta host
 * drives), with a {@link RowReader} as the connector and the sink's writer as the collector. Its
 * way to and from the coordinator is the runtime's own: a {@link SenderUplink} over its member's
 * command sender, and a {@link ReaderFence} in its member's registry, which the member's adapter
 * admits coordinator commands through (the network injects points 2–4 on the way). The connector
 * and the attempt's loop callbacks are wrapped with the fault-injecting wrappers (points 5–8). Each
 * {@code pollNext} runs the runtime's {@link ReaderDriver}, the drive policy the Zeta host runs,
 * with the model's {@link ModelFlowControl} between turns.
 *
 * <p>Threading: confined to the run's thread, which plays the task thread T, the checkpoint thread
 * A and the operation threads H of one reader subtask attempt; the run never overlaps two calls, as
 * the Zeta host's checkpoint lock guarantees. Life cycle: {@link #open()} (start the loop and
 * register), steps and barriers, {@link #close()} when the attempt ends.
 */
public final class ReaderTask {
    static final long JOB_ID = 1;
    static final long SOURCE_ID = 1;

    /** {@code reader.max-outstanding-requests}. */
    private static final int MAX_OUTSTANDING_REQUESTS = 4;

    private final int subtask;
    private final long attemptId;
    private final RowReader reader;
    private final ReaderAttempt<String, RowSplit> attempt;
    private final ModelFlowControl flow;
    private final ReaderDriver driver;
    private final ModelMember member;
    private final OutboundRequests requests = new OutboundRequests(MAX_OUTSTANDING_REQUESTS);
    private final ReaderFence<Integer> fence;
    private final RowSplit.Ser splitSer = new RowSplit.Ser();
    private final Object checkpointLock = new Object();
    private final Map<String, RowSplit> admitted = new LinkedHashMap<>();

    private boolean finished;
    private boolean closed;

    ReaderTask(
            MiniEngine engine,
            int subtask,
            long attemptId,
            ModelMember member,
            int coordinatorMember,
            MailboxLimits limits,
            WorkerMailboxBudget budget,
            PollBudget pollBudget,
            int splitWindow,
            int rowsPerTurn,
            FaultInjector faults,
            Transport transport) {
        this.subtask = subtask;
        this.attemptId = attemptId;
        this.member = member;
        String name = "reader " + subtask + "/" + attemptId;
        // The reader context's sendSplitRequest, as the Zeta host's: numbered, bounded requests on
        // the attempt's own lane to the coordinator, behind its registration.
        this.reader = new RowReader(requests::requestSplit, rowsPerTurn);
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
        SenderUplink<Integer> uplink =
                new SenderUplink<>(
                        member.sender, null, coordinatorMember, engine.time()::nowMillis, 60_000);
        this.attempt =
                ReaderAttempt.<String, RowSplit>builder()
                        .ids(JOB_ID, SOURCE_ID, subtask, attemptId)
                        .mailboxLimits(limits)
                        .workerBudget(budget)
                        .clock(engine.time())
                        .reader(new FaultInjectingReader<>(reader, faults, name))
                        .output(output)
                        .pollBudget(pollBudget)
                        .splitWindow(splitWindow)
                        .recordSizer(String::length)
                        .splitSerializer(splitSer)
                        .capabilityDigest(reader.managedSourceCapability().digest())
                        .uplink(uplink)
                        .hostDecorator(
                                h -> new FaultInjectingReaderHost<>(h, faults, transport, name))
                        .build();
        this.flow =
                new ModelFlowControl(
                        engine.time(), name, () -> engine.checkpoints.betweenTurns(subtask));
        // No final barrier: the model's job ends with its readers' end of input.
        this.driver =
                new ReaderDriver(attempt, flow.clock(), pollBudget.idlePollNanos(), () -> false);
        this.fence = new ReaderFence<>(attempt.mailbox(), coordinatorMember);
        uplink.bind(fence);
    }

    /**
     * An assignment this attempt's mailbox admitted: with checkpoints disabled the tracker may
     * forget an assignment once admitted, so the ownership check must find the split here.
     */
    void admitted(SourceCommandEnvelope env) {
        try {
            for (byte[] b : AssignmentPayload.decode(env.payload())) {
                RowSplit s = splitSer.deserialize(b);
                admitted.put(s.splitId(), s);
            }
        } catch (IOException e) {
            throw new IllegalStateException("undecodable assignment", e);
        }
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

    /**
     * Starts the loop fresh (Zeta hands reader state to the enumerator), becomes its member's
     * target for the subtask and registers.
     */
    void open() throws Exception {
        attempt.start();
        member.targets.registerReader(fence);
        attempt.register();
        requests.open(attempt::sendRequest);
    }

    /**
     * One {@code pollNext}, driven by the runtime's {@link ReaderDriver} as the Zeta host drives
     * it: up to its turn cap while rows flow, an idle wait that runs out when nothing is pending.
     * BUSY if its last turn left work for the next call, IDLE if not.
     */
    LoopStatus step() {
        flow.callStarted();
        ReaderDriver.Outcome o;
        try {
            o = driver.drive(checkpointLock, flow);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name() + " interrupted", e);
        }
        switch (o) {
            case FINISHED:
                finished = true;
                return LoopStatus.FINISHED;
            case TERMINATED:
                return LoopStatus.TERMINATED;
            case RETURNED:
                return flow.leftWork() ? LoopStatus.BUSY : LoopStatus.IDLE;
            default:
                throw new IllegalStateException(name() + ": unexpected end of a call " + o);
        }
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
        member.targets.unregisterReader(attempt.mailbox());
        requests.close();
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

    ModelMember member() {
        return member;
    }

    /** The attempt's requests to its coordinator, for failure messages. */
    String describeRequests() {
        return "sent="
                + requests.sent()
                + " outstanding="
                + requests.outstanding()
                + " coalesced="
                + requests.coalesced()
                + " undelivered="
                + requests.undelivered()
                + " fenced="
                + requests.fenced();
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
