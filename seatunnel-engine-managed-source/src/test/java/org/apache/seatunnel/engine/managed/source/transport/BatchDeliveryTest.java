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

package org.apache.seatunnel.engine.managed.source.transport;

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * The receiving end of a batch: {@link SourceCommandTransportAdapter#deliverBatchFrame} delivers
 * each entry exactly as a separate {@link SourceCommandTransportAdapter#deliverFrame} would (same
 * routing, checks, answers and counters), in order, and refuses a batch that does not open as a
 * whole.
 */
class BatchDeliveryTest {
    private static final long SOURCE = 9L;
    private static final Address FROM = address(5701);

    /** A coordinator endpoint that records what it saw and answers by command id. */
    private static final class ScriptedEndpoint implements CoordinatorEndpoint<Address> {
        final List<SourceCommandEnvelope> seen = new ArrayList<>();

        @Override
        public AdmissionAck onReaderCommand(SourceCommandEnvelope env, Address from) {
            seen.add(env);
            if (env.commandId() % 3 == 0) {
                return AdmissionAck.retryLater(3, 7, ReasonCode.MAILBOX_COUNT_FULL);
            }
            if (env.commandId() % 5 == 0) {
                return AdmissionAck.rejected(
                        AdmissionStatus.STALE_TARGET, 3, ReasonCode.STALE_EPOCH);
            }
            return AdmissionAck.accepted(3, AdmissionAck.NO_SEQUENCE);
        }
    }

    private static List<SourceCommandEnvelope> reports(int n) {
        List<SourceCommandEnvelope> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(envelope(CommandKind.READER_CHECKPOINTED, SOURCE, i, 1, i + 1));
        }
        return out;
    }

    @Test
    void entriesAreDeliveredInOrderWithTheAnswersAndCountersOfSeparateDeliveries() {
        List<SourceCommandEnvelope> envs = reports(16);
        // An entry that does not decode is refused on its own, as it would be alone.
        byte[] broken = SourceCommandCodec.encode(envs.get(4));
        broken[broken.length - 1] ^= 1;

        TransportTargets<Address> separateTargets = new TransportTargets<>();
        ScriptedEndpoint separate = new ScriptedEndpoint();
        separateTargets.registerCoordinator(SOURCE, separate);
        TransportMetrics separateMetrics = new TransportMetrics();
        SourceCommandTransportAdapter<Address> one =
                new SourceCommandTransportAdapter<>(separateTargets, 1 << 10, 10, separateMetrics);
        List<AdmissionAck> separateAcks = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < envs.size(); i++) {
            byte[] frame = i == 4 ? broken : SourceCommandCodec.encode(envs.get(i));
            frames.add(frame);
            separateAcks.add(AdmissionAckCodec.decode(one.deliverFrame(frame, FROM)).ack());
        }

        TransportTargets<Address> batchTargets = new TransportTargets<>();
        ScriptedEndpoint batched = new ScriptedEndpoint();
        batchTargets.registerCoordinator(SOURCE, batched);
        TransportMetrics batchMetrics = new TransportMetrics();
        SourceCommandTransportAdapter<Address> many =
                new SourceCommandTransportAdapter<>(batchTargets, 1 << 10, 10, batchMetrics);
        CommandBatchCodec.AckResult answer =
                CommandBatchCodec.decodeAcks(
                        many.deliverBatchFrame(CommandBatchCodec.encode(frames), FROM),
                        CommandBatchCodec.MAX_ENTRIES);

        assertTrue(answer.opened(), answer::toString);
        assertEquals(separateAcks, answer.acks());
        assertEquals(separate.seen, batched.seen, "same envelopes, same order");
        assertEquals(15, batched.seen.size());
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, answer.acks().get(4).status());
        // Every counter but the batch's own matches the separate deliveries (the over-budget
        // count depends on real time, so it is left out).
        java.util.Map<String, Long> expected = separateMetrics.snapshot();
        java.util.Map<String, Long> actual = batchMetrics.snapshot();
        expected.put(TransportMetrics.BATCHES_RECEIVED, 1L);
        expected.remove(TransportMetrics.ADMISSION_OVER_BUDGET);
        actual.remove(TransportMetrics.ADMISSION_OVER_BUDGET);
        assertEquals(expected, actual);
    }

    @Test
    void aBatchThatDoesNotOpenIsRefusedAsAWholeWithTheDecodersReason() {
        TransportTargets<Address> targets = new TransportTargets<>();
        ScriptedEndpoint endpoint = new ScriptedEndpoint();
        targets.registerCoordinator(SOURCE, endpoint);
        TransportMetrics metrics = new TransportMetrics();
        SourceCommandTransportAdapter<Address> adapter =
                new SourceCommandTransportAdapter<>(targets, 1 << 10, 10, metrics);
        byte[] batch =
                CommandBatchCodec.encode(
                        Arrays.asList(
                                SourceCommandCodec.encode(reports(1).get(0)),
                                SourceCommandCodec.encode(reports(2).get(1))));
        batch[batch.length - 1] ^= 1;

        CommandBatchCodec.AckResult answer =
                CommandBatchCodec.decodeAcks(
                        adapter.deliverBatchFrame(batch, FROM), CommandBatchCodec.MAX_ENTRIES);

        assertTrue(answer.isSuccess(), answer::toString);
        assertFalse(answer.opened());
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, answer.batchStatus());
        assertEquals(ReasonCode.FRAME_CHECKSUM_MISMATCH, answer.reasonCode());
        assertTrue(endpoint.seen.isEmpty());
        assertEquals(1, metrics.decodeFailures());
        assertEquals(1, metrics.refused(ReasonCode.FRAME_CHECKSUM_MISMATCH));
        assertEquals(0, metrics.batchesReceived());
    }
}
