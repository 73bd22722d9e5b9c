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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/** The checkpoint cut gate on its own: what it holds, when it releases, its bound and close. */
class CheckpointCutGateTest {
    private final ManualClock clock = new ManualClock();
    private final ReaderMailbox mailbox =
            new ReaderMailbox(
                    7,
                    3,
                    1,
                    11,
                    MailboxLimits.defaults(),
                    new WorkerMailboxBudget(1 << 20),
                    clock,
                    new LoopSignal(),
                    new ReaderMailboxMetrics());
    private final CheckpointCutGate gate = new CheckpointCutGate(clock, 5_000_000_000L);
    private final List<Long> applied = new ArrayList<>();
    private final CheckpointCutGate.Applier applier =
            command -> {
                applied.add(command.envelope().coordinatorCutId());
                mailbox.complete(command);
            };
    private long nextId = 1;

    /** A coordinator command cut at {@code cut}, admitted to and taken from the mailbox. */
    private boolean admitAndHold(long cut) {
        SourceCommandEnvelope env =
                SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                        .jobId(7)
                        .sourceRuntimeId(3)
                        .targetSubtask(1)
                        .targetAttemptId(11)
                        .coordinatorEpoch(1)
                        .coordinatorCutId(cut)
                        .senderSequence(nextId)
                        .commandId(nextId++)
                        .payloadVersion(1)
                        .payload(new byte[] {1})
                        .build();
        assertTrue(mailbox.offer(env).status().isAdmitted());
        MailboxEntry.RemoteCommand taken = (MailboxEntry.RemoteCommand) mailbox.poll();
        assertSame(env, taken.envelope());
        boolean held = gate.holdIfPastCut(taken);
        if (!held) {
            // Applied at once by the loop, not by the gate.
            mailbox.complete(taken);
        }
        return held;
    }

    @Test
    void holdsOnlyCommandsCutAfterTheReleasedCutAndReleasesThemInOrderAtTheirBarrier() {
        gate.start(2);
        assertFalse(admitAndHold(2), "cut at the restored checkpoint: applied at once");
        assertTrue(admitAndHold(4));
        assertTrue(admitAndHold(3));
        assertTrue(admitAndHold(4));
        assertEquals(3, gate.size());
        assertEquals(2, gate.releasedCut());

        // Barrier 4 releases what was cut before it (cut 3) ahead of its snapshot ...
        gate.release(3, applier, mailbox);
        assertEquals(List.of(3L), applied);
        gate.barrierTaken(4);
        // ... and the rest, in admission order, once it was taken.
        gate.release(gate.releasedCut(), applier, mailbox);
        assertEquals(List.of(3L, 4L, 4L), applied);
        assertEquals(0, gate.size());
        assertEquals(4, gate.barrierCut());
        assertEquals(0, mailbox.commandCount(), "released commands gave their slots back");
    }

    @Test
    void anAbortedCheckpointReleasesWhatWaitedForItsBarrier() {
        assertTrue(admitAndHold(1));
        assertTrue(gate.aborted(1));
        assertFalse(gate.aborted(1), "a repeated abort moves nothing");
        assertEquals(1, gate.releasedCut());
        gate.release(gate.releasedCut(), applier, mailbox);
        assertEquals(List.of(1L), applied);
        assertEquals(0, gate.barrierCut(), "an abort is no barrier of this reader");
    }

    @Test
    void theOldestHeldCommandIsOverdueOnlyPastTheHoldLimitAndNothingHeldReadsNoClock() {
        long reads = clock.reads();
        assertEquals(-1, gate.overdueCut());
        assertEquals(reads, clock.reads(), "an empty gate reads no clock");
        assertTrue(admitAndHold(6));
        clock.advanceMillis(5_000);
        assertEquals(-1, gate.overdueCut(), "at the limit: not yet");
        clock.advanceMillis(1);
        assertEquals(6, gate.overdueCut());
    }

    @Test
    void releaseStopsAtATerminalSignalAndDiscardGivesEveryReservationBack() {
        assertTrue(admitAndHold(1));
        assertTrue(admitAndHold(1));
        CheckpointCutGate.Applier failing =
                command -> {
                    applier.apply(command);
                    mailbox.terminate(
                            TerminalSignal.fatal(
                                    ReasonCode.CONNECTOR_FAILURE, new IllegalStateException("x")));
                };
        gate.barrierTaken(1);
        gate.release(1, failing, mailbox);
        assertEquals(1, applied.size(), "nothing reaches the connector after the failure");
        assertEquals(1, gate.size());
        assertEquals(1, mailbox.commandCount());
        gate.discard(mailbox);
        assertEquals(0, gate.size());
        assertEquals(0, mailbox.commandCount());
    }
}
