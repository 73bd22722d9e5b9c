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

package org.apache.seatunnel.engine.managed.source.transport;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The receiving side of one source coordinator on its member: reader-to-coordinator commands
 * ({@code READER_REGISTRATION}, {@code SPLIT_REQUEST}, {@code SPLITS_RETURNED}, {@code
 * READER_EVENT}, {@code ASSIGNMENT_ACK}, {@code READER_CHECKPOINTED}; see {@link
 * SourceCommandTransportAdapter#isCoordinatorBound}) addressed to its {@code sourceRuntimeId}
 * arrive here.
 *
 * <p>Threading: {@link #onReaderCommand} is called on a Hazelcast operation thread (or inline on
 * the sender's thread when the reader is on the same member), possibly by several threads at once.
 * Implementations only validate and enqueue into the coordinator loop's bounded inbox, then answer
 * at once: no connector or enumerator code, no locks held across waits, no blocking, no sleeping. A
 * full inbox answers {@code RETRY_LATER}; the sender retries.
 */
public interface CoordinatorEndpoint<M> {

    /**
     * Admits one decoded command.
     *
     * @param env the decoded, checksum-verified envelope
     * @param from the member that sent it (this member's own address for a local send)
     * @return the admission answer sent back to the reader's member
     */
    AdmissionAck onReaderCommand(SourceCommandEnvelope env, M from);

    /**
     * A reader of this source on this member was told by the engine that checkpoint {@code
     * checkpointId} completed. The engine stores a checkpoint before it tells any task, so this is
     * proof of completion; the coordinator acts on the first such notice, the reader's or its own
     * (see {@code CheckpointCompletionGate}). Called on the operation thread that delivers the
     * reader's callback: only enqueues.
     */
    default void checkpointCompletedAtReader(long checkpointId) {}

    /**
     * The member is shutting down: close the coordinator (and the connector's enumerator) on its
     * own loop and wait for that, at most {@code timeoutNanos}, before the member stops the loop
     * threads. Called once, on the member's shutdown thread; the engine's own later {@code close()}
     * then finds the coordinator closed.
     *
     * @return true if the coordinator closed in time
     */
    default boolean closeForMemberShutdown(long timeoutNanos) throws InterruptedException {
        return true;
    }
}
