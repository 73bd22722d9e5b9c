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

import com.hazelcast.cluster.Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;

/** Envelopes, mailboxes and addresses shared by the transport tests. */
public final class TransportFixtures {
    public static final long JOB = 42L;

    private TransportFixtures() {}

    public static SourceCommandEnvelope envelope(
            CommandKind kind, long sourceRuntimeId, int subtask, long attempt, long commandId) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(JOB)
                .sourceRuntimeId(sourceRuntimeId)
                .targetSubtask(subtask)
                .targetAttemptId(attempt)
                .coordinatorEpoch(EPOCH)
                .senderAttemptId(EPOCH)
                .senderSequence(commandId)
                .commandId(commandId)
                .payload(new byte[] {1, 2, 3})
                .build();
    }

    /** Commands, bytes, reserved commands/bytes, max payload, dedup window, retry hint (ms). */
    public static MailboxLimits limits(int maxCommands) {
        return new MailboxLimits(maxCommands, 1 << 20, 4, 1 << 10, 1 << 10, 1024, 5);
    }

    public static ReaderMailbox mailbox(
            long sourceRuntimeId,
            int subtask,
            long attempt,
            int maxCommands,
            WorkerMailboxBudget budget) {
        return new ReaderMailbox(
                JOB,
                sourceRuntimeId,
                subtask,
                attempt,
                limits(maxCommands),
                budget,
                NanoClock.SYSTEM,
                new LoopSignal(),
                new ReaderMailboxMetrics());
    }

    /** Consumer side: takes the next command and releases its capacity, or returns null. */
    public static SourceCommandEnvelope take(ReaderMailbox mailbox) {
        SourceCommandEnvelope env = mailbox.poll();
        if (env != null) {
            mailbox.complete(env, mailbox.lastReserved());
        }
        return env;
    }

    /** The coordinator epoch of {@link #envelope} frames and of {@link #fenced} readers. */
    public static final long EPOCH = 1;

    /** A reader fence that accepts {@link #envelope} frames sent by {@code coordinator}. */
    public static ReaderFence<Address> fenced(ReaderMailbox mailbox, Address coordinator) {
        ReaderFence<Address> f = new ReaderFence<>(mailbox, coordinator);
        f.bindEpoch(EPOCH);
        return f;
    }

    public static Address address(int port) {
        try {
            return new Address(InetAddress.getLoopbackAddress().getHostAddress(), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
