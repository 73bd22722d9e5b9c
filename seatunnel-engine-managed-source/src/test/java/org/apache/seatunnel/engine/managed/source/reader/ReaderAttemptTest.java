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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataSerializer;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * The engine-neutral reader attempt both hosts drive: registration and its epoch, the snapshot
 * handover from the loop's barrier callback to {@link ReaderAttempt#takeBarrier}, and what reaches
 * the coordinator (apply acknowledgements, inclusion reports) in which encoding.
 */
class ReaderAttemptTest {
    private static final long JOB = 7;
    private static final long SOURCE = 3;
    private static final int SUBTASK = 1;
    private static final long ATTEMPT = 11;
    private static final String DIGEST = new RecordingReader().managedSourceCapability().digest();

    private final ManualClock clock = new ManualClock();
    private final RecordingReader reader = new RecordingReader();
    private final Uplink uplink = new Uplink();
    private final List<String> emitted = new ArrayList<>();
    private long nextSeq = 1;

    /**
     * Records what the attempt sends; answers with {@link #answer} unless a test says otherwise.
     */
    private static final class Uplink implements ReaderUplink {
        final List<SourceCommandEnvelope> sent = new ArrayList<>();
        long bound;
        CompletableFuture<AdmissionAck> answer =
                CompletableFuture.completedFuture(
                        AdmissionAck.accepted(5, AdmissionAck.NO_SEQUENCE));
        RuntimeException throwOnSend;

        @Override
        public long coordinatorEpoch() {
            return bound;
        }

        @Override
        public CompletableFuture<AdmissionAck> send(SourceCommandEnvelope command) {
            sent.add(command);
            if (throwOnSend != null) {
                throw throwOnSend;
            }
            return answer;
        }

        @Override
        public void registered(long coordinatorEpoch) {
            bound = coordinatorEpoch;
        }

        SourceCommandEnvelope last(CommandKind kind) {
            for (int i = sent.size() - 1; i >= 0; i--) {
                if (sent.get(i).commandKind() == kind) {
                    return sent.get(i);
                }
            }
            return null;
        }
    }

    /** Split ids as UTF-8. */
    private static final class SplitSer implements Serializer<TestSplit> {
        @Override
        public byte[] serialize(TestSplit s) {
            return s.id.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public TestSplit deserialize(byte[] b) {
            return new TestSplit(new String(b, StandardCharsets.UTF_8));
        }
    }

    private ReaderAttempt<String, TestSplit> attempt(
            java.util.function.UnaryOperator<ReaderLoopHost<TestSplit>> decorator) {
        Collector<String> out =
                new Collector<String>() {
                    @Override
                    public void collect(String record) {
                        emitted.add(record);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return this;
                    }
                };
        return ReaderAttempt.<String, TestSplit>builder()
                .ids(JOB, SOURCE, SUBTASK, ATTEMPT)
                .mailboxLimits(MailboxLimits.defaults())
                .workerBudget(new WorkerMailboxBudget(1 << 20))
                .clock(clock)
                .reader(reader)
                .output(out)
                .pollBudget(PollBudget.defaults())
                .recordSizer(String::length)
                .splitSerializer(new SplitSer())
                .capabilityDigest(DIGEST)
                .uplink(uplink)
                .hostDecorator(decorator)
                .build();
    }

    private ReaderAttempt<String, TestSplit> started() throws Exception {
        ReaderAttempt<String, TestSplit> a = attempt(null);
        a.start();
        a.register();
        return a;
    }

    private SourceCommandEnvelope assignment(String splitId, long commandId) {
        return assignment(splitId, commandId, 0);
    }

    private SourceCommandEnvelope noMoreSplits(long commandId) {
        return command(CommandKind.NO_MORE_SPLITS, commandId, 0, new byte[0]);
    }

    private SourceCommandEnvelope assignment(String splitId, long commandId, long cutId) {
        return command(
                        CommandKind.SPLIT_ASSIGNMENT,
                        commandId,
                        cutId,
                        AssignmentPayload.encode(
                                java.util.Collections.singletonList(
                                        splitId.getBytes(StandardCharsets.UTF_8))))
                .toBuilder()
                .payloadVersion(AssignmentPayload.VERSION)
                .build();
    }

    private SourceCommandEnvelope command(
            CommandKind kind, long commandId, long cutId, byte[] payload) {
        return SourceCommandEnvelope.builder(kind)
                .coordinatorCutId(cutId)
                .jobId(JOB)
                .sourceRuntimeId(SOURCE)
                .targetSubtask(SUBTASK)
                .targetAttemptId(ATTEMPT)
                .coordinatorEpoch(5)
                .senderAttemptId(5)
                .senderSequence(nextSeq++)
                .commandId(commandId)
                .payloadVersion(1)
                .payload(payload)
                .build();
    }

