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

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.EPOCH;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.mailbox;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorFence;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.junit.jupiter.api.Test;

/**
 * Every inbound frame, both directions, is checked against job, source, epoch, attempt, subtask
 * range, sender member and payload shape before anything acts on it; refusals are counted per
 * reason and logged at most once per reason per interval, never with payload bytes.
 */
class InboundFenceTest {
    private static final long SOURCE = 9L;
    private static final long JOB = TransportFixtures.JOB;
    private static final Address COORDINATOR = address(5801);
    private static final Address READER_MEMBER = address(5802);
    private static final Address STRANGER = address(5803);

    private final TransportTargets<Address> targets = new TransportTargets<>();
    private final TransportMetrics metrics = new TransportMetrics();
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final SourceCommandTransportAdapter<Address> adapter =
            new SourceCommandTransportAdapter<>(targets, 1 << 10, 10, metrics, now::get, 60_000);
    private final WorkerMailboxBudget budget = new WorkerMailboxBudget(1 << 20);

    // ------------------------------------------------------------ coordinator-bound

    /** A coordinator endpoint that counts what it acts on, behind a real fence. */
    private final class Endpoint implements CoordinatorEndpoint<Address> {
        final Map<Integer, Address> deployed = new HashMap<>();
        final CoordinatorFence<Address> fence =
                new CoordinatorFence<>(JOB, EPOCH, 2, deployed::get);
        int actedOn;

        @Override
        public AdmissionAck onReaderCommand(SourceCommandEnvelope env, Address from) {
            AdmissionAck refused = fence.check(env, from, 10);
            if (refused != null) {
                return refused;
            }
            if (env.commandKind() == CommandKind.READER_REGISTRATION) {
                fence.registered(env.targetSubtask(), env.senderAttemptId(), from);
            }
            actedOn++;
            return AdmissionAck.accepted(EPOCH, AdmissionAck.NO_SEQUENCE);
        }
    }

