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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import org.apache.seatunnel.engine.managed.source.reader.BarrierCohort;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.transport.TransportFixtures;
import org.apache.seatunnel.engine.managed.source.transport.TransportTargets;
import org.junit.jupiter.api.Test;

/**
 * A member's announcement of a checkpoint raises it for each listed reader of that job registered
 * here, and makes the readers of one announcement one cohort; a lone reader gets none, and a reader
 * of another job or source is not touched.
 */
class BarrierAnnouncerTest {
    private static final long SOURCE = 7L;
    private final TransportTargets<Address> targets = new TransportTargets<>();
    private final WorkerMailboxBudget budget = new WorkerMailboxBudget(64L << 20);
    private final Address coordinator = TransportFixtures.address(5701);

    private ReaderMailbox register(long sourceRuntimeId, int subtask) {
        ReaderMailbox m = TransportFixtures.mailbox(sourceRuntimeId, subtask, 1, 16, budget);
        targets.registerReader(TransportFixtures.fenced(m, coordinator));
        return m;
    }

    @Test
    void theLocalReadersOfOneAnnouncementFormOneCohort() {
        ReaderMailbox a = register(SOURCE, 0);
        ReaderMailbox b = register(SOURCE, 2);
        ReaderMailbox c = register(SOURCE, 3);
        ReaderMailbox otherSource = register(SOURCE + 1, 1);
        BarrierAnnouncer.announceLocally(targets, TransportFixtures.JOB, SOURCE, 4, 0, 2, 3, 1);
        BarrierCohort cohort = a.barrierCohort(4);
        assertNotNull(cohort);
        assertEquals(3, cohort.size(), "subtask 1 of this source is not on this member");
        assertSame(cohort, b.barrierCohort(4));
        assertSame(cohort, c.barrierCohort(4));
        assertTrue(a.isBarrierAnnounced() && b.isBarrierAnnounced() && c.isBarrierAnnounced());
        assertEquals(0, otherSource.announcedBarrier(), "another source's reader is untouched");
        assertNull(otherSource.barrierCohort(4));
    }

    @Test
    void aLoneReaderIsAnnouncedWithoutACohort() {
        ReaderMailbox a = register(SOURCE, 0);
        BarrierAnnouncer.announceLocally(targets, TransportFixtures.JOB, SOURCE, 4, 0);
        assertEquals(4, a.announcedBarrier());
        assertNull(a.barrierCohort(4));
    }

    @Test
    void anotherJobsAnnouncementIsIgnored() {
        ReaderMailbox a = register(SOURCE, 0);
        register(SOURCE, 1);
        BarrierAnnouncer.announceLocally(targets, TransportFixtures.JOB + 1, SOURCE, 4, 0, 1);
        assertEquals(0, a.announcedBarrier());
        assertNull(a.barrierCohort(4));
    }
}