    @Test
    void registrationBindsTheEpochTheCoordinatorAnswersWithAndLaterCommandsCarryIt()
            throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        SourceCommandEnvelope reg = uplink.last(CommandKind.READER_REGISTRATION);
        assertNotNull(reg);
        assertEquals(0, reg.coordinatorEpoch(), "unknown before the answer");
        assertEquals(ATTEMPT, reg.senderAttemptId());
        assertEquals(SUBTASK, reg.targetSubtask());
        assertEquals(JOB, reg.jobId());
        assertEquals(SOURCE, reg.sourceRuntimeId());
        // Its credit window: the mailbox's normal capacity.
        assertEquals(RegistrationPayload.VERSION, reg.payloadVersion());
        RegistrationPayload window = RegistrationPayload.decode(reg.payload());
        assertEquals(MailboxLimits.defaults().maxCommands(), window.windowCommands());
        assertEquals(MailboxLimits.defaults().maxBytes(), window.windowBytes());
        assertEquals(5, uplink.bound, "the ack's target attempt id is the coordinator epoch");

        a.sendToCoordinator(CommandKind.SPLIT_REQUEST, new byte[0], false);
        SourceCommandEnvelope req = uplink.last(CommandKind.SPLIT_REQUEST);
        assertEquals(5, req.coordinatorEpoch());
        assertTrue(req.commandId() > reg.commandId(), "outbound ids increase");
        assertNull(a.loop().terminalSignal());
    }

    /**
     * A registration still being retried when its attempt closes (the coordinator answered
     * RETRY_LATER: it was not open yet) is withdrawn, so that no retry of a dead attempt can
     * register it with the coordinator of the next pipeline attempt and get the live attempt's
     * registration refused there.
     */
    @Test
    void closingAnAttemptWithdrawsARegistrationStillWaitingForItsAnswer() throws Exception {
        CompletableFuture<AdmissionAck> retrying = new CompletableFuture<>();
        uplink.answer = retrying;
        ReaderAttempt<String, TestSplit> a = started();
        assertNotNull(uplink.last(CommandKind.READER_REGISTRATION));
        a.close();
        assertTrue(retrying.isCancelled(), "the sender drops a cancelled send it has not sent");
        assertNull(a.loop().terminalSignal(), "a withdrawn registration fails nothing");
    }

    @Test
    void aRefusedUndeliverableOrThrowingRegistrationFailsTheAttempt() throws Exception {
        uplink.answer =
                CompletableFuture.completedFuture(
                        AdmissionAck.rejected(
                                AdmissionStatus.STALE_TARGET, 5, ReasonCode.UNREGISTERED_ATTEMPT));
        ReaderAttempt<String, TestSplit> refused = started();
        assertEquals(ReasonCode.NO_SUCH_TARGET, refused.loop().terminalSignal().reason());
        assertEquals(0, uplink.bound, "a refused registration binds nothing");

        Uplink lost = new Uplink();
        CompletableFuture<AdmissionAck> never = new CompletableFuture<>();
        lost.answer = never;
        // Undeliverable: the transport fails the send later, on another thread.
        ReaderAttempt<String, TestSplit> b =
                ReaderAttempt.<String, TestSplit>builder()
                        .ids(JOB, SOURCE, SUBTASK, ATTEMPT + 1)
                        .mailboxLimits(MailboxLimits.defaults())
                        .workerBudget(new WorkerMailboxBudget(1 << 20))
                        .clock(clock)
                        .reader(new RecordingReader())
                        .pollBudget(PollBudget.defaults())
                        .recordSizer(String::length)
                        .splitSerializer(new SplitSer())
                        .capabilityDigest(DIGEST)
                        .uplink(lost)
                        .build();
        b.start();
        b.register();
        assertNull(b.loop().terminalSignal(), "still waiting for the answer");
        IOException cause = new IOException("member left");
        never.completeExceptionally(cause);
        assertSame(cause, b.loop().terminalSignal().cause());

        Uplink throwing = new Uplink();
        throwing.throwOnSend = new IllegalStateException("sender closed");
        ReaderAttempt<String, TestSplit> c =
                ReaderAttempt.<String, TestSplit>builder()
                        .ids(JOB, SOURCE, SUBTASK, ATTEMPT + 2)
                        .mailboxLimits(MailboxLimits.defaults())
                        .workerBudget(new WorkerMailboxBudget(1 << 20))
                        .clock(clock)
                        .reader(new RecordingReader())
                        .pollBudget(PollBudget.defaults())
                        .recordSizer(String::length)
                        .splitSerializer(new SplitSer())
                        .capabilityDigest(DIGEST)
                        .uplink(throwing)
                        .build();
        c.start();
        c.register();
        assertEquals(ReasonCode.NO_SUCH_TARGET, c.loop().terminalSignal().reason());
    }

