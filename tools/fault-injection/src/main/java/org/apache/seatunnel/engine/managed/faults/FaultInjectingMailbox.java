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

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Fault point 3, capacity reservation: when the schedule fires, the command is answered RETRY_LATER
 * as if the mailbox's count were exhausted, and not admitted. Consecutive occurrences make a storm.
 * Only coordinator commands pass here; the reader's own barriers and callbacks go to the mailbox
 * directly, as in the Zeta host.
 *
 * <p>Threading: confined to the run's thread (the {@link FaultInjector} is not thread-safe); the
 * wrapped port is called on the same thread. Stateless otherwise.
 */
public final class FaultInjectingMailbox implements MailboxPort {
    private final MailboxPort mailbox;
    private final FaultInjector faults;
    private final long attemptId;
    private final long retryAfterMillis;

    public FaultInjectingMailbox(
            MailboxPort mailbox, FaultInjector faults, long attemptId, long retryAfterMillis) {
        this.mailbox = mailbox;
        this.faults = faults;
        this.attemptId = attemptId;
        this.retryAfterMillis = retryAfterMillis;
    }

    @Override
    public AdmissionAck offer(SourceCommandEnvelope env) {
        FaultAction a =
                faults.at(
                        FaultPoint.CAPACITY_RESERVATION,
                        env.commandKind() + " cmd=" + env.commandId() + " attempt=" + attemptId);
        if (a == FaultAction.RETRY_LATER) {
            return AdmissionAck.retryLater(
                    attemptId, retryAfterMillis, ReasonCode.MAILBOX_COUNT_FULL);
        }
        return mailbox.offer(env);
    }
}
