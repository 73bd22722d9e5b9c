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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.reader.BarrierResult;
import org.apache.seatunnel.engine.managed.source.reader.ReaderAttempt;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.TerminalSignal;

/**
 * Zeta's {@code snapshotState} for a Lane A reader: takes the barrier through the attempt, turns a
 * refused or failed barrier into the error the engine should report (waiting for the engine's close
 * when the attempt failed earlier, see {@link ReaderHostErrors#failedBarrier}), and returns the
 * snapshot in Zeta's state form.
 *
 * <p>Threading: the engine's barrier thread A, holding the checkpoint lock, one barrier at a time.
 * Stateless but for its final references.
 */
final class ReaderBarrierCall {
    private static final long BARRIER_PUBLISH_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ReaderAttempt<?, ?> attempt;
    private final ReaderHostErrors errors;
    private final long jobId;
    private final int subtask;

    ReaderBarrierCall(ReaderAttempt<?, ?> attempt, ReaderHostErrors errors, long jobId) {
        this.attempt = attempt;
        this.errors = errors;
        this.jobId = jobId;
        this.subtask = attempt.subtask();
    }

    /**
     * Takes barrier {@code checkpointId}.
     *
     * @param finalBarrier the engine latched prepare-close for this barrier and calls {@code
     *     pollNext} no more: the attempt closes gracefully first
     */
    List<ManagedSplit> snapshotState(long checkpointId, boolean finalBarrier)
            throws InterruptedException {
        long start = System.nanoTime();
        if (finalBarrier) {
            attempt.gracefulClose();
        }
        boolean aliveBefore = attempt.loop().terminalSignal() == null;
        BarrierResult barrier = attempt.takeBarrier(checkpointId, BARRIER_PUBLISH_WAIT_NANOS);
        if (barrier.refusal() != null) {
            // A barrier refused because the attempt already failed reports that failure: the
            // engine may see this checkpoint error before the task's own and report it as the
            // job's error.
            TerminalSignal t = attempt.loop().terminalSignal();
            if (t != null && t.kind() == TerminalSignal.Kind.FATAL) {
                throw errors.failedBarrier(t, checkpointId);
            }
            throw new IllegalStateException(
                    "Checkpoint "
                            + checkpointId
                            + " barrier was not admitted: "
                            + barrier.refusal());
        }
        RuntimeObservers.barrierTaken(System.nanoTime() - start);
        ReaderSnapshot state = barrier.snapshot();
        TerminalSignal terminal = attempt.loop().terminalSignal();
        if (state == null && terminal != null && terminal.kind() == TerminalSignal.Kind.FATAL) {
            if (aliveBefore) {
                // This barrier's own snapshot failed the attempt. The task thread could close the
                // reader only in a turn under the checkpoint lock this thread holds, so waiting for
                // that close would always last poll.cancellation-timeout; the error names the
                // cause.
                throw errors.notTaken(terminal, checkpointId);
            }
            throw errors.failedBarrier(terminal, checkpointId);
        }
        if (state == null) {
            throw new IllegalStateException(
                    "Lane A reader subtask "
                            + subtask
                            + " could not take checkpoint "
                            + checkpointId,
                    barrier.failure());
        }
        if (FaultSeam.INSTALLED != null) {
            injectBeforeStateRegistration(checkpointId);
        }
        return managedSplits(state);
    }

    /** Fault point 8, tests only: the snapshot was taken, the engine has not got it. */
    private void injectBeforeStateRegistration(long checkpointId) throws InterruptedException {
        FaultSite site = FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION;
        FaultAction f = FaultSeam.at(site, jobId, subtask, "checkpoint " + checkpointId);
        if (f == FaultAction.CRASH) {
            throw new InjectedFaultException(site, f);
        }
        if (f == FaultAction.STALL) {
            FaultSeam.hold(site);
        }
    }

    /**
     * The snapshot in Zeta's state form: one {@link ManagedSplit} per connector split, then the
     * runtime metadata, tagged with this subtask so that a restore with a changed parallelism can
     * tell the owners apart.
     */
    private static List<ManagedSplit> managedSplits(ReaderSnapshot state) {
        List<ManagedSplit> out = new ArrayList<>(state.splitCount() + 1);
        for (int i = 0; i < state.splitCount(); i++) {
            out.add(ManagedSplit.connector(state.splitId(i), state.split(i)));
        }
        out.add(ManagedSplit.metadata(state.subtask(), state.metadata()));
        return out;
    }
}
