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

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The engine's snapshot demand and the readers' apply acknowledgements: a snapshot offered behind
 * many acknowledgements is taken in the next drain, not after all of them, while the ordered
 * commands offered before it (here splits given back) still run before it, in offer order.
 */
class SnapshotBehindAcknowledgementsTest {
    private static final int ACKS = 50;
    private static final int DRAIN_BATCH = 4;

    @Test
    void aSnapshotDoesNotWaitForAcknowledgementsButForTheCommandsOfferedBeforeIt()
            throws Exception {
        LoopFixture f =
                new LoopFixture(
                        LoopFixture.config(1).drainBatch(DRAIN_BATCH).build(),
                        LoopFixture.splits(0),
                        false,
                        null);
        f.loop.open();
        f.loop.registerReader(0, 1);
        f.drain();
        for (int i = 0; i < ACKS; i++) {
            assertTrue(f.loop.assignmentApplied(0, 1, 0).isEnqueued());
        }
        List<TestSplit> back = Arrays.asList(TestSplit.of("b0"), TestSplit.of("b1"));
        assertTrue(f.loop.addSplitsBack(back, 0).isEnqueued());
        CompletableFuture<byte[]> snapshot = f.loop.snapshot(5);

        // One drain of DRAIN_BATCH units: behind 50 acknowledgements in one queue it would not
        // have reached the snapshot.
        f.loopExecutor.runOne();

        assertTrue(snapshot.isDone(), "the snapshot was taken in the first drain");
        List<String> log = f.enumerator.log;
        int returned = log.indexOf("addSplitsBack:0:2");
        int snapshotted = log.indexOf("snapshotState:5");
        assertTrue(
                returned >= 0 && snapshotted > returned,
                "splits given back before the snapshot are in it: " + log);
        assertEquals(5, CoordinatorSnapshotCodec.decode(snapshot.get()).checkpointId());
        long queued = f.metrics().get(CoordinatorMetrics.Gauge.QUEUED_COMMANDS);
        assertTrue(queued >= ACKS - DRAIN_BATCH, queued + " acknowledgements still queued");

        f.drain();

        assertEquals(0, f.metrics().get(CoordinatorMetrics.Gauge.QUEUED_COMMANDS));
        assertEquals(List.of(), f.failures);
    }
}
