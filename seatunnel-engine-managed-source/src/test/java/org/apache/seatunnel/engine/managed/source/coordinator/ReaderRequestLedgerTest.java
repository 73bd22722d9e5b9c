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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A coordinator acts on each numbered reader request once per attempt: a redelivered request is a
 * duplicate, a new attempt starts its own numbering, and unnumbered frames are never held back.
 */
class ReaderRequestLedgerTest {

    @Test
    void aRedeliveredRequestOfTheSameAttemptIsADuplicate() {
        ReaderRequestLedger l = new ReaderRequestLedger(2);
        assertTrue(l.isNew(0, 7, 1));
        l.taken(0, 7, 1);
        assertFalse(l.isNew(0, 7, 1), "the same request again");
        assertTrue(l.isNew(0, 7, 2));
        l.taken(0, 7, 2);
        assertFalse(l.isNew(0, 7, 1), "an older one");
        assertTrue(l.isNew(1, 7, 1), "subtasks are apart");
    }

    @Test
    void aRequestThatWasNotTakenMayBeDeliveredAgain() {
        ReaderRequestLedger l = new ReaderRequestLedger(1);
        // The coordinator loop was full: the sender retries and the retry must be taken.
        assertTrue(l.isNew(0, 7, 1));
        assertTrue(l.isNew(0, 7, 1));
        l.taken(0, 7, 1);
        assertFalse(l.isNew(0, 7, 1));
    }

    @Test
    void anotherAttemptStartsItsOwnNumbering() {
        ReaderRequestLedger l = new ReaderRequestLedger(1);
        l.taken(0, 7, 5);
        assertTrue(l.isNew(0, 8, 1));
        l.taken(0, 8, 1);
        assertTrue(l.isNew(0, 7, 6), "the fence, not the ledger, refuses an old attempt");
        assertFalse(l.isNew(0, 8, 1));
    }

    @Test
    void framesWithoutASequenceAreNeverHeldBack() {
        ReaderRequestLedger l = new ReaderRequestLedger(1);
        l.taken(0, 7, ReaderRequestLedger.NO_SEQUENCE);
        assertTrue(l.isNew(0, 7, ReaderRequestLedger.NO_SEQUENCE));
        assertTrue(l.isNew(0, 7, ReaderRequestLedger.NO_SEQUENCE));
    }
}
