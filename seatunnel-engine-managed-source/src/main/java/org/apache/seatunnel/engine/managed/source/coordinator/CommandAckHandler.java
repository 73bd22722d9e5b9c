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

/**
 * The admission answer of one command {@link OutboundCommands} sent, handed back to the coordinator
 * loop.
 *
 * <p>Threading: the callbacks run on any transport thread and only post to the loop. Immutable.
 */
final class CommandAckHandler implements CommandDispatcher.AckCallback {
    private final AdmissionOutcomes outcomes;
    private final boolean ephemeral;
    final long commandId;
    final int subtask;
    final long attempt;

    CommandAckHandler(
            AdmissionOutcomes outcomes,
            boolean ephemeral,
            long commandId,
            int subtask,
            long attempt) {
        this.outcomes = outcomes;
        this.ephemeral = ephemeral;
        this.commandId = commandId;
        this.subtask = subtask;
        this.attempt = attempt;
    }

    @Override
    public void onAdmission(AdmissionAck ack) {
        outcomes.offer(
                new AdmissionOutcomes.Outcome(commandId, subtask, attempt, ephemeral, ack, null));
    }

    @Override
    public void onTransportFailure(Throwable cause) {
        outcomes.offer(
                new AdmissionOutcomes.Outcome(commandId, subtask, attempt, ephemeral, null, cause));
    }
}
