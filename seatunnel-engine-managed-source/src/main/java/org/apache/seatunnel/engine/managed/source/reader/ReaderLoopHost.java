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
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * What a host (the Zeta binding, or a test driver) provides to a {@link ReaderEventLoop}.
 *
 * <p>Threading: every method is called by the loop, on whichever thread is driving it, one at a
 * time. Implementations must not block on remote calls (invariant 3): acknowledgements to the
 * coordinator are sent asynchronously.
 */
public interface ReaderLoopHost<SplitT extends SourceSplit> {

    /** Decodes a SPLIT_ASSIGNMENT payload with the connector's versioned split serializer. */
    List<SplitT> decodeSplits(SourceCommandEnvelope assignment) throws Exception;

    /** Decodes a SOURCE_EVENT payload. */
    SourceEvent decodeSourceEvent(SourceCommandEnvelope event) throws Exception;

    /**
     * A barrier's snapshot succeeded: register state, acknowledge and forward, in that order. Only
     * called after every command admitted before the barrier was applied (invariant 4).
     *
     * @return the snapshot in the form the host hands its engine, which the loop returns from
     *     {@link ReaderEventLoop#runControlsUntilBarrier} (null for a host that keeps none)
     */
    ReaderSnapshot onCheckpoint(long checkpointId, List<SplitT> splitState, ReaderCheckpointCut cut)
            throws Exception;

    /** A barrier could not be snapshotted (terminal preemption or connector failure). */
    void onCheckpointFailed(long checkpointId, Throwable cause);

    /** A coordinator command was applied once: flow-control acknowledgement, not durability. */
    void onApplied(SourceCommandEnvelope command);

    /**
     * A poll turn returned (records and split state advanced together). Called after every turn, so
     * it must be cheap: the attempt reports the connector's split backlog when it fell far.
     */
    default void onTurnEnded() {}

    /** The reader reported end of input; the host tells the engine this subtask is done. */
    void onEndOfInput();

    /**
     * The turn in which the connector marked a schema change has returned: the host triggers a
     * schema-change checkpoint for request {@code epoch} (the loop binds the next barrier it takes
     * and runs no poll turn until that checkpoint completed). A host whose engine triggers the
     * checkpoint by itself when the mark reaches its collector (Zeta 2.3.8) returns from its engine
     * call instead. Throwing fails the attempt with {@code SCHEMA_CHANGE_FAILED}.
     */
    default void onSchemaChangeRequested(SchemaChangeMark mark, long epoch) {}
}
