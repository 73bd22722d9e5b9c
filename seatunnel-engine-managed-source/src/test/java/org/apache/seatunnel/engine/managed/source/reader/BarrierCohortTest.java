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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A member's readers announced the same checkpoint form a cohort that completes once every one of
 * them took its barrier, however the barriers and the announcement interleave, counting each reader
 * once; completion wakes the members' drivers that wait in the barrier handoff and no other; a
 * cohort never replaces a newer one.
 */
class BarrierCohortTest {
    private final List<LoopSignal> signals = new ArrayList<>();
    private final List<ReaderMailbox> mailboxes = new ArrayList<>();

    private ReaderMailbox mailbox(int subtask) {
        LoopSignal s = new LoopSignal();
        ReaderMailbox m =
                new ReaderMailbox(
                        1,
                        2,
                        subtask,
                        3,
                        MailboxLimits.defaults(),
                        new WorkerMailboxBudget(64L << 20),
                        NanoClock.SYSTEM,
                        s,
                        new ReaderMailboxMetrics());
        signals.add(s);
        mailboxes.add(m);
        return m;
    }

    private BarrierCohort announce(long checkpointId, ReaderMailbox... members) {
        BarrierCohort c = new BarrierCohort(checkpointId, Arrays.asList(members));
        for (ReaderMailbox m : members) {
            m.announceBarrier(checkpointId, c);
        }
        for (LoopSignal s : signals) {
            s.clear();
        }
        return c;
    }

    @Test
    void completesWhenEveryMemberTookItsBarrierAndThenWakesTheDriversWaitingInTheHandoff() {
        ReaderMailbox a = mailbox(0);
        ReaderMailbox b = mailbox(1);
        ReaderMailbox c = mailbox(2);
        BarrierCohort cohort = announce(5, a, b, c);
        a.barriers().handoffWaiting(true);
        c.barriers().handoffWaiting(true);
        assertSame(cohort, a.barrierCohort(5));
        a.barriers().markTaken(5);
        b.barriers().markTaken(5);
        b.barriers().markTaken(5);
        assertFalse(cohort.complete(), "b counted once; c has not taken its barrier");
        assertFalse(signals.get(2).isPending(), "nobody is woken before the cohort is through");
        b.barriers().markTaken(4);
        assertFalse(cohort.complete(), "another checkpoint's barrier does not count");
        c.barriers().markTaken(5);
        assertTrue(cohort.complete());
        assertTrue(signals.get(0).isPending(), "a driver waiting in the handoff is woken");
        assertTrue(signals.get(2).isPending(), "a driver waiting in the handoff is woken");
        assertFalse(
                signals.get(1).isPending(),
                "a driver waiting for data is left alone: the cohort is nothing to it");
    }

    @Test
    void aBarrierTakenBeforeItsAnnouncementCountsAtOnce() {
        ReaderMailbox a = mailbox(0);
        ReaderMailbox b = mailbox(1);
        a.barriers().markTaken(7);
        BarrierCohort cohort = announce(7, a, b);
        assertFalse(a.isBarrierAnnounced(), "a late announcement is not raised");
        assertFalse(cohort.complete());
        b.barriers().markTaken(7);
        assertTrue(cohort.complete());
    }

    @Test
    void anOlderCohortNeverReplacesANewerOne() {
        ReaderMailbox a = mailbox(0);
        ReaderMailbox b = mailbox(1);
        BarrierCohort newer = announce(9, a, b);
        BarrierCohort older = new BarrierCohort(8, Arrays.asList(a, b));
        a.announceBarrier(8, older);
        assertSame(newer, a.barrierCohort(9));
        assertNull(a.barrierCohort(8));
        a.announceBarrier(10, null);
        assertSame(newer, a.barrierCohort(9), "an announcement without a cohort keeps it");
    }
}
