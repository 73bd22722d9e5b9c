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

package org.apache.seatunnel.engine.managed.source.coordinator;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The coordinator's view of the command transport (in Zeta: our own Hazelcast operation to the
 * reader's member, answered by the reader mailbox's admission).
 *
 * <p>Threading: {@link #dispatch} is called on the coordinator loop and must not block: it starts
 * the send and returns. The callback may run on any thread (even inline, before {@code dispatch}
 * returns); the loop only re-enqueues it. Every dispatch must end in exactly one callback: an
 * admission answer, or a transport failure when the answer is unknown (timeout, member gone). A
 * failure does not mean the command was not admitted; the loop resends the same command id, which
 * the reader deduplicates.
 */
public interface CommandDispatcher {

    void dispatch(SourceCommandEnvelope envelope, AckCallback callback);

    /** Receives the outcome of one dispatch. Any thread; implementations only enqueue. */
    interface AckCallback {
        void onAdmission(AdmissionAck ack);

        void onTransportFailure(Throwable cause);
    }
}
