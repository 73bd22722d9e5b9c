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

import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Builds the commands a host creates locally for its own reader (barriers, checkpoint callbacks,
 * graceful close). Their command ids are negative so they never collide with coordinator ids, which
 * are positive; the checkpoint id travels as a {@link LongPayload}.
 *
 * <p>Threading: any thread.
 */
public final class LocalCommands {
    private final ReaderMailbox mailbox;
    private final AtomicLong nextId = new AtomicLong();

    public LocalCommands(ReaderMailbox mailbox) {
        this.mailbox = mailbox;
    }

    public SourceCommandEnvelope barrier(long checkpointId) {
        return build(CommandKind.CHECKPOINT_BARRIER, checkpointId);
    }

    public SourceCommandEnvelope checkpointComplete(long checkpointId) {
        return build(CommandKind.CHECKPOINT_COMPLETE, checkpointId);
    }

    public SourceCommandEnvelope checkpointAborted(long checkpointId) {
        return build(CommandKind.CHECKPOINT_ABORTED, checkpointId);
    }

    public SourceCommandEnvelope gracefulClose() {
        return build(CommandKind.GRACEFUL_CLOSE, 0);
    }

    private SourceCommandEnvelope build(CommandKind kind, long checkpointId) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(mailbox.jobId())
                .sourceRuntimeId(mailbox.sourceRuntimeId())
                .targetSubtask(mailbox.subtask())
                .targetAttemptId(mailbox.attemptId())
                .senderAttemptId(mailbox.attemptId())
                .commandId(-nextId.incrementAndGet())
                .payloadVersion(1)
                .payload(LongPayload.encode(checkpointId))
                .build();
    }

    /** The checkpoint id of a local command built here. */
    public static long checkpointIdOf(SourceCommandEnvelope env) {
        return LongPayload.decodeOr(env, -1L);
    }
}
