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

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.envelope;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.fenced;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.mailbox;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.take;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.junit.jupiter.api.Test;

/** Routing of {@link SourceCommandTransportAdapter} on an in-memory registry, no cluster. */
class TransportAdapterTest {
    private static final long SOURCE = 7L;
    private static final Address FROM = address(5999);
    private static final EnumSet<CommandKind> COORDINATOR_BOUND =
            EnumSet.of(
                    CommandKind.READER_REGISTRATION,
                    CommandKind.SPLIT_REQUEST,
                    CommandKind.SPLITS_RETURNED,
                    CommandKind.READER_EVENT,
                    CommandKind.ASSIGNMENT_ACK,
                    CommandKind.READER_CHECKPOINTED);

    private final TransportTargets<Address> targets = new TransportTargets<>();
    private final TransportMetrics metrics = new TransportMetrics();
    private final WorkerMailboxBudget budget = new WorkerMailboxBudget(1 << 20);
    private final SourceCommandTransportAdapter<Address> adapter =
            new SourceCommandTransportAdapter<>(targets, 1 << 10, 10, metrics);

    private AdmissionAck deliver(SourceCommandEnvelope env) {
        byte[] ack = adapter.deliverFrame(SourceCommandCodec.encode(env), FROM);
        return AdmissionAckCodec.decode(ack).ack();
    }

    @Test
    void readerBoundCommandIsAdmittedIntoTheCurrentMailbox() {
        ReaderMailbox mb = mailbox(SOURCE, 2, 11, 8, budget);
        targets.registerReader(fenced(mb, FROM));
        SourceCommandEnvelope env = envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 2, 11, 100);

