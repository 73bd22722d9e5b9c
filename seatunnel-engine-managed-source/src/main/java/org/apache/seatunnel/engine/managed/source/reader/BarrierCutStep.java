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

import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * The barrier cut of one reader attempt: at a barrier every command admitted before it and not held
 * by the cut rule has been applied; commands held by the {@link CheckpointCutGate} that were cut
 * before it are applied now; then the reader and the runtime cut are snapshotted, and only then
 * does the host register, acknowledge and forward (invariant 4). Commands held for this barrier are
 * released after it. Also fails the attempt when a held command waited past {@code
 * reader.cut-hold-timeout}.
 *
 * <p>Threading: the loop's driving thread only (whichever thread drives the loop, one at a time).
 */
final class BarrierCutStep<SplitT extends SourceSplit> {
    private final ReaderEventLoop<?, SplitT> loop;
    private final ReaderMailbox mailbox;
    private final ManagedSourceReader<?, SplitT> reader;
    private final ReaderLoopHost<SplitT> host;
    private final ReaderLoopMetrics metrics;
    private final CheckpointCutGate cutGate;
    private final CommandApplier<SplitT> commands;
    private final SchemaChangeSteps schema;
    private final OffLoopWindow<SplitT> offLoop;
    private final PollScheduler polls;

    BarrierCutStep(
            ReaderEventLoop<?, SplitT> loop,
            ManagedSourceReader<?, SplitT> reader,
            ReaderLoopHost<SplitT> host,
            ReaderLoopMetrics metrics,
            CheckpointCutGate cutGate,
            CommandApplier<SplitT> commands,
            SchemaChangeSteps schema,
            OffLoopWindow<SplitT> offLoop,
            PollScheduler polls) {
        this.loop = loop;
        this.mailbox = loop.mailbox();
        this.reader = reader;
        this.host = host;
        this.metrics = metrics;
        this.cutGate = cutGate;
        this.commands = commands;
        this.schema = schema;
        this.offLoop = offLoop;
        this.polls = polls;
    }

    /** Takes barrier {@code checkpointId}; see the class comment. */
    BarrierResult take(long checkpointId) {
        ReaderLifecycle lifecycle = loop.lifecycle();
        if (mailbox.terminalSignal() != null || !lifecycle.acceptsBarriers()) {
            return failed(
                    checkpointId,
                    new IllegalStateException(
                            "reader attempt " + mailbox.attemptId() + " is " + lifecycle));
        }
        // Held commands cut before this barrier belong to this checkpoint.
        cutGate.release(checkpointId - 1, commands, mailbox);
        if (mailbox.terminalSignal() != null) {
            return failed(checkpointId, new IllegalStateException("terminated"));
        }
        List<SplitT> state;
        try {
            state = reader.snapshotState(checkpointId);
        } catch (Throwable e) {
            BarrierResult failed = failed(checkpointId, e);
            ConnectorFailures.failConnector(mailbox, e);
            return failed;
        }
        ReaderCheckpointCut cut = commands.cut(checkpointId);
        ReaderSnapshot snapshot;
        try {
            snapshot = host.onCheckpoint(checkpointId, state, cut);
        } catch (Throwable e) {
            return failed(checkpointId, e);
        }
        metrics.checkpoints.incrementAndGet();
        offLoop.atBarrier(checkpointId, state);
        cutGate.barrierTaken(checkpointId);
        schema.barrierTaken(checkpointId);
        // A barrier is a command too: an idle reader is polled after it.
        polls.want();
        cutGate.release(cutGate.releasedCut(), commands, mailbox);
        return BarrierResult.taken(checkpointId, snapshot);
    }

    private BarrierResult failed(long checkpointId, Throwable cause) {
        host.onCheckpointFailed(checkpointId, cause);
        return BarrierResult.failed(checkpointId, cause);
    }

    /** Fails the attempt if a held command waited longer than {@code reader.cut-hold-timeout}. */
    void checkHoldTimeout() {
        long overdueCut = cutGate.overdueCut();
        if (overdueCut >= 0) {
            ConnectorFailures.fail(
                    mailbox,
                    ReasonCode.CUT_HOLD_TIMEOUT,
                    new IllegalStateException(
                            "a command cut at coordinator checkpoint "
                                    + overdueCut
                                    + " waited longer than reader.cut-hold-timeout for this"
                                    + " reader's barrier; failing the attempt so the job restores"
                                    + " rather than risk a duplicate split"));
        }
    }
}
