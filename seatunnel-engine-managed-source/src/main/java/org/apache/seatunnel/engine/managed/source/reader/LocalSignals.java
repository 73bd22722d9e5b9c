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

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;

/**
 * Posts the signals a reader's own member hands its reader loop — a checkpoint barrier, the
 * engine's checkpoint-complete and checkpoint-aborted notices, a graceful close — into the
 * attempt's {@link ReaderMailbox} as typed {@link MailboxEntry entries}, behind every command
 * admitted before them. They are not wire envelopes: they never leave the member, so they have no
 * header to check and no command id to deduplicate, and carry a checkpoint id at most. They draw on
 * the mailbox's reserved control capacity first (normal capacity only when that is used up; both
 * used up fails the attempt), and are answered as a remote command would be.
 *
 * <p>Threading: any thread; never blocks.
 */
public final class LocalSignals {
    private final ReaderMailbox mailbox;

    public LocalSignals(ReaderMailbox mailbox) {
        this.mailbox = mailbox;
    }

    /** Barrier {@code checkpointId}, for the thread driving the loop; wakes it. */
    public AdmissionAck barrier(long checkpointId) {
        return post(MailboxEntry.Kind.BARRIER, checkpointId, true);
    }

    /**
     * {@link #barrier} for a barrier the calling thread applies itself right after, holding the
     * reader's lock (the engine's barrier thread): the driving thread is not woken for it. The
     * caller wakes the driver afterwards if anything is left for it to do.
     */
    public AdmissionAck barrierApplyingItself(long checkpointId) {
        return post(MailboxEntry.Kind.BARRIER, checkpointId, false);
    }

    /** The engine completed checkpoint {@code checkpointId}. */
    public AdmissionAck checkpointComplete(long checkpointId) {
        return post(MailboxEntry.Kind.CHECKPOINT_COMPLETE, checkpointId, true);
    }

    /** The engine aborted checkpoint {@code checkpointId}. */
    public AdmissionAck checkpointAborted(long checkpointId) {
        return post(MailboxEntry.Kind.CHECKPOINT_ABORTED, checkpointId, true);
    }

    /** The engine will call no more poll turns. */
    public AdmissionAck gracefulClose() {
        return post(MailboxEntry.Kind.GRACEFUL_CLOSE, 0, true);
    }

    private AdmissionAck post(MailboxEntry.Kind kind, long checkpointId, boolean wakeDriver) {
        return AdmissionCodes.ack(
                mailbox.admitLocal(kind, checkpointId, wakeDriver),
                mailbox.attemptId(),
                mailbox.limits().retryAfterMillis());
    }
}
