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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.junit.jupiter.api.Test;

/** When a reader attempt tells its coordinator how far it got, and what it says. */
class AppliedAcksTest {

    /** Records every send; the test answers them. */
    private static final class Sends implements AppliedAcks.Sender {
        final List<long[]> sent = new ArrayList<>();
        final List<CompletableFuture<AdmissionAck>> answers = new ArrayList<>();

        @Override
        public CompletableFuture<AdmissionAck> send(long watermark, int backlog, long lastBarrier) {
            sent.add(new long[] {watermark, backlog, lastBarrier});
            CompletableFuture<AdmissionAck> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }

        void admitLast() {
            answers.get(answers.size() - 1).complete(AdmissionAck.accepted(1, -1));
        }

        void failLast() {
            answers.get(answers.size() - 1).completeExceptionally(new IllegalStateException());
        }

        long[] last() {
            return sent.get(sent.size() - 1);
        }
    }

    @Test
    void oneInFlightAndWhatChangedMeanwhileGoesInTheNext() {
        Sends s = new Sends();
        AppliedAcks acks = new AppliedAcks(s, 100);
        acks.applied(1, 64, 0);
        acks.applied(2, 128, 0);
        acks.applied(3, 160, 0);
        assertEquals(1, s.sent.size(), "one in flight");
        s.admitLast();
        assertEquals(2, s.sent.size());
        assertEquals(3, s.last()[0]);
        assertEquals(160, s.last()[1]);
        s.admitLast();
        assertEquals(2, s.sent.size(), "nothing new");
    }

    @Test
    void theBacklogAloneIsReportedAtTheLowMarkAndAtZeroOnly() {
        Sends s = new Sends();
        AppliedAcks acks = new AppliedAcks(s, 100);
        acks.applied(1, 100, 0);
        s.admitLast();
        for (int b = 99; b > 50; b--) {
            acks.backlog(b, 0);
        }
        assertEquals(1, s.sent.size(), "above the low mark: nothing to say");
        acks.backlog(50, 0);
        assertEquals(2, s.sent.size());
        assertEquals(1, s.last()[0]);
        assertEquals(50, s.last()[1]);
        s.admitLast();
        for (int b = 49; b > 0; b--) {
            acks.backlog(b, 0);
        }
        assertEquals(2, s.sent.size(), "between the low mark and zero: nothing");
        acks.backlog(0, 0);
        assertEquals(3, s.sent.size());
        assertEquals(0, s.last()[1]);
        s.admitLast();
        acks.backlog(0, 0);
        assertEquals(3, s.sent.size(), "zero again: nothing");
    }

    @Test
    void aLostReportIsSaidAgainWhenIdle() {
        Sends s = new Sends();
        AppliedAcks acks = new AppliedAcks(s, 100);
        acks.applied(1, 100, 0);
        s.admitLast();
        acks.backlog(0, 0);
        s.failLast();
        assertEquals(2, s.sent.size());
        acks.resend(1, 0, 0);
        assertEquals(3, s.sent.size(), "idle: the lost state is said again");
        assertEquals(0, s.last()[1]);
        s.admitLast();
        acks.resend(1, 0, 0);
        assertEquals(3, s.sent.size(), "admitted: nothing more to say");
    }

    @Test
    void withoutASplitWindowOnlyAppliesAreReported() {
        Sends s = new Sends();
        AppliedAcks acks = new AppliedAcks(s, 0);
        acks.applied(1, 5, 0);
        s.admitLast();
        acks.backlog(0, 0);
        assertEquals(1, s.sent.size());
        acks.applied(2, -1, 0);
        assertEquals(2, s.sent.size());
        assertEquals(-1, s.last()[1]);
    }

    @Test
    void eachStateCarriesTheLastBarrierTakenWhenItWasTaken() {
        Sends s = new Sends();
        AppliedAcks acks = new AppliedAcks(s, 100);
        acks.applied(1, 100, 4);
        assertEquals(4, s.last()[2]);
        // Taken after barrier 5 while the first is in flight: sent later, it says 5.
        acks.backlog(0, 5);
        s.admitLast();
        assertEquals(2, s.sent.size());
        assertEquals(0, s.last()[1]);
        assertEquals(5, s.last()[2]);
        // That state is lost; the attempt is idle after barrier 7 with nothing new. Said again,
        // it keeps barrier 5: it held before barrier 6 (a claim about 7 would be weaker).
        s.failLast();
        acks.resend(1, 0, 7);
        assertEquals(3, s.sent.size());
        assertEquals(5, s.last()[2], "the barrier of when the state was taken, not of the resend");
        // A new state taken after barrier 7 says 7.
        s.admitLast();
        acks.applied(2, 64, 7);
        assertEquals(7, s.last()[2]);
    }
}
