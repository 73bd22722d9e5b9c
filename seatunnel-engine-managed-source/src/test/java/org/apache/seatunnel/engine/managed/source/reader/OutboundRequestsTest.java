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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.apache.seatunnel.engine.managed.source.concurrent.StartTogether;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.junit.jupiter.api.Test;

/**
 * The requests a reader attempt makes of its coordinator are deferred until the attempt is open,
 * numbered in the order the transport receives them, coalesced while a split request has no answer,
 * bounded by {@code reader.max-outstanding-requests}, and fenced once the attempt ended.
 */
class OutboundRequestsTest {

    /** A transport that records what it was handed and lets the test answer. */
    private static final class RecordingSender implements OutboundRequests.Sender {
        final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());

        @Override
        public CompletableFuture<AdmissionAck> send(
                CommandKind kind, long sequence, byte[] payload) {
            Sent s = new Sent(kind, sequence, payload);
            sent.add(s);
            return s.answer;
        }

        Sent get(int i) {
            return sent.get(i);
        }

        List<Long> sequences() {
            List<Long> out = new ArrayList<>();
            synchronized (sent) {
                for (Sent s : sent) {
                    out.add(s.sequence);
                }
            }
            return out;
        }
    }

    private static final class Sent {
        final CommandKind kind;
        final long sequence;
        final byte[] payload;
        final CompletableFuture<AdmissionAck> answer = new CompletableFuture<>();

        Sent(CommandKind kind, long sequence, byte[] payload) {
            this.kind = kind;
            this.sequence = sequence;
            this.payload = payload;
        }

        void accept() {
            answer.complete(AdmissionAck.accepted(1, AdmissionAck.NO_SEQUENCE));
        }
    }

    @Test
    void requestsMadeBeforeOpenWaitAndLeaveInTheOrderAskedWithIncreasingSequences() {
        OutboundRequests r = new OutboundRequests(8);
        RecordingSender t = new RecordingSender();
        r.sendEvent(new byte[] {1});
        r.requestSplit();
        r.sendEvent(new byte[] {2});
        assertEquals(3, r.outstanding());
        assertEquals(0, r.sent());

        r.open(t);
        assertEquals(3, t.sent.size());
        assertEquals(CommandKind.READER_EVENT, t.get(0).kind);
        assertArrayEquals(new byte[] {1}, t.get(0).payload);
        assertEquals(CommandKind.SPLIT_REQUEST, t.get(1).kind);
        assertEquals(CommandKind.READER_EVENT, t.get(2).kind);
        assertEquals(Arrays.asList(1L, 2L, 3L), t.sequences());
        assertEquals(3, r.sent());
    }

    @Test
    void splitRequestsWithoutAnAnswerBecomeOneSentWhenTheAnswerArrives() {
        OutboundRequests r = new OutboundRequests(8);
        RecordingSender t = new RecordingSender();
        r.open(t);
        r.requestSplit();
        r.requestSplit();
        r.requestSplit();
        assertEquals(1, t.sent.size(), "one request on the wire");
        assertEquals(2, r.coalesced());

        // The enumerator may have answered the first with a split the reader already finished:
        // the later requests ask for more, so one of them goes out once the first is answered.
        t.get(0).accept();
        assertEquals(2, t.sent.size(), "the coalesced request followed the answer");
        assertEquals(CommandKind.SPLIT_REQUEST, t.get(1).kind);
        assertEquals(2L, t.get(1).sequence);
        assertEquals(1, r.outstanding());
        t.get(1).accept();
        assertEquals(0, r.outstanding());
        assertEquals(2, t.sent.size(), "nothing else was asked for");
        r.requestSplit();
        assertEquals(3, t.sent.size(), "answered: the next request is a new one");
        assertEquals(3L, t.get(2).sequence);
        // Events are never coalesced: each is the connector's own message.
        r.sendEvent(new byte[] {7});
        r.sendEvent(new byte[] {7});
        assertEquals(5, t.sent.size());
    }

    @Test
    void atTheBoundAnEventIsRefusedAndASplitRequestWaitsForTheNextFreeSlot() {
        OutboundRequests r = new OutboundRequests(2);
        RecordingSender t = new RecordingSender();
        r.open(t);
        r.sendEvent(new byte[] {1});
        r.sendEvent(new byte[] {2});
        assertEquals(2, r.outstanding());

        RejectedExecutionException refused =
                assertThrows(RejectedExecutionException.class, () -> r.sendEvent(new byte[] {3}));
        assertTrue(refused.getMessage().contains("reader.max-outstanding-requests"));
        r.requestSplit();
        r.requestSplit();
        assertEquals(2, t.sent.size(), "nothing beyond the bound reached the transport");
        assertEquals(2, r.atBound(), "the refused event and the first deferred split request");
        assertEquals(1, r.coalesced(), "the second split request joined the deferred one");
        assertEquals(2, r.outstanding());

        t.get(0).accept();
        assertEquals(3, t.sent.size(), "the freed slot went to the deferred split request");
        assertEquals(CommandKind.SPLIT_REQUEST, t.get(2).kind);
        assertEquals(2, r.outstanding());
        assertThrows(RejectedExecutionException.class, () -> r.sendEvent(new byte[] {4}));

        t.get(1).accept();
        r.sendEvent(new byte[] {5});
        assertEquals(4, t.sent.size());
        assertEquals(Arrays.asList(1L, 2L, 3L, 4L), t.sequences());
    }

    @Test
    void refusedAndUndeliveredRequestsAreCountedAndFreeTheirSlot() {
        OutboundRequests r = new OutboundRequests(1);
        RecordingSender t = new RecordingSender();
        r.open(t);
        r.requestSplit();
        t.get(0)
                .answer
                .complete(
                        AdmissionAck.rejected(
                                AdmissionStatus.STALE_TARGET, 1, ReasonCode.UNREGISTERED_ATTEMPT));
        r.requestSplit();
        t.get(1).answer.completeExceptionally(new IllegalStateException("deadline"));
        r.requestSplit();
        t.get(2)
                .answer
                .complete(AdmissionAck.rejected(AdmissionStatus.DUPLICATE, 1, ReasonCode.NONE));
        assertEquals(3, t.sent.size(), "each failure freed the slot for the next request");
        assertEquals(2, r.undelivered(), "a DUPLICATE answer means it was delivered before");
        assertEquals(0, r.outstanding());
    }

    @Test
    void afterCloseNothingIsSentAndRequestsThatWaitedForOpenAreDropped() {
        OutboundRequests r = new OutboundRequests(4);
        RecordingSender t = new RecordingSender();
        r.requestSplit();
        r.sendEvent(new byte[] {1});
        r.close();
        assertEquals(2, r.fenced());
        assertEquals(0, r.outstanding());
        r.open(t);
        r.requestSplit();
        r.sendEvent(new byte[] {2});
        assertTrue(t.sent.isEmpty(), "a closed attempt sends nothing");
        assertEquals(4, r.fenced());
    }

    @Test
    void answersAfterCloseDoNotSendTheSplitRequestThatWaitedAtTheBound() {
        OutboundRequests r = new OutboundRequests(1);
        RecordingSender t = new RecordingSender();
        r.open(t);
        r.sendEvent(new byte[] {1});
        r.requestSplit();
        r.close();
        t.get(0).accept();
        assertEquals(1, t.sent.size());
        assertEquals(0, r.outstanding());
    }

    @Test
    void concurrentCallersHandTheTransportIncreasingSequences() throws Exception {
        OutboundRequests r = new OutboundRequests(1024);
        RecordingSender t = new RecordingSender();
        r.open(t);
        int threads = 4;
        int each = 200;
        StartTogether.run(
                threads,
                i -> {
                    for (int n = 0; n < each; n++) {
                        r.sendEvent(new byte[] {(byte) n});
                    }
                });
        List<Long> seqs = t.sequences();
        assertEquals(threads * each, seqs.size());
        for (int i = 0; i < seqs.size(); i++) {
            assertEquals(i + 1L, (long) seqs.get(i), "transport order is sequence order");
        }
    }
}