    private static SourceCommandEnvelope fromReader(
            CommandKind kind, long job, int subtask, long attempt, long epoch, byte[] payload) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(job)
                .sourceRuntimeId(SOURCE)
                .targetSubtask(subtask)
                .senderAttemptId(attempt)
                .coordinatorEpoch(epoch)
                .commandId(1)
                .payloadVersion(TransportFixtures.payloadVersionOf(kind))
                // An empty registration stands for a well-formed one (its credit window).
                .payload(
                        kind == CommandKind.READER_REGISTRATION && payload.length == 0
                                ? TransportFixtures.payloadOf(kind)
                                : payload)
                .build();
    }

    private Endpoint endpoint() {
        Endpoint e = new Endpoint();
        e.deployed.put(0, READER_MEMBER);
        e.deployed.put(1, READER_MEMBER);
        targets.registerCoordinator(SOURCE, e);
        return e;
    }

    private void assertRefused(
            AdmissionAck ack, AdmissionStatus status, ReasonCode reason, long countBefore) {
        assertEquals(status, ack.status(), ack.toString());
        assertEquals(reason, ack.reasonCode(), ack.toString());
        assertEquals(countBefore + 1, metrics.refused(reason), reason.name());
    }

    @Test
    void registrationOfAnotherJobOrAnOutOfRangeSubtaskIsRefusedBeforeTheCoordinatorActs() {
        Endpoint e = endpoint();
        byte[] none = new byte[0];

        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, 99, 0, 5, 0, none),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.WRONG_JOB,
                0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, 7, 5, 0, none),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.SUBTASK_OUT_OF_RANGE,
                0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, -1, 5, 0, none),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.SUBTASK_OUT_OF_RANGE,
                1);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 5, EPOCH + 1, none),
                        READER_MEMBER),
                AdmissionStatus.STALE_TARGET,
                ReasonCode.STALE_EPOCH,
                0);
        assertEquals(0, e.actedOn);
    }

    @Test
    void registrationFromAMemberOutsideTheDeploymentIsRefused() {
        Endpoint e = endpoint();
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 5, 0, new byte[0]),
                        STRANGER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.FOREIGN_SENDER,
                0);
        assertEquals(0, e.actedOn);
        assertNull(e.fence.attempt(0));
    }

    @Test
    void registrationBeforeTheEngineRecordedTheReaderIsRetriedNotRefused() {
        Endpoint e = endpoint();
        e.deployed.remove(1);
        AdmissionAck ack =
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, 1, 5, 0, new byte[0]),
                        READER_MEMBER);
        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(ReasonCode.AWAITING_REGISTRATION, ack.reasonCode());
        assertEquals(0, metrics.refusedTotal());
        assertEquals(0, e.actedOn);
    }

    @Test
    void aForeignAttemptCannotReplaceALiveOneNorSpeakForIt() {
        Endpoint e = endpoint();
        byte[] none = new byte[0];
        assertEquals(
                AdmissionStatus.ACCEPTED,
                adapter.route(
                                fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 5, 0, none),
                                READER_MEMBER)
                        .status());
        // The same registration again (a sender retry) has no second effect.
        assertEquals(
                AdmissionStatus.DUPLICATE,
                adapter.route(
                                fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 5, 0, none),
                                READER_MEMBER)
                        .status());
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 6, 0, none),
                        READER_MEMBER),
                AdmissionStatus.STALE_TARGET,
                ReasonCode.UNREGISTERED_ATTEMPT,
                0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.SPLIT_REQUEST, JOB, 0, 6, EPOCH, none),
                        READER_MEMBER),
                AdmissionStatus.STALE_TARGET,
                ReasonCode.UNREGISTERED_ATTEMPT,
                1);
        // The registered attempt's id from another member.
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.SPLIT_REQUEST, JOB, 0, 5, EPOCH, none), STRANGER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.FOREIGN_SENDER,
                0);
        assertEquals(5L, e.fence.attempt(0));
        assertEquals(1, e.actedOn);
        assertEquals(
                AdmissionStatus.ACCEPTED,
                adapter.route(
                                fromReader(CommandKind.SPLIT_REQUEST, JOB, 0, 5, EPOCH, none),
                                READER_MEMBER)
                        .status());
    }

    @Test
    void malformedPayloadsAreInvalidOnceNotRetried() {
        Endpoint e = endpoint();
        adapter.route(
                fromReader(CommandKind.READER_REGISTRATION, JOB, 0, 5, 0, new byte[0]),
                READER_MEMBER);
        int before = e.actedOn;
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.ASSIGNMENT_ACK, JOB, 0, 5, EPOCH, new byte[0]),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.TRUNCATED,
                0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.ASSIGNMENT_ACK, JOB, 0, 5, EPOCH, new byte[9]),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.TRUNCATED,
                1);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.ASSIGNMENT_ACK, JOB, 0, 5, EPOCH, new byte[21]),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.TRAILING_BYTES,
                0);
        byte[] negativeBacklog = new byte[20];
        java.nio.ByteBuffer.wrap(negativeBacklog).putLong(3).putInt(-2).putLong(0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.ASSIGNMENT_ACK, JOB, 0, 5, EPOCH, negativeBacklog),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.MALFORMED_PAYLOAD,
                0);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.READER_CHECKPOINTED, JOB, 0, 5, EPOCH, new byte[0]),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.MALFORMED_PAYLOAD,
                1);
        assertRefused(
                adapter.route(
                        fromReader(CommandKind.SPLITS_RETURNED, JOB, 0, 5, EPOCH, new byte[1]),
                        READER_MEMBER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.KIND_NOT_ACCEPTED,
                0);
        assertEquals(before, e.actedOn);
        assertEquals(0, metrics.handlerFailures());
    }

    // ------------------------------------------------------------ reader-bound

    private ReaderFence<Address> reader(int subtask, long attempt) {
        ReaderMailbox mb = mailbox(SOURCE, subtask, attempt, 8, budget);
        ReaderFence<Address> f = new ReaderFence<>(mb, COORDINATOR);
        targets.registerReader(f);
        return f;
    }

    private static SourceCommandEnvelope toReader(
            CommandKind kind, long job, int subtask, long attempt, long epoch) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(job)
                .sourceRuntimeId(SOURCE)
                .targetSubtask(subtask)
                .targetAttemptId(attempt)
                .senderAttemptId(epoch)
                .coordinatorEpoch(epoch)
                .commandId(7)
                .payloadVersion(TransportFixtures.payloadVersionOf(kind))
                .payload(TransportFixtures.payloadOf(kind))
                .build();
    }

    @Test
    void readerAcceptsOnlyItsCoordinatorsEpochFromItsCoordinatorsMember() {
        ReaderFence<Address> f = reader(0, 11);

        // Before the registration is acknowledged nothing can be checked: retry, not refuse.
        AdmissionAck early =
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 11, 3), COORDINATOR);
        assertEquals(AdmissionStatus.RETRY_LATER, early.status());
        assertEquals(ReasonCode.AWAITING_REGISTRATION, early.reasonCode());

        assertTrue(f.bindEpoch(3));
        assertFalse(f.bindEpoch(4), "the first epoch binding wins");

        assertRefused(
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 11, 2), COORDINATOR),
                AdmissionStatus.STALE_TARGET,
                ReasonCode.STALE_EPOCH,
                0);
        assertRefused(
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 11, 3), STRANGER),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.FOREIGN_SENDER,
                0);
        assertRefused(
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, 99, 0, 11, 3), COORDINATOR),
                AdmissionStatus.INVALID_PAYLOAD,
                ReasonCode.WRONG_JOB,
                0);
        assertRefused(
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 12, 3), COORDINATOR),
                AdmissionStatus.STALE_TARGET,
                ReasonCode.STALE_ATTEMPT,
                0);
        for (CommandKind local :
                new CommandKind[] {
                    CommandKind.CHECKPOINT_BARRIER,
                    CommandKind.CHECKPOINT_COMPLETE,
                    CommandKind.GRACEFUL_CLOSE,
                    CommandKind.CANCEL,
                    CommandKind.FATAL_FAILURE
                }) {
            AdmissionAck ack = adapter.route(toReader(local, JOB, 0, 11, 3), COORDINATOR);
            assertEquals(ReasonCode.KIND_NOT_ACCEPTED, ack.reasonCode(), local.name());
        }
        assertNull(f.mailbox().poll(), "nothing refused reached the mailbox");
        assertNull(f.mailbox().terminalSignal(), "a remote CANCEL must not end the attempt");

        assertEquals(
                AdmissionStatus.ACCEPTED,
                adapter.route(toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 11, 3), COORDINATOR)
                        .status());
    }

    // ------------------------------------------------------------ reporting

    @Test
    void refusalsAreLoggedOncePerReasonPerIntervalWithoutPayloadBytes() {
        reader(0, 11).bindEpoch(3);
        SourceCommandEnvelope foreign =
                toReader(CommandKind.SPLIT_ASSIGNMENT, JOB, 0, 11, 3).toBuilder()
                        .payload(
                                "secret-table-path"
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        .build();
        try (LogCapture log = LogCapture.attach(RefusalReporter.class.getName())) {
            for (int i = 0; i < 500; i++) {
                adapter.route(foreign, STRANGER);
            }
            adapter.deliver(new byte[] {1, 2, 3}, STRANGER);
            assertEquals(
                    1, log.matching(Level.WARN, "FOREIGN_SENDER").size(), log.lines().toString());
            assertEquals(1, log.matching(Level.WARN, "undecodable").size());

            now.addAndGet(60_000);
            adapter.route(foreign, STRANGER);
            assertEquals(2, log.matching(Level.WARN, "FOREIGN_SENDER").size());
            assertTrue(
                    log.matching(Level.WARN, "FOREIGN_SENDER").get(1).contains("(500 refused"),
                    log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(l -> l.contains("secret")));
        }
        assertEquals(501, metrics.refused(ReasonCode.FOREIGN_SENDER));
        assertEquals(501L, metrics.snapshot().get("ManagedSourceTransportRefusedForeignSender"));
    }
}
