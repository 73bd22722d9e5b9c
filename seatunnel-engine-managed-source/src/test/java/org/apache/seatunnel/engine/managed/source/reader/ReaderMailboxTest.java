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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** Admission rules of one mailbox at and around each of its bounds. */
class ReaderMailboxTest {

    private static MailboxLimits small() {
        // 4 normal commands, 100 normal bytes, 2 reserved commands, 20 reserved bytes,
        // payloads up to 50 bytes.
        return new MailboxLimits(4, 100, 2, 20, 50, 64, 10);
    }

    private static LoopHarness harness() {
        return new LoopHarness(small(), PollBudget.defaults(), 1 << 20);
    }

    private static SourceCommandEnvelope payload(LoopHarness h, int bytes) {
        return h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "").payload(new byte[bytes]).build();
    }

    @Test
    void acceptedCommandsGetIncreasingSequencesAndAreVisibleInThatOrder() {
        LoopHarness h = harness();
        AdmissionAck a = h.offer(h.assign("a"));
        AdmissionAck b = h.offer(h.assign("b"));
        assertEquals(AdmissionStatus.ACCEPTED, a.status());
        assertEquals(LoopHarness.ATTEMPT, a.targetAttemptId());
        assertTrue(b.mailboxSequence() > a.mailboxSequence());
        assertEquals(a.mailboxSequence(), sequenceOfNextPoll(h));
        assertEquals(b.mailboxSequence(), sequenceOfNextPoll(h));
    }

    private static long sequenceOfNextPoll(LoopHarness h) {
        assertNotNull(h.mailbox.poll());
        return h.mailbox.lastSequence();
    }

    @Test
    void fullNormalCountAnswersRetryLaterWithBackoffHint() {
        LoopHarness h = harness();
        for (int i = 0; i < 4; i++) {
            assertEquals(AdmissionStatus.ACCEPTED, h.offer(h.assign("s" + i)).status());
        }
        AdmissionAck full = h.offer(h.assign("x"));
        assertEquals(AdmissionStatus.RETRY_LATER, full.status());
        assertEquals(ReasonCode.MAILBOX_COUNT_FULL, full.reasonCode());
        assertEquals(10, full.retryAfterMillis());
        assertEquals(4, h.mailbox.commandCount());
    }

    @Test
    void retriedCommandIsNotMistakenForDuplicateAfterRetryLater() {
        LoopHarness h = harness();
        for (int i = 0; i < 4; i++) {
            h.offer(h.assign("s" + i));
        }
        SourceCommandEnvelope late = h.assign("late");
        assertEquals(AdmissionStatus.RETRY_LATER, h.offer(late).status());
        MailboxEntry first = h.mailbox.poll();
        h.mailbox.complete(first);
        assertEquals(AdmissionStatus.ACCEPTED, h.offer(late).status());
    }

    @Test
    void fullNormalBytesAnswersRetryLater() {
        LoopHarness h = harness();
        assertEquals(AdmissionStatus.ACCEPTED, h.offer(payload(h, 50)).status());
        assertEquals(AdmissionStatus.ACCEPTED, h.offer(payload(h, 50)).status());
        AdmissionAck ack = h.offer(payload(h, 1));
        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(ReasonCode.MAILBOX_BYTES_FULL, ack.reasonCode());
        assertEquals(100, h.mailbox.payloadBytes());
    }

    @Test
    void oversizePayloadIsInvalid() {
        LoopHarness h = harness();
        AdmissionAck ack = h.offer(payload(h, 51));
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, ack.status());
        assertEquals(ReasonCode.OVERSIZE, ack.reasonCode());
        assertEquals(0, h.mailbox.commandCount());
    }

    @Test
    void workerBudgetIsSharedByEveryMailboxOfTheMember() {
        WorkerMailboxBudget worker = new WorkerMailboxBudget(20 + 20 + 60);
        ReaderMailbox m1 = mailbox(worker, 1);
        ReaderMailbox m2 = mailbox(worker, 2);
        assertEquals(40, worker.usedBytes(), "reserved control bytes are taken up front");
        assertEquals(AdmissionStatus.ACCEPTED, m1.offer(env(m1, 40)).status());
        AdmissionAck ack = m2.offer(env(m2, 40));
        assertEquals(AdmissionStatus.RETRY_LATER, ack.status());
        assertEquals(ReasonCode.WORKER_BUDGET_FULL, ack.reasonCode());
        assertEquals(AdmissionStatus.ACCEPTED, m2.offer(env(m2, 20)).status());
        assertEquals(100, worker.usedBytes());
        m1.close();
        assertEquals(40, worker.usedBytes(), "close releases queued and reserved bytes");
        assertThrows(IllegalStateException.class, () -> mailbox(new WorkerMailboxBudget(10), 3));
    }

    private static ReaderMailbox mailbox(WorkerMailboxBudget worker, int subtask) {
        return mailbox(worker, subtask, new LoopSignal());
    }

    private static ReaderMailbox mailbox(
            WorkerMailboxBudget worker, int subtask, LoopSignal signal) {
        return new ReaderMailbox(
                1,
                1,
                subtask,
                1,
                small(),
                worker,
                NanoClock.SYSTEM,
                signal,
                new ReaderMailboxMetrics());
    }

    @Test
    void anAnnouncedBarrierMakesATurnYieldWithoutWakingTheDriver() {
        LoopSignal signal = new LoopSignal();
        ReaderMailbox m = mailbox(new WorkerMailboxBudget(1 << 20), 0, signal);
        assertFalse(m.hasPendingControlOrTerminal());
        m.barriers().announce(5);
        assertTrue(m.hasPendingControlOrTerminal(), "a running turn sees the announcement");
        assertTrue(m.isBarrierAnnounced(), "the driver sees it before it takes the lock again");
        assertFalse(signal.isPending(), "a waiting driver is left asleep: it holds no lock");
        m.offer(env(m, 1));
        assertTrue(signal.isPending(), "a command still wakes it");
    }

    private static long ids = 1;

    private static SourceCommandEnvelope env(ReaderMailbox m, int bytes) {
        return SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                .jobId(1)
                .sourceRuntimeId(1)
                .targetSubtask(m.subtask())
                .targetAttemptId(1)
                .coordinatorEpoch(1)
                .senderSequence(ids)
                .commandId(ids++)
                .payload(new byte[bytes])
                .build();
    }

    @Test
    void reservedControlsAreAdmittedWhenNormalCapacityIsFull() {
        LoopHarness h = harness();
        for (int i = 0; i < 4; i++) {
            h.offer(h.assign("s" + i));
        }
        assertEquals(AdmissionStatus.RETRY_LATER, h.offer(h.assign("x")).status());
        assertEquals(AdmissionStatus.ACCEPTED, h.local.barrier(1).status());
        assertEquals(AdmissionStatus.ACCEPTED, h.local.checkpointComplete(1).status());
        assertEquals(2, h.mailbox.reservedCommandCount());
        assertNull(h.mailbox.terminalSignal());
    }

    @Test
    void exhaustedReservedCapacityIsAnInvariantViolationThatFailsTheAttempt() {
        LoopHarness h = harness();
        for (int i = 0; i < 4; i++) {
            h.offer(h.assign("s" + i));
        }
        h.local.barrier(1);
        h.local.barrier(2);
        AdmissionAck ack = h.local.barrier(3);
        assertEquals(AdmissionStatus.TERMINAL_REJECTED, ack.status());
        assertEquals(ReasonCode.RESERVED_CAPACITY_EXHAUSTED, ack.reasonCode());
        assertEquals(TerminalSignal.Kind.FATAL, h.mailbox.terminalSignal().kind());
        assertEquals(1, h.mailbox.metrics().reservedExhausted());
        assertEquals(1, h.reader.wakeups.get(), "terminal signal wakes the reader");
    }

    @Test
    void duplicateOfAnAdmittedCommandIsAnsweredDuplicateWithoutTakingCapacity() {
        LoopHarness h = harness();
        SourceCommandEnvelope a = h.assign("a");
        assertEquals(AdmissionStatus.ACCEPTED, h.offer(a).status());
        AdmissionAck dup = h.offer(a);
        assertEquals(AdmissionStatus.DUPLICATE, dup.status());
        assertEquals(ReasonCode.ALREADY_ADMITTED, dup.reasonCode());
        assertEquals(1, h.mailbox.commandCount());
    }

    @Test
    void staleAttemptWrongTargetAndUnknownMajorAreRejected() {
        LoopHarness h = harness();
        AdmissionAck stale =
                h.offer(
                        h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "a")
                                .targetAttemptId(LoopHarness.ATTEMPT - 1)
                                .build());
        assertEquals(AdmissionStatus.STALE_TARGET, stale.status());
        AdmissionAck wrong =
                h.offer(h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "a").targetSubtask(9).build());
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, wrong.status());
        assertEquals(ReasonCode.WRONG_TARGET, wrong.reasonCode());
        AdmissionAck major =
                h.offer(
                        h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "a")
                                .protocolVersion(99, 0)
                                .build());
        assertEquals(AdmissionStatus.UNSUPPORTED_PROTOCOL, major.status());
        AdmissionAck durability =
                h.offer(
                        h.coordinator(CommandKind.SPLIT_ASSIGNMENT, "a")
                                .durability(
                                        org.apache.seatunnel.engine.managed.source.protocol
                                                .Durability.EPHEMERAL)
                                .build());
        assertEquals(ReasonCode.KIND_DURABILITY_MISMATCH, durability.reasonCode());
        assertEquals(0, h.mailbox.commandCount());
    }

    @Test
    void afterTerminalEveryCommandIsRejected() {
        LoopHarness h = harness();
        assertTrue(h.mailbox.terminate(TerminalSignal.cancel()));
        assertEquals(AdmissionStatus.TERMINAL_REJECTED, h.local.barrier(1).status());
        assertEquals(AdmissionStatus.TERMINAL_REJECTED, h.offer(h.assign("a")).status());
        assertTrue(!h.mailbox.terminate(TerminalSignal.fatal(ReasonCode.NONE, null)));
        assertEquals(TerminalSignal.Kind.CANCEL, h.mailbox.terminalSignal().kind());
    }

    @Test
    void completingACommandReleasesItsCapacity() {
        LoopHarness h = harness();
        h.offer(payload(h, 30));
        MailboxEntry e = h.mailbox.poll();
        assertEquals(1, h.mailbox.commandCount(), "capacity is held until the loop completes it");
        h.mailbox.complete(e);
        assertEquals(0, h.mailbox.commandCount());
        assertEquals(0, h.mailbox.payloadBytes());
    }

    @Test
    void admissionCountsEveryStatus() {
        LoopHarness h = harness();
        SourceCommandEnvelope a = h.assign("a");
        h.offer(a);
        h.offer(a);
        assertEquals(1, h.mailbox.metrics().admissions(AdmissionStatus.ACCEPTED));
        assertEquals(1, h.mailbox.metrics().admissions(AdmissionStatus.DUPLICATE));
    }

    @Test
    void invalidLimitsNameTheOption() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new MailboxLimits(-1, 100, 2, 20, 50, 64, 10));
        assertTrue(e.getMessage().contains("reader-mailbox.max-commands"), e.getMessage());
    }
}