    @Test
    void appliedCommandsAreAcknowledgedWithTheAppliedWatermarkAndALostAckIsSaidAgainWhenIdle()
            throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        uplink.throwOnSend = new IllegalStateException("transport down");
        assertTrue(a.mailbox().offer(assignment("s1", 4242)).status().isAdmitted());
        a.loop().runOnce();
        assertTrue(reader.trace.contains("addSplits:[s1]"));
        SourceCommandEnvelope ack = uplink.last(CommandKind.ASSIGNMENT_ACK);
        assertNotNull(ack);
        assertEquals(AppliedAckPayload.VERSION, ack.payloadVersion());
        assertEquals(
                1,
                AppliedAckPayload.decode(ack.payload()).watermark(),
                "every command up to sequence 1 was applied");
        assertNull(a.loop().terminalSignal(), "a lost ack is not fatal");

        // Two more commands, acked as one watermark once the transport is back.
        assertTrue(a.mailbox().offer(assignment("s2", 4243)).status().isAdmitted());
        assertTrue(a.mailbox().offer(noMoreSplits(4244)).status().isAdmitted());
        a.loop().runOnce();
        int sentBefore = uplink.sent.size();
        uplink.throwOnSend = null;
        a.onIdle();
        assertEquals(sentBefore + 1, uplink.sent.size(), "idle: the watermark is said again");
        assertEquals(
                3,
                AppliedAckPayload.decode(uplink.last(CommandKind.ASSIGNMENT_ACK).payload())
                        .watermark());
        a.onIdle();
        assertEquals(sentBefore + 1, uplink.sent.size(), "admitted: nothing more to say");
    }

    @Test
    void theBarrierThreadWakesTheDriverOnlyWhenItHasSomethingToDo() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.loop().runOnce();
        a.signal().clear();
        assertTrue(a.takeBarrier(1, 0).snapshot() != null);
        assertFalse(
                a.signal().isPending(),
                "a lone reader's driver waiting for data has nothing to do with its barrier");
        a.mailbox().barriers().handoffWaiting(true);
        assertTrue(a.takeBarrier(2, 0).snapshot() != null);
        assertTrue(a.signal().isPending(), "one waiting in the handoff is woken by its barrier");
        a.mailbox().barriers().handoffWaiting(false);
        a.signal().clear();

        ReaderMailbox other =
                new ReaderMailbox(
                        JOB,
                        SOURCE,
                        SUBTASK + 1,
                        ATTEMPT,
                        MailboxLimits.defaults(),
                        new WorkerMailboxBudget(1 << 20),
                        clock,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        BarrierCohort cohort = new BarrierCohort(12, Arrays.asList(a.mailbox(), other));
        a.mailbox().announceBarrier(12, cohort);
        other.announceBarrier(12, cohort);
        a.signal().clear();
        assertTrue(a.takeBarrier(12, 0).snapshot() != null);
        assertFalse(
                a.signal().isPending(),
                "neither the barrier command nor its taking wakes a cohort member's driver");
        a.mailbox().barriers().handoffWaiting(true);
        other.barriers().markTaken(12);
        assertTrue(a.signal().isPending(), "the cohort's last barrier wakes it in the handoff");
        a.mailbox().barriers().handoffWaiting(false);

        BarrierCohort next = new BarrierCohort(13, Arrays.asList(a.mailbox(), other));
        a.mailbox().announceBarrier(13, next);
        other.announceBarrier(13, next);
        // Cut at the coordinator's checkpoint 14: held past barrier 13, then the driver's to apply,
        // so it is woken although its cohort is not through.
        a.mailbox().offer(assignment("s9", 9, 14));
        a.signal().clear();
        assertTrue(a.takeBarrier(13, 0).snapshot() != null);
        assertEquals(1, a.loop().heldCommands());
        assertTrue(a.signal().isPending(), "a held command is left for the driver");
    }

    @Test
    void theFinalBarrierWakesTheDriverSoThatItStopsDriving() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.loop().runOnce();
        a.gracefulClose();
        a.signal().clear();
        assertTrue(a.takeBarrier(1, 0).snapshot() != null);
        assertTrue(a.signal().isPending(), "the driver must stop at once after the final barrier");
    }

    private int reportsSent() {
        int n = 0;
        for (SourceCommandEnvelope e : uplink.sent) {
            if (e.commandKind() == CommandKind.READER_CHECKPOINTED) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aCheckpointProvingNothingNewSinceTheLastAdmittedReportIsNotReported() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.mailbox().offer(assignment("s1", 1));
        a.loop().runOnce();

        assertNotNull(a.takeBarrier(3, 0).snapshot());
        assertEquals(1, reportsSent(), "the first cut proves s1");
        assertNotNull(a.takeBarrier(4, 0).snapshot());
        assertNotNull(a.takeBarrier(5, 0).snapshot());
        assertEquals(1, reportsSent(), "nothing applied since: the admitted report still holds");
        assertEquals(2, a.loopMetrics().reportsUnchanged());

        a.mailbox().offer(assignment("s2", 2));
        a.loop().runOnce();
        ReaderSnapshot snap = a.takeBarrier(6, 0).snapshot();
        assertEquals(2, reportsSent(), "s2 applied since: reported");
        SourceCommandEnvelope report = uplink.last(CommandKind.READER_CHECKPOINTED);
        assertArrayEquals(snap.metadata(), report.copyPayload());
        assertEquals(
                6,
                new SourceRuntimeCheckpointMetadataSerializer()
                        .deserialize(report.copyPayload())
                        .lastBarrierCheckpointId());
        assertEquals(2, a.loopMetrics().reportsUnchanged());
    }

    @Test
    void aReportThatWasNotAdmittedIsSentAgainAtTheNextCheckpoint() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.mailbox().offer(assignment("s1", 1));
        a.loop().runOnce();
        uplink.answer =
                CompletableFuture.completedFuture(
                        AdmissionAck.retryLater(5, 10, ReasonCode.MAILBOX_COUNT_FULL));
        assertNotNull(a.takeBarrier(3, 0).snapshot());
        CompletableFuture<AdmissionAck> lost = new CompletableFuture<>();
        lost.completeExceptionally(new IllegalStateException("transport failed"));
        uplink.answer = lost;
        assertNotNull(a.takeBarrier(4, 0).snapshot());
        uplink.answer = new CompletableFuture<>();
        assertNotNull(a.takeBarrier(5, 0).snapshot());
        assertEquals(3, reportsSent(), "refused, failed, not yet answered: each sent again");

        uplink.answer.complete(AdmissionAck.accepted(5, AdmissionAck.NO_SEQUENCE));
        assertNotNull(a.takeBarrier(6, 0).snapshot());
        assertEquals(3, reportsSent(), "the report of 5 was admitted in the end");
        assertEquals(1, a.loopMetrics().reportsUnchanged());
    }

    @Test
    void aNewCoordinatorEpochOrNoMoreSplitsIsReportedWithNoNewAssignment() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.mailbox().offer(assignment("s1", 1));
        a.loop().runOnce();
        assertNotNull(a.takeBarrier(3, 0).snapshot());
        assertEquals(1, reportsSent());

        uplink.bound = 6;
        assertNotNull(a.takeBarrier(4, 0).snapshot());
        assertEquals(2, reportsSent(), "bound to another coordinator epoch: reported again");
        assertEquals(6, uplink.last(CommandKind.READER_CHECKPOINTED).coordinatorEpoch());

        a.mailbox().offer(noMoreSplits(2));
        a.loop().runOnce();
        assertNotNull(a.takeBarrier(5, 0).snapshot());
        assertEquals(3, reportsSent(), "no-more-splits applied: reported");
        assertEquals(0, a.loopMetrics().reportsUnchanged());
    }

    @Test
    void aBarrierHandsTheSnapshotOverAndReportsInclusionWithTheSameMetadata() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.mailbox().offer(assignment("s1", 1));
        a.mailbox().offer(assignment("s2", 2));
        a.loop().runOnce();

        BarrierResult r = a.takeBarrier(3, 0);
        ReaderSnapshot snap = r.snapshot();
        assertNotNull(snap, r.toString());
        assertNull(r.refusal());
        assertNull(r.failure());
        assertEquals(3, snap.checkpointId());
        assertEquals(SUBTASK, snap.subtask());
        assertEquals(2, snap.splitCount());
        assertEquals("s1", snap.splitId(0));
        assertArrayEquals("s2".getBytes(StandardCharsets.UTF_8), snap.split(1));
        SourceRuntimeCheckpointMetadata meta =
                new SourceRuntimeCheckpointMetadataSerializer().deserialize(snap.metadata());
        assertEquals(3, meta.lastBarrierCheckpointId());
        assertEquals(DIGEST, meta.capabilityDigest());

        SourceCommandEnvelope report = uplink.last(CommandKind.READER_CHECKPOINTED);
        assertNotNull(report, "the inclusion report left with the snapshot");
        assertArrayEquals(snap.metadata(), report.copyPayload());
        ReaderInclusionReport decoded =
                ReaderInclusionReport.fromMetadata(
                        ReaderInclusionReport.Kind.CHECKPOINT,
                        report.targetSubtask(),
                        report.senderAttemptId(),
                        new SourceRuntimeCheckpointMetadataSerializer()
                                .deserialize(report.copyPayload()));
        assertTrue(decoded.proves(5, 1) && decoded.proves(5, 2), "both assignments proven");
        assertTrue(reader.trace.contains("snapshot:3[s1, s2]"));
    }

    @Test
    void aFailureReportedAfterTheHandoverFailsTheBarrierWithItsCause() throws Exception {
        IllegalStateException registrationFailed = new IllegalStateException("not registered");
        ReaderAttempt<String, TestSplit> a =
                attempt(
                        host ->
                                new ReaderLoopHost<TestSplit>() {
                                    @Override
                                    public List<TestSplit> decodeSplits(SourceCommandEnvelope e)
                                            throws Exception {
                                        return host.decodeSplits(e);
                                    }

                                    @Override
                                    public org.apache.seatunnel.api.source.SourceEvent
                                            decodeSourceEvent(SourceCommandEnvelope e)
                                                    throws Exception {
                                        return host.decodeSourceEvent(e);
                                    }

                                    @Override
                                    public ReaderSnapshot onCheckpoint(
                                            long id, List<TestSplit> state, ReaderCheckpointCut cut)
                                            throws Exception {
                                        host.onCheckpoint(id, state, cut);
                                        throw registrationFailed;
                                    }

                                    @Override
                                    public void onCheckpointFailed(long id, Throwable cause) {
                                        host.onCheckpointFailed(id, cause);
                                    }

                                    @Override
                                    public void onApplied(SourceCommandEnvelope c) {
                                        host.onApplied(c);
                                    }

                                    @Override
                                    public void onEndOfInput() {
                                        host.onEndOfInput();
                                    }
                                });
        a.start();
        a.register();
        BarrierResult r = a.takeBarrier(1, 0);
        assertNull(r.snapshot(), "the handed-over state must not be registered");
        assertSame(registrationFailed, r.failure());
        // The next barrier starts clean.
        BarrierResult next = a.takeBarrier(2, 0);
        assertNull(next.snapshot());
        assertSame(registrationFailed, next.failure());
    }

    @Test
    void aBarrierToATerminatedAttemptIsRefusedOrFailedButNeverTaken() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        a.mailbox()
                .terminate(
                        TerminalSignal.fatal(
                                ReasonCode.CONNECTOR_FAILURE, new IllegalStateException("boom")));
        BarrierResult r = a.takeBarrier(1, 0);
        assertNull(r.snapshot());
        assertTrue(r.refusal() != null || r.failure() != null, r.toString());
        assertTrue(reader.trace.stream().noneMatch(t -> t.startsWith("snapshot:")));
    }

    @Test
    void checkpointNoticesReachTheConnectorOnceAndNothingIsOfferedAfterClose() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        reader.onPoll = (out, ctx) -> PollStatus.MORE_AVAILABLE;
        a.notifyCheckpointComplete(1);
        a.notifyCheckpointComplete(1);
        a.notifyCheckpointAborted(2);
        a.loop().runControls();
        assertEquals(1, reader.trace.stream().filter("complete:1"::equals).count());
        assertTrue(reader.trace.contains("aborted:2"));
        a.close();
        assertTrue(reader.trace.contains("close"));
        a.notifyCheckpointComplete(3);
        assertEquals(0, a.mailbox().commandCount(), "a closed attempt takes no notices");
    }

    @Test
    void endOfInputIsVisibleToTheHost() throws Exception {
        ReaderAttempt<String, TestSplit> a = started();
        reader.onPoll = (out, ctx) -> PollStatus.END_OF_INPUT;
        assertEquals(LoopStatus.FINISHED, a.loop().runOnce());
        assertTrue(a.reachedEndOfInput());
    }
}
