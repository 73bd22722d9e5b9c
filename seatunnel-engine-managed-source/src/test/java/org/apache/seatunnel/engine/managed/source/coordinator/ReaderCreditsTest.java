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

package org.apache.seatunnel.engine.managed.source.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.junit.jupiter.api.Test;

/** Credit and split windows of one reader attempt, step by step. */
class ReaderCreditsTest {
    private static final int UNKNOWN = AppliedAckPayload.UNKNOWN_BACKLOG;

    @Test
    void creditIsTheMailboxAndReturnsWithTheAppliedWatermark() {
        ReaderCredits c = new ReaderCredits();
        c.register(0, 7, new ReaderWindow(2, 100, 0));
        assertEquals(Integer.MAX_VALUE, c.splitRoom(0), "no split window offered");
        c.sent(0, 1, 60, 3);
        assertTrue(c.canSend(0, 40));
        assertFalse(c.canSend(0, 41), "bytes");
        c.sent(0, 2, 40, 3);
        assertFalse(c.canSend(0, 0), "commands");
        assertFalse(c.applied(0, 8, 2, UNKNOWN), "another attempt's watermark");
        assertTrue(c.applied(0, 7, 1, UNKNOWN));
        assertEquals(1, c.freeCommands(0));
        assertEquals(60, c.freeBytes(0));
        assertFalse(c.applied(0, 7, 1, UNKNOWN), "the same watermark again: nothing returns");
        assertTrue(c.applied(0, 7, 2, UNKNOWN));
        assertEquals(0, c.outstandingCommands());
        assertEquals(0, c.outstandingBytes());
    }

    @Test
    void theSplitWindowCountsTheReportedBacklogAndWhatWasSentAfterIt() {
        ReaderCredits c = new ReaderCredits();
        c.register(0, 7, new ReaderWindow(1024, 1 << 20, 100));
        assertEquals(100, c.splitRoom(0));
        c.sent(0, 1, 10, 64);
        c.sent(0, 2, 10, 36);
        assertEquals(0, c.splitRoom(0), "a window's worth on its way");
        // A checkpoint report returns credit but says nothing of the backlog: still full.
        assertTrue(c.applied(0, 7, 2, UNKNOWN));
        assertEquals(0, c.outstandingCommands());
        assertEquals(0, c.splitRoom(0));
        // The acknowledgement of the same watermark: the reader already read 30 of the 100.
        assertTrue(c.applied(0, 7, 2, 70));
        assertEquals(30, c.splitRoom(0));
        c.sent(0, 3, 10, 30);
        assertEquals(0, c.splitRoom(0));
        // The backlog falls to the low mark: room again, counting what is on its way.
        assertTrue(c.applied(0, 7, 2, 50));
        assertEquals(20, c.splitRoom(0), "100 - 50 held - 30 on their way");
        // An older acknowledgement arriving late changes nothing.
        assertFalse(c.applied(0, 7, 1, 90));
        assertEquals(20, c.splitRoom(0));
        assertTrue(c.applied(0, 7, 3, 80));
        assertEquals(20, c.splitRoom(0), "the 30 applied are now in the backlog");
        assertEquals(4, c.used(0).length);
    }

    @Test
    void aNewAttemptStartsWithItsOwnWindows() {
        ReaderCredits c = new ReaderCredits();
        c.register(0, 7, new ReaderWindow(4, 100, 10));
        c.sent(0, 1, 10, 10);
        c.register(0, 8, new ReaderWindow(4, 100, 10));
        assertEquals(0, c.outstandingCommands());
        assertEquals(10, c.splitRoom(0));
        c.forget(0);
        assertEquals(0, c.splitRoom(0), "no attempt, no room");
        assertEquals(0, c.freeCommands(0));
    }

    @Test
    void theRingKeepsCreditedEntriesOnlyUntilABacklogCoversThem() {
        ReaderCredits c = new ReaderCredits();
        c.register(0, 7, new ReaderWindow(8, 1 << 20, 1_000_000));
        for (long seq = 1; seq <= 10_000; seq++) {
            c.sent(0, seq, 1, 1);
            // Credit comes back from reports, the backlog from every other acknowledgement.
            c.applied(0, 7, seq, seq % 2 == 0 ? 0 : UNKNOWN);
            assertTrue(c.used(0)[3] <= 1, "at most the entry not yet covered by a backlog");
        }
        assertEquals(1_000_000, c.splitRoom(0));
    }
}
