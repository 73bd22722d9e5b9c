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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * A deterministic in-process host: one mailbox, one loop, a recording reader and collector, and
 * builders for coordinator commands. No threads.
 */
final class LoopHarness implements ReaderLoopHost<TestSplit> {
    static final long JOB = 7;
    static final long SOURCE = 3;
    static final int SUBTASK = 1;
    static final long ATTEMPT = 11;
    static final ReaderIdentity IDENTITY =
            new ReaderIdentity("TestConnector", JOB, "test-job", SUBTASK);

    final ManualClock clock = new ManualClock();
    final LoopSignal signal = new LoopSignal();
    final WorkerMailboxBudget budget;
    final ReaderMailbox mailbox;
    final RecordingReader reader = new RecordingReader();
    final List<String> emitted = new ArrayList<>();
    final List<String> checkpoints = new ArrayList<>();
    final List<Long> failedCheckpoints = new ArrayList<>();

    /** Thrown by the next barrier callbacks when set (the host could not register the state). */
    RuntimeException checkpointFailure;

    /** What the barrier callback hands back to the loop. */
    ReaderSnapshot snapshotToReturn;

    final List<ReaderCheckpointCut> cuts = new ArrayList<>();
    final List<Long> appliedAcks = new ArrayList<>();
    final LocalSignals local;
    final ReaderEventLoop<String, TestSplit> loop;
    final Object lock = new Object();
    int endOfInput;
    long nextCommandId = 1;
    long nextSenderSeq = 1;
    long epoch = 1;

    /** A poll budget with the given record, byte and soft-time limits and default hard limits. */
    static PollBudget budget(int records, long bytes, long softMs) {
        return new PollBudget(
                records,
                bytes,
                TimeUnit.MILLISECONDS.toNanos(softMs),
                TimeUnit.SECONDS.toNanos(1),
                TimeUnit.SECONDS.toNanos(30),
                TimeUnit.SECONDS.toNanos(60));
    }

    LoopHarness() {
        this(MailboxLimits.defaults(), PollBudget.defaults(), 256L << 20);
    }

    LoopHarness(MailboxLimits limits, PollBudget pollBudget, long workerBytes) {
        this(limits, pollBudget, workerBytes, String::length);
    }

    LoopHarness(
            MailboxLimits limits,
            PollBudget pollBudget,
            long workerBytes,
            ToLongFunction<String> sizer) {
        this.budget = new WorkerMailboxBudget(workerBytes);
        this.mailbox =
                new ReaderMailbox(
                        JOB,
                        SOURCE,
                        SUBTASK,
                        ATTEMPT,
                        limits,
                        budget,
                        clock,
                        signal,
                        new ReaderMailboxMetrics());
        this.local = new LocalSignals(mailbox);
        Collector<String> out =
                new Collector<String>() {
                    @Override
                    public void collect(String record) {
                        emitted.add(record);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return lock;
                    }
                };
        this.loop =
                new ReaderEventLoop<>(
                        mailbox,
                        IDENTITY,
                        reader,
                        this,
                        out,
                        pollBudget,
                        sizer,
                        new ReaderLoopMetrics());
    }

    SourceCommandEnvelope.Builder coordinator(CommandKind kind, String payload) {
        return SourceCommandEnvelope.builder(kind)
                .jobId(JOB)
                .sourceRuntimeId(SOURCE)
                .targetSubtask(SUBTASK)
                .targetAttemptId(ATTEMPT)
                .coordinatorEpoch(epoch)
                .senderSequence(nextSenderSeq++)
                .commandId(nextCommandId++)
                .payloadVersion(1)
                .payload(payload.getBytes(StandardCharsets.UTF_8));
    }

    SourceCommandEnvelope assign(String splitId) {
        return coordinator(CommandKind.SPLIT_ASSIGNMENT, splitId).build();
    }

    AdmissionAck offer(SourceCommandEnvelope env) {
        return mailbox.offer(env);
    }

    /** Runs iterations until the loop reports IDLE, FINISHED or TERMINATED (bounded). */
    LoopStatus runUntilQuiet() {
        LoopStatus s = LoopStatus.BUSY;
        for (int i = 0; i < 1000 && s == LoopStatus.BUSY; i++) {
            s = loop.runOnce();
        }
        return s;
    }

    @Override
    public List<TestSplit> decodeSplits(SourceCommandEnvelope assignment) {
        String ids = new String(assignment.copyPayload(), StandardCharsets.UTF_8);
        List<TestSplit> out = new ArrayList<>();
        for (String id : ids.split(",")) {
            out.add(new TestSplit(id));
        }
        return out;
    }

    @Override
    public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) {
        String text = new String(event.copyPayload(), StandardCharsets.UTF_8);
        return new SourceEvent() {
            private static final long serialVersionUID = 1L;

            @Override
            public String toString() {
                return text;
            }
        };
    }

    @Override
    public ReaderSnapshot onCheckpoint(
            long checkpointId, List<TestSplit> splitState, ReaderCheckpointCut cut) {
        if (checkpointFailure != null) {
            throw checkpointFailure;
        }
        checkpoints.add(checkpointId + ":" + splitState);
        cuts.add(cut);
        return snapshotToReturn;
    }

    @Override
    public void onCheckpointFailed(long checkpointId, Throwable cause) {
        failedCheckpoints.add(checkpointId);
    }

    @Override
    public void onApplied(SourceCommandEnvelope command) {
        appliedAcks.add(command.commandId());
    }

    @Override
    public void onEndOfInput() {
        endOfInput++;
    }

    /** Schema-change checkpoint requests the loop made, as "MARK@epoch". */
    final List<String> schemaRequests = new ArrayList<>();

    /** Thrown from the next schema-change request when set. */
    RuntimeException schemaTriggerFailure;

    @Override
    public void onSchemaChangeRequested(SchemaChangeMark mark, long epoch) {
        schemaRequests.add(mark + "@" + epoch);
        if (schemaTriggerFailure != null) {
            throw schemaTriggerFailure;
        }
    }

    List<String> traceWithoutOpen() {
        List<String> t = new ArrayList<>(reader.trace);
        t.removeAll(Collections.singleton("open"));
        return t;
    }
}
