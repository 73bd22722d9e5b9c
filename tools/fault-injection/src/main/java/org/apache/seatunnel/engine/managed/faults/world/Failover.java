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

import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;

/**
 * Turns a {@link MiniEngine} step's failures into restores, as Zeta restores a pipeline: it keeps
 * the first failure of a step (a schedule's failover or rescale, an injected crash, a failed
 * coordinator, a reader attempt that terminated) and, before the step returns, closes the reader
 * attempts, drops the sink's uncommitted rows and starts a new epoch from the last completed
 * checkpoint (from scratch without checkpoints), until no failure is left.
 *
 * <p>Threading: confined to the run's thread.
 */
final class Failover {
    /** Restores in one step before the run gives up: each restore that fails again is one more. */
    private static final int MAX_RESTORES_PER_STEP = 100;

    private final MiniEngine engine;
    private final PipelineStarter starter;
    private final RunTrace trace;
    private String pending;

    Failover(MiniEngine engine, PipelineStarter starter, RunTrace trace) {
        this.engine = engine;
        this.starter = starter;
        this.trace = trace;
    }

    /** The pipeline fails for {@code reason}; the first reason of a step is the restore's. */
    void request(String reason) {
        if (pending == null) {
            pending = reason;
        }
        trace.add("failure: " + reason);
    }

    boolean pending() {
        return pending != null;
    }

    /** Restores until no failure is pending and no reader attempt has terminated. */
    void restoreUntilSettled() {
        for (int guard = 0; ; guard++) {
            if (pending == null) {
                for (ReaderTask t : engine.readers) {
                    if (t.terminalSignal() != null) {
                        readerTerminated(t);
                        break;
                    }
                }
            }
            if (pending == null) {
                return;
            }
            if (guard > MAX_RESTORES_PER_STEP) {
                throw engine.fail("restores never settle");
            }
            restore();
        }
    }

    /**
     * A reader attempt ended with a terminal signal: the pipeline restores, unless the signal is
     * one that only a sender other than the runtime's own may cause (a gap in the coordinator's
     * sequences the applied-command ledger cannot hold): that is a defect of the runtime.
     */
    void readerTerminated(ReaderTask t) {
        TerminalSignal signal = t.terminalSignal();
        if (signal != null && signal.reason() == ReasonCode.LEDGER_GAPS_EXCEEDED) {
            throw engine.fail(
                    t.name() + " terminated: " + signal + " (the runtime's sender left gaps)");
        }
        request(t.name() + " terminated: " + signal);
    }

    private void restore() {
        String why = pending;
        pending = null;
        trace.restored(why);
        for (ReaderTask t : engine.readers) {
            t.close();
        }
        engine.sink.discardUncommitted();
        engine.checkpoints.onRestore();
        CheckpointDriver.Completed from =
                engine.config.checkpointsEnabled() ? engine.checkpoints.lastCompleted() : null;
        long epoch = starter.nextEpoch(from);
        int parallelism = starter.nextParallelism(engine.parallelism());
        int n = trace.restores();
        trace.add(
                "restore #"
                        + n
                        + " epoch "
                        + epoch
                        + " p="
                        + parallelism
                        + " from "
                        + (from == null ? "scratch" : "checkpoint " + from.id())
                        + " ("
                        + why
                        + ")");
        engine.startEpoch(epoch, parallelism, from);
        engine.checkOwnership("after restore #" + n + " (" + why + ")");
    }
}
