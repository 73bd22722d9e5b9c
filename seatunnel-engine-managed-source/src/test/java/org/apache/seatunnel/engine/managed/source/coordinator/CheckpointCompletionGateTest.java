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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.concurrent.StartTogether;
import org.junit.jupiter.api.Test;

class CheckpointCompletionGateTest {
    private final CoordinatorMetrics metrics = new CoordinatorMetrics();
    private final List<Long> offered = new ArrayList<>();

    private CheckpointCompletionGate gate() {
        return new CheckpointCompletionGate(
                id -> {
                    offered.add(id);
                    return OfferResult.ENQUEUED;
                },
                metrics);
    }

    private long fromReaders() {
        return metrics.get(CoordinatorMetrics.Counter.COMPLETIONS_FROM_READERS);
    }

    @Test
    void theFirstNoticeOfACheckpointReachesTheLoopAndTheOthersDoNot() {
        CheckpointCompletionGate gate = gate();
        assertTrue(gate.fromReader(5));
        assertFalse(gate.fromReader(5), "a second reader's notice");
        assertFalse(gate.fromEnumerator(5), "the enumerator's own notice, later");
        assertEquals(List.of(5L), offered);
        assertEquals(1, fromReaders());
        assertEquals(5, gate.highestPassed());
    }

    @Test
    void aCompletionTheEnumeratorHeardFirstIsNotCountedAsTheReaders() {
        CheckpointCompletionGate gate = gate();
        assertTrue(gate.fromEnumerator(3));
        assertFalse(gate.fromReader(3));
        assertTrue(gate.fromReader(4));
        assertEquals(List.of(3L, 4L), offered);
        assertEquals(1, fromReaders());
    }

    @Test
    void aNoticeOfAnOlderCheckpointAfterANewerOneIsDropped() {
        CheckpointCompletionGate gate = gate();
        assertTrue(gate.fromEnumerator(7));
        assertFalse(gate.fromReader(6));
        assertEquals(List.of(7L), offered);
    }

    @Test
    void aNoticeTheLoopRefusedLetsTheNextNoticeOfThatCheckpointThrough() {
        AtomicInteger refusals = new AtomicInteger(1);
        List<Long> enqueued = new ArrayList<>();
        CheckpointCompletionGate gate =
                new CheckpointCompletionGate(
                        id -> {
                            if (refusals.getAndDecrement() > 0) {
                                return OfferResult.QUEUE_FULL;
                            }
                            enqueued.add(id);
                            return OfferResult.ENQUEUED;
                        },
                        metrics);
        assertFalse(gate.fromReader(9), "the loop's queue was full");
        assertEquals(Long.MIN_VALUE, gate.highestPassed());
        assertTrue(gate.fromEnumerator(9), "the next notice of 9 tries again");
        assertEquals(List.of(9L), enqueued);
        assertEquals(0, fromReaders());
    }

    /** Every task of a p=8 source tells the gate of 2,000 completions at once: each passes once. */
    @Test
    void concurrentNoticesOfOneCheckpointPassExactlyOnce() throws Exception {
        ConcurrentHashMap<Long, AtomicInteger> passes = new ConcurrentHashMap<>();
        CheckpointCompletionGate gate =
                new CheckpointCompletionGate(
                        id -> {
                            passes.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                            return OfferResult.ENQUEUED;
                        },
                        metrics);
        int tasks = 9;
        int checkpoints = 2_000;
        // Task 0 is the enumerator, the others are readers.
        StartTogether.run(
                tasks,
                t -> {
                    for (long id = 1; id <= checkpoints; id++) {
                        if (t == 0) {
                            gate.fromEnumerator(id);
                        } else {
                            gate.fromReader(id);
                        }
                    }
                });
        for (long id = 1; id <= checkpoints; id++) {
            AtomicInteger n = passes.get(id);
            // A later id may overtake an earlier one's notices: then the earlier never passes.
            assertTrue(n == null || n.get() == 1, "checkpoint " + id + " passed " + n + " times");
        }
        assertEquals(1, passes.get((long) checkpoints).get(), "the last checkpoint passed");
        assertEquals(checkpoints, gate.highestPassed());
    }
}
