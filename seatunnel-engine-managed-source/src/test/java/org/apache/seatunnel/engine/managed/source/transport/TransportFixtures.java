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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.LongPayload;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;

/** Envelopes, mailboxes, addresses and invokers shared by the transport tests. */
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
                .payloadVersion(payloadVersionOf(kind))
                .payload(payloadOf(kind))
                .build();
    }

    /** A payload of the shape the fences accept for {@code kind}. */
    public static byte[] payloadOf(CommandKind kind) {
        switch (kind) {
            case SPLIT_ASSIGNMENT:
                return AssignmentPayload.encode(Collections.singletonList(new byte[] {1, 2, 3}));
            case NO_MORE_SPLITS:
            case SPLIT_REQUEST:
                return new byte[0];
            case CHECKPOINT_ABORTED:
                return LongPayload.encode(3);
            case ASSIGNMENT_ACK:
                return AppliedAckPayload.encode(3, 7, 2);
            case READER_REGISTRATION:
                return RegistrationPayload.encode(16, 1 << 20, 64);
            default:
                return new byte[] {1, 2, 3};
        }
    }

    /** The payload version of {@link #payloadOf}. */
    public static int payloadVersionOf(CommandKind kind) {
        switch (kind) {
            case SPLIT_ASSIGNMENT:
                return AssignmentPayload.VERSION;
            case ASSIGNMENT_ACK:
                return AppliedAckPayload.VERSION;
            case READER_REGISTRATION:
                return RegistrationPayload.VERSION;
            default:
                return 1;
        }
    }

    /** One frame at a time: what a test's invoker answers for a frame. */
    @FunctionalInterface
    public interface FrameAnswer {
        CompletableFuture<byte[]> invoke(Address target, byte[] frame, long timeout);
    }

    /**
     * An invoker that answers single frames with {@code answer} and a batch by answering each of
     * its frames with {@code answer} in order (waiting for each), as a member handles a batch.
     */
    public static FrameInvoker<Address> perFrame(FrameAnswer answer) {
        return new FrameInvoker<Address>() {
            @Override
            public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long timeout) {
                return answer.invoke(target, frame, timeout);
            }

            @Override
            public CompletableFuture<byte[]> invokeBatch(
                    Address target, byte[] batch, long timeout) {
                CommandBatchCodec.BatchResult b =
                        CommandBatchCodec.decode(
                                batch, CommandBatchCodec.MAX_ENTRIES, Long.MAX_VALUE);
                List<AdmissionAck> acks = new ArrayList<>();
                try {
                    for (int i = 0; i < b.count(); i++) {
                        byte[] frame =
                                Arrays.copyOfRange(
                                        b.batch(), b.offset(i), b.offset(i) + b.length(i));
                        AdmissionAckCodec.DecodeResult d =
                                AdmissionAckCodec.decode(
                                        answer.invoke(target, frame, timeout).get());
                        if (!d.isSuccess()) {
                            return CompletableFuture.completedFuture(new byte[] {1, 2});
                        }
                        acks.add(d.ack());
                    }
                } catch (Exception e) {
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    f.completeExceptionally(e instanceof ExecutionException ? e.getCause() : e);
                    return f;
                }
                return CompletableFuture.completedFuture(CommandBatchCodec.encodeAcks(acks));
            }
        };
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

    /**
     * Consumer side: takes the next entry, which must be a remote command (nothing local is posted
     * in transport tests), releases its capacity and returns its envelope, or returns null.
     */
    public static SourceCommandEnvelope take(ReaderMailbox mailbox) {
        MailboxEntry entry = mailbox.poll();
        if (entry == null) {
            return null;
        }
        mailbox.complete(entry);
        return ((MailboxEntry.RemoteCommand) entry).envelope();
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
