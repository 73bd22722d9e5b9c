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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.junit.jupiter.api.Test;

/**
 * A reader's source event reaches the coordinator as the connector's versioned bytes and is decoded
 * on the loop (never on the thread that offered it), then handed to the enumerator only for the
 * registered attempt; a stale attempt's event is counted and dropped.
 */
class ReaderEventOnLoopTest {

    /** A numbered event. */
    static final class Ping implements SourceEvent {
        private static final long serialVersionUID = 1L;
        final int n;

        Ping(int n) {
            this.n = n;
        }
    }

    /** Version-less 4-byte codec that records every decode. */
    static final class PingSer implements Serializer<SourceEvent> {
        final List<Integer> decoded = new ArrayList<>();

        @Override
        public byte[] serialize(SourceEvent e) {
            return ByteBuffer.allocate(4).putInt(((Ping) e).n).array();
        }

        @Override
        public SourceEvent deserialize(byte[] bytes) {
            Ping p = new Ping(ByteBuffer.wrap(bytes).getInt());
            decoded.add(p.n);
            return p;
        }
    }

    @Test
    void eventBytesAreDecodedOnTheLoopAndReachTheEnumeratorForTheRegisteredAttemptOnly() {
        ManualExecutor loopExecutor = new ManualExecutor();
        ManualTimer timer = new ManualTimer();
        PingSer events = new PingSer();
        List<String> failures = new ArrayList<>();
        TestEnumerator[] enumerator = new TestEnumerator[1];
        CoordinatorEventLoop<TestSplit, TestEnumerator.State> loop =
                CoordinatorEventLoop.<TestSplit, TestEnumerator.State>builder()
                        .config(LoopFixture.config(2).build())
                        .enumeratorFactory(
                                new EnumeratorFactory<TestSplit, TestEnumerator.State>() {
                                    @Override
                                    public TestEnumerator create(
                                            SourceSplitEnumerator.Context<TestSplit> context) {
                                        enumerator[0] =
                                                new TestEnumerator(
                                                        context,
                                                        LoopFixture.splits(0),
                                                        false,
                                                        null);
                                        return enumerator[0];
                                    }

                                    @Override
                                    public TestEnumerator restore(
                                            SourceSplitEnumerator.Context<TestSplit> context,
                                            TestEnumerator.State state) {
                                        throw new UnsupportedOperationException();
                                    }
                                })
                        .splitSerializer(new TestSplit.Ser())
                        .stateSerializer(new TestEnumerator.StateSer())
                        .eventSerializer(events)
                        .dispatcher(new RecordingDispatcher())
                        .executor(loopExecutor)
                        .timer(timer)
                        .clock(timer.clock())
                        .workerPool(new SourceAsyncWorkerPool(new ManualExecutor()))
                        .failureHandler((where, cause) -> failures.add(where))
                        .build();
        loop.open();
        loop.registerReader(0, 10);
        loop.handleSourceEvent(0, 10, events.serialize(new Ping(1)));
        loop.handleSourceEvent(0, 9, events.serialize(new Ping(2)));
        assertTrue(events.decoded.isEmpty(), "nothing is decoded on the offering thread");

        loopExecutor.runAll();
        assertEquals(Arrays.asList(1), events.decoded, "the stale attempt's event is not decoded");
        assertTrue(enumerator[0].log.contains("handleSourceEvent:0"));
        assertEquals(
                1,
                enumerator[0].log.stream().filter(l -> l.startsWith("handleSourceEvent")).count());
        assertEquals(1, loop.metrics().get(Counter.STALE_READER_COMMANDS));
        assertTrue(failures.isEmpty(), failures.toString());
    }
}
