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

package org.apache.seatunnel.engine.managed.faults;

import java.util.List;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopHost;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;

/**
 * Wraps the host of one reader attempt with fault point 7 (the apply acknowledgement is lost,
 * duplicated or delayed) and fault point 8 (the host took the snapshot and sent its inclusion
 * report, then fails before the engine registers the state: the loop's {@code onCheckpointFailed}
 * runs and the barrier fails with an {@link InjectedFault} whose action says whether the task
 * crashes or the checkpoint merely never completes).
 *
 * <p>Threading: called by the reader loop on its driving thread, one call at a time, as every
 * {@link ReaderLoopHost}; a delayed apply acknowledgement runs later on the run's thread through
 * the {@link Transport}. Stateless besides the injector's counters.
 */
public final class FaultInjectingReaderHost<SplitT extends SourceSplit>
        implements ReaderLoopHost<SplitT> {
    private final ReaderLoopHost<SplitT> host;
    private final FaultInjector faults;
    private final Transport transport;
    private final String name;

    public FaultInjectingReaderHost(
            ReaderLoopHost<SplitT> host, FaultInjector faults, Transport transport, String name) {
        this.host = host;
        this.faults = faults;
        this.transport = transport;
        this.name = name;
    }

    @Override
    public List<SplitT> decodeSplits(SourceCommandEnvelope assignment) throws Exception {
        return host.decodeSplits(assignment);
    }

    @Override
    public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) throws Exception {
        return host.decodeSourceEvent(event);
    }

    @Override
    public ReaderSnapshot onCheckpoint(
            long checkpointId, List<SplitT> splitState, ReaderCheckpointCut cut) throws Exception {
        ReaderSnapshot snapshot = host.onCheckpoint(checkpointId, splitState, cut);
        String where = name + " checkpoint " + checkpointId;
        FaultAction a = faults.at(FaultPoint.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION, where);
        if (a != null) {
            throw new InjectedFault(FaultPoint.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION, a, where);
        }
        return snapshot;
    }

    @Override
    public void onCheckpointFailed(long checkpointId, Throwable cause) {
        host.onCheckpointFailed(checkpointId, cause);
    }

    @Override
    public void onApplied(SourceCommandEnvelope command) {
        FaultAction a =
                faults.at(
                        FaultPoint.APPLY_ACK,
                        name + " " + command.commandKind() + " cmd=" + command.commandId());
        if (a == FaultAction.LOSE) {
            return;
        }
        if (a == FaultAction.DELAY) {
            transport.later(() -> host.onApplied(command));
            return;
        }
        host.onApplied(command);
        if (a == FaultAction.DUPLICATE) {
            host.onApplied(command);
        }
    }

    @Override
    public void onTurnEnded() {
        host.onTurnEnded();
    }

    @Override
    public void onEndOfInput() {
        host.onEndOfInput();
    }
}
