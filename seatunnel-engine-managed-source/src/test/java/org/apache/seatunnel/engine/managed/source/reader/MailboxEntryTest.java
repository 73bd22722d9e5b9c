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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * What the mailbox's ring carries: a remote command wraps the envelope it admitted; the member's
 * own signals are typed entries with only their checkpoint id, weigh what their id does, and never
 * touch the duplicate filter of remote commands.
 */
class MailboxEntryTest {

    private static LoopHarness harness() {
        // 4 normal commands, 100 normal bytes, 2 reserved commands, 20 reserved bytes, 50-byte
        // payloads, a 64-slot duplicate filter.
        return new LoopHarness(
                new MailboxLimits(4, 100, 2, 20, 50, 64, 10), PollBudget.defaults(), 1 << 20);
    }

    @Test
    void localSignalsAreTypedEntriesCarryingOnlyTheirCheckpointIdInPostingOrder() {
        LoopHarness h = harness();
        long first = h.clock.nanoTime();
        assertTrue(h.local.barrier(5).status().isAdmitted());
        h.clock.advanceNanos(1_000);
        assertTrue(h.local.checkpointComplete(4).status().isAdmitted());
        assertEquals(2, h.mailbox.reservedCommandCount(), "signals take the reserved capacity");
        assertEquals(2 * Long.BYTES, h.mailbox.payloadBytes(), "each weighs its checkpoint id");
        assertEquals(first, h.mailbox.oldestAdmittedNanos());

        MailboxEntry barrier = h.mailbox.poll();
        assertInstanceOf(MailboxEntry.Barrier.class, barrier);
        assertEquals(MailboxEntry.Kind.BARRIER, barrier.kind());
        assertEquals(5, ((MailboxEntry.Barrier) barrier).checkpointId());
        assertTrue(barrier.reserved());
        assertEquals(first, barrier.admittedNanos());
        assertEquals(
                first + 1_000, h.mailbox.oldestAdmittedNanos(), "the next one is the oldest now");
        h.mailbox.complete(barrier);

        MailboxEntry done = h.mailbox.poll();
        assertEquals(MailboxEntry.Kind.CHECKPOINT_COMPLETE, done.kind());
        assertEquals(4, ((MailboxEntry.CheckpointNotice) done).checkpointId());
        h.mailbox.complete(done);

        assertTrue(h.local.checkpointAborted(6).status().isAdmitted());
        assertTrue(h.local.gracefulClose().status().isAdmitted());
        MailboxEntry aborted = h.mailbox.poll();
        assertEquals(MailboxEntry.Kind.CHECKPOINT_ABORTED, aborted.kind());
        assertEquals(6, ((MailboxEntry.CheckpointNotice) aborted).checkpointId());
        h.mailbox.complete(aborted);
        MailboxEntry close = h.mailbox.poll();
        assertInstanceOf(MailboxEntry.GracefulClose.class, close);
        h.mailbox.complete(close);

        assertNull(h.mailbox.poll());
        assertEquals(-1, h.mailbox.oldestAdmittedNanos());
        assertEquals(0, h.mailbox.commandCount());
        assertEquals(0, h.mailbox.payloadBytes());
        assertEquals(4, h.mailbox.metrics().admissions(AdmissionStatus.ACCEPTED));
    }

    @Test
    void aRemoteCommandWrapsTheEnvelopeItAdmittedAndHoldsItsPayloadBytes() {
        LoopHarness h = harness();
        SourceCommandEnvelope env = h.assign("split-1");
        assertTrue(h.offer(env).status().isAdmitted());
        assertEquals(env.payloadLength(), h.mailbox.payloadBytes());
        MailboxEntry entry = h.mailbox.poll();
        assertEquals(MailboxEntry.Kind.REMOTE_COMMAND, entry.kind());
        assertSame(env, ((MailboxEntry.RemoteCommand) entry).envelope());
        assertFalse(entry.reserved(), "a split assignment takes normal capacity");
        h.mailbox.complete(entry);
        assertEquals(0, h.mailbox.payloadBytes());
    }

    @Test
    void localSignalsLeaveTheDuplicateFilterToRemoteCommands() {
        LoopHarness h = harness();
        SourceCommandEnvelope env = h.assign("split-1");
        assertTrue(h.offer(env).status().isAdmitted());
        h.mailbox.complete(h.mailbox.poll());
        // Far more signals than the 64-slot filter has slots: had they ids in it, one would have
        // pushed the command's id out and its redelivery would be admitted a second time.
        for (int i = 1; i <= 1_000; i++) {
            assertTrue(h.local.checkpointComplete(i).status().isAdmitted());
            h.mailbox.complete(h.mailbox.poll());
        }
        assertEquals(AdmissionStatus.DUPLICATE, h.offer(env).status());
        assertEquals(0, h.mailbox.commandCount());
    }
}
