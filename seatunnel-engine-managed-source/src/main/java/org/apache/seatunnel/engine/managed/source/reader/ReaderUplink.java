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

import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The way from one reader attempt to the coordinator of its source, as an engine binding provides
 * it to a {@link ReaderAttempt}: the Zeta host sends over the member service's command sender, the
 * fault-injection world calls its coordinator loop in process.
 *
 * <p>Threading: {@link #send} and {@link #coordinatorEpoch} are called on the thread driving the
 * attempt (and, for the registration, the thread opening it) and must not block; the future may
 * complete on any thread, which then calls {@link #registered}.
 */
public interface ReaderUplink {

    /**
     * The coordinator epoch to stamp on outbound commands: 0 until the registration was
     * acknowledged, then the epoch {@link #registered} bound.
     */
    long coordinatorEpoch();

    /**
     * Sends {@code command} without waiting. The future completes with the coordinator's admission
     * answer, or exceptionally when the command could not be delivered.
     */
    CompletableFuture<AdmissionAck> send(SourceCommandEnvelope command);

    /**
     * The coordinator admitted this attempt's registration and answered with its epoch: from now on
     * the attempt accepts commands of that epoch only.
     */
    void registered(long coordinatorEpoch);
}