        AdmissionAck ack = deliver(env);

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(11, ack.targetAttemptId());
        assertEquals(env, take(mb));
        assertEquals(1, metrics.readerDeliveries());
    }

    @Test
    void everyCoordinatorBoundKindGoesToTheEndpointOfItsSource() {
        List<SourceCommandEnvelope> seen = new ArrayList<>();
        List<Address> senders = new ArrayList<>();
        targets.registerCoordinator(
                SOURCE,
                (env, from) -> {
                    seen.add(env);
                    senders.add(from);
                    return AdmissionAck.accepted(3, seen.size());
                });
        // A reader mailbox under the same ids must not receive them.
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 8, budget);
        targets.registerReader(fenced(mb, FROM));

        long id = 1;
        for (CommandKind kind : COORDINATOR_BOUND) {
            assertTrue(SourceCommandTransportAdapter.isCoordinatorBound(kind));
            assertEquals(
                    AdmissionStatus.ACCEPTED, deliver(envelope(kind, SOURCE, 0, 1, id++)).status());
        }

        assertEquals(COORDINATOR_BOUND.size(), seen.size());
        assertTrue(senders.stream().allMatch(FROM::equals));
        assertNull(mb.poll());
        assertEquals(COORDINATOR_BOUND.size(), metrics.coordinatorDeliveries());
    }

    @Test
    void anAdmissionSlowerThanTheP99BudgetIsCounted() {
        // The injected clock advances by the handler's "duration" of each delivery.
        long budget = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5);
        long[] now = {0};
        long[] handlerTakes = {0};
        SourceCommandTransportAdapter<Address> timed =
                new SourceCommandTransportAdapter<>(
                        targets,
                        1 << 10,
                        10,
                        metrics,
                        System::currentTimeMillis,
                        60_000,
                        budget,
                        () -> now[0]);
        targets.registerCoordinator(
                SOURCE,
                (env, from) -> {
                    now[0] += handlerTakes[0];
                    return AdmissionAck.accepted(3, 1);
                });
        handlerTakes[0] = budget;
        timed.deliverFrame(
                SourceCommandCodec.encode(envelope(CommandKind.SPLIT_REQUEST, SOURCE, 0, 1, 1)),
                FROM);
        assertEquals(0, metrics.admissionOverBudget(), "at the budget is within it");
        handlerTakes[0] = budget + 1;
        timed.deliverFrame(
                SourceCommandCodec.encode(envelope(CommandKind.SPLIT_REQUEST, SOURCE, 0, 1, 2)),
                FROM);
        assertEquals(1, metrics.admissionOverBudget());
        assertEquals(budget, timed.admissionBudgetNanos());
    }

    @Test
    void readerBoundKindsAreNeverRoutedToTheCoordinator() {
        for (CommandKind kind : EnumSet.complementOf(COORDINATOR_BOUND)) {
            assertFalse(SourceCommandTransportAdapter.isCoordinatorBound(kind), kind.name());
        }
    }

    @Test
    void unregisteredReaderAnswersRetryLaterNoSuchTarget() {
        AdmissionAck ack = deliver(envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 5, 1, 1));

        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(ReasonCode.NO_SUCH_TARGET, ack.reasonCode());
        assertEquals(10, ack.retryAfterMillis());
        assertEquals(SourceCommandTransportAdapter.UNKNOWN_ATTEMPT, ack.targetAttemptId());
        assertEquals(1, metrics.noSuchTarget());
    }

    @Test
    void unregisteredCoordinatorAnswersRetryLaterNoSuchTarget() {
        AdmissionAck ack = deliver(envelope(CommandKind.SPLIT_REQUEST, SOURCE, 0, 1, 1));

        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(ReasonCode.NO_SUCH_TARGET, ack.reasonCode());
    }

    @Test
    void newAttemptReplacesTheOldOneAndFencesItsCommands() {
        ReaderMailbox first = mailbox(SOURCE, 1, 1, 8, budget);
        ReaderMailbox second = mailbox(SOURCE, 1, 2, 8, budget);
        targets.registerReader(fenced(first, FROM));
        assertSame(first, targets.registerReader(fenced(second, FROM)));

        AdmissionAck stale = deliver(envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 1, 1, 1));
        assertEquals(AdmissionStatus.STALE_TARGET, stale.status());
        assertEquals(ReasonCode.STALE_ATTEMPT, stale.reasonCode());
        assertEquals(2, stale.targetAttemptId());

        // A late close of the old attempt must not unregister its successor.
        assertFalse(targets.unregisterReader(first));
        assertSame(second, targets.reader(SOURCE, 1));
        assertEquals(
                AdmissionStatus.ACCEPTED,
                deliver(envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 1, 2, 2)).status());
        assertTrue(targets.unregisterReader(second));
        assertNull(targets.reader(SOURCE, 1));
    }

    @Test
    void fullMailboxAnswersRetryLaterWithItsOwnReason() {
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 1, budget);
        targets.registerReader(fenced(mb, FROM));
        assertEquals(
                AdmissionStatus.ACCEPTED,
                deliver(envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1)).status());

        AdmissionAck full = deliver(envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 2));

        assertEquals(AdmissionStatus.RETRY_LATER, full.status());
        assertEquals(ReasonCode.MAILBOX_COUNT_FULL, full.reasonCode());
        assertEquals(1, metrics.answered(AdmissionStatus.RETRY_LATER));
    }

    @Test
    void undecodableFramesAnswerTheDecodersStatusAndReason() {
        byte[] good =
                SourceCommandCodec.encode(envelope(CommandKind.SOURCE_EVENT, SOURCE, 0, 1, 1));

        byte[] badMagic = good.clone();
        badMagic[0] ^= 0x55;
        assertRejected(badMagic, AdmissionStatus.INVALID_PAYLOAD, ReasonCode.BAD_MAGIC);

        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        assertRejected(truncated, AdmissionStatus.INVALID_PAYLOAD, ReasonCode.TRUNCATED);

        byte[] corrupt = good.clone();
        corrupt[20] ^= 0x01;
        assertRejected(
                corrupt, AdmissionStatus.INVALID_PAYLOAD, ReasonCode.FRAME_CHECKSUM_MISMATCH);

        byte[] major2 = good.clone();
        major2[5] = 2; // major is the u16 at offset 4, checked before the CRC
        assertRejected(
                major2, AdmissionStatus.UNSUPPORTED_PROTOCOL, ReasonCode.UNSUPPORTED_MAJOR_VERSION);

        assertRejected(null, AdmissionStatus.INVALID_PAYLOAD, ReasonCode.TRUNCATED);
        assertEquals(5, metrics.decodeFailures());
    }

    @Test
    void oversizePayloadIsRefusedBeforeRouting() {
        ReaderMailbox mb = mailbox(SOURCE, 0, 1, 8, budget);
        targets.registerReader(fenced(mb, FROM));
        SourceCommandEnvelope big =
                envelope(CommandKind.SPLIT_ASSIGNMENT, SOURCE, 0, 1, 1).toBuilder()
                        .payload(new byte[2048])
                        .build();

        assertRejected(
                SourceCommandCodec.encode(big),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.OVERSIZE);
        assertNull(mb.poll());
    }

    @Test
    void failingEndpointIsContainedAndAnsweredRetryLater() {
        targets.registerCoordinator(
                SOURCE,
                (env, from) -> {
                    throw new IllegalStateException("endpoint bug");
                });

        AdmissionAck ack = deliver(envelope(CommandKind.SPLIT_REQUEST, SOURCE, 0, 1, 1));

        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(1, metrics.handlerFailures());
    }

    private void assertRejected(byte[] frame, AdmissionStatus status, ReasonCode reason) {
        AdmissionAck ack = adapter.deliver(frame, FROM);
        assertEquals(status, ack.status());
        assertEquals(reason, ack.reasonCode());
        assertEquals(SourceCommandTransportAdapter.UNKNOWN_ATTEMPT, ack.targetAttemptId());
    }
}
