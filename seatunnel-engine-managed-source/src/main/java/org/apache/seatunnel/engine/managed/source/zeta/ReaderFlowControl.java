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

package org.apache.seatunnel.engine.managed.source.zeta;

import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.reader.BackpressureMetrics;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderDriver;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Zeta's {@link ReaderDriver.FlowControl}: what the reader host does between poll turns, checkpoint
 * lock released, so that neither a barrier nor a full output waits behind the lock: it hands the
 * lock to an announced barrier ({@link BarrierHandoff}) and waits for room when the queue to the
 * next task holds its bound ({@link OutputQueueGate}).
 *
 * <p>Threading: task thread T only; built on the first {@code pollNext}, when the engine's
 * collector (and so its queue) is first seen.
 */
final class ReaderFlowControl implements ReaderDriver.FlowControl {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderFlowControl.class);

    private final BarrierHandoff handoff;
    // Null when the output's room cannot be seen: turns then run as before.
    private final OutputQueueGate gate;
    private final ReaderMailbox mailbox;
    private final LoopSignal signal;

    private ReaderFlowControl(
            BarrierHandoff handoff,
            OutputQueueGate gate,
            ReaderMailbox mailbox,
            LoopSignal signal) {
        this.handoff = handoff;
        this.gate = gate;
        this.mailbox = mailbox;
        this.signal = signal;
    }

    /** Binds to the engine's collector and sets the loop's output gate. */
    static ReaderFlowControl bind(
            Object collector,
            ReaderEventLoop<?, ?> loop,
            ReaderMailbox mailbox,
            LoopSignal signal,
            ManagedSourceConfig cfg,
            BackpressureMetrics metrics) {
        EngineBinding.OutputQueues queues;
        try {
            queues = EngineBinding.running().outputQueues(collector);
        } catch (RuntimeException e) {
            LOG.warn(
                    "Lane A reader {} cannot see its output queue; turns are not cut for a full"
                            + " output ({})",
                    loop.identity(),
                    e.getMessage());
            queues = null;
        }
        OutputQueueGate gate = null;
        if (queues != null) {
            gate =
                    new OutputQueueGate(
                            queues.queues(),
                            queues.capacity(),
                            cfg.outputInFlightTargetNanos(),
                            NanoClock.SYSTEM,
                            metrics);
            loop.setOutputGate(gate);
        }
        LOG.debug(
                "Lane A reader {}: output queue {}",
                loop.identity(),
                queues == null ? "not visible" : "of " + queues.capacity() + " rows");
        return new ReaderFlowControl(
                new BarrierHandoff(mailbox, signal, cfg.barrierHandoffNanos(), metrics),
                gate,
                mailbox,
                signal);
    }

    /** Hands the lock to an announced barrier; see {@link BarrierHandoff}. */
    @Override
    public void awaitAnnouncedBarrier() {
        handoff.awaitAnnouncedBarrier();
    }

    /** See {@link BarrierHandoff#turnEnded}. */
    @Override
    public void turnEnded(boolean leftWork) {
        handoff.turnEnded(leftWork);
    }

    /** See {@link BarrierHandoff#readerIdled}. */
    @Override
    public void readerIdled() {
        handoff.readerIdled();
    }

    /** True when the last turn ended because the output had no room. */
    @Override
    public boolean outputBlocked() {
        return gate != null && gate.isBlocked();
    }

    /** Waits for output room, at most {@code maxNanos}; see {@link OutputQueueGate#awaitRoom}. */
    @Override
    public void awaitRoom(long maxNanos) {
        if (gate != null) {
            gate.awaitRoom(signal, mailbox, maxNanos);
        }
    }
}
