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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SequencedMpscRingTest {

    @Test
    void capacityIsExactAndTheChunkNeverExceedsIt() {
        assertEquals(1, new SequencedMpscRing<>(1).capacity());
        assertEquals(1, new SequencedMpscRing<>(1).chunkSize());
        assertEquals(1024 + 64, new SequencedMpscRing<>(1024 + 64).capacity());
        assertEquals(64, new SequencedMpscRing<>(1024 + 64).chunkSize());
        assertEquals(4, new SequencedMpscRing<>(3).chunkSize());
        assertEquals(16, new SequencedMpscRing<>(1024, 10).chunkSize());
        assertThrows(IllegalArgumentException.class, () -> new SequencedMpscRing<>(0));
        assertThrows(IllegalArgumentException.class, () -> new SequencedMpscRing<>(8, 0));
    }

    @Test
    void theConsumerSeesSequenceOrderEvenWhenALaterClaimPublishesFirst() {
        SequencedMpscRing<String> ring = new SequencedMpscRing<>(4);
        long first = ring.claim();
        long second = ring.claim();
        ring.publish(second, "second");
        assertNull(ring.poll(), "the head sequence is claimed but not published");
        assertTrue(ring.hasClaimedUnpublished());
        ring.publish(first, "first");
        assertFalse(ring.hasClaimedUnpublished());
        assertEquals("first", ring.poll());
        assertEquals("second", ring.poll());
        assertNull(ring.poll());
        assertFalse(ring.hasClaimed());
    }

    @Test
    void aLaterChunkPublishedFirstWaitsForTheHeadInTheEarlierChunk() {
        SequencedMpscRing<Long> ring = new SequencedMpscRing<>(8, 2);
        long[] seq = new long[5];
        for (int i = 0; i < seq.length; i++) {
            seq[i] = ring.claim();
        }
        // Sequences 2..4 live in chunks 1 and 2, linked by their publishers before chunk 0's
        // slots are written.
        for (int i = seq.length - 1; i >= 1; i--) {
            ring.publish(seq[i], seq[i]);
        }
        assertEquals(3, ring.reachableChunks());
        assertTrue(ring.hasClaimedUnpublished());
        assertNull(ring.peek());
        assertNull(ring.poll());
        ring.publish(seq[0], seq[0]);
        for (long s : seq) {
            assertEquals(Long.valueOf(s), ring.peek());
            assertEquals(Long.valueOf(s), ring.poll());
        }
        assertNull(ring.poll());
        assertFalse(ring.hasClaimed());
    }

    @Test
    void aSingleSlotRingTakesOneChunkPerSequence() {
        SequencedMpscRing<Long> ring = new SequencedMpscRing<>(1);
        for (long i = 0; i < 10; i++) {
            long seq = ring.claim();
            assertEquals(i, seq);
            assertTrue(ring.hasClaimedUnpublished());
            ring.publish(seq, i);
            assertTrue(ring.isHeadPublished());
            assertEquals(Long.valueOf(i), ring.poll());
            assertEquals(i + 1, ring.head());
            assertFalse(ring.hasClaimedUnpublished());
        }
    }

    @Test
    void memoryFollowsWhatIsQueuedUpToTheBoundAndBackToOneChunk() {
        int capacity = 1024 + 64;
        SequencedMpscRing<Long> ring = new SequencedMpscRing<>(capacity);
        int chunk = ring.chunkSize();
        assertEquals(1, ring.reachableChunks(), "an idle ring holds one chunk");
        for (int lap = 0; lap < 3; lap++) {
            // At the bound: every reservation claimed and published, none consumed.
            long first = -1;
            for (int i = 0; i < capacity; i++) {
                long s = ring.claim();
                first = first < 0 ? s : first;
                ring.publish(s, s);
            }
            int atBound = ring.reachableChunks();
            assertTrue(
                    atBound <= capacity / chunk + 2,
                    "at the bound the ring holds " + atBound + " chunks of " + chunk);
            assertTrue(atBound >= capacity / chunk, "the queued sequences need their chunks");
            for (int i = 0; i < capacity; i++) {
                assertEquals(Long.valueOf(first + i), ring.poll());
            }
            assertNull(ring.poll());
            assertEquals(1, ring.reachableChunks(), "drained, the ring is back to one chunk");
        }
        // A trickle that never queues more than one command moves through chunks but holds one.
        for (int i = 0; i < 10 * chunk; i++) {
            long s = ring.claim();
            ring.publish(s, s);
            assertTrue(ring.reachableChunks() <= 2);
            assertEquals(Long.valueOf(s), ring.poll());
        }
    }

    /**
     * Producers that hold a reservation (a semaphore of {@code capacity} permits, as the mailbox's
     * command count) claim and publish with random pauses between the two; the consumer must see
     * every sequence once, in order, and the ring never holds more chunks than its bound allows.
     */
    @Test
    void concurrentProducersAcrossChunkBoundariesAreSeenInSequenceOrder() throws Exception {
        long seed = Long.getLong("ring.seed", System.nanoTime());
        Random rnd = new Random(seed);
        int capacity = 1 + rnd.nextInt(40);
        int chunkSize = 1 + rnd.nextInt(8);
        SequencedMpscRing<Long> ring = new SequencedMpscRing<>(capacity, chunkSize);
        int producers = 4;
        int perProducer = 20_000;
        Semaphore reservations = new Semaphore(capacity);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long pauses = rnd.nextLong();
            Thread t =
                    new Thread(
                            () -> {
                                Random local = new Random(pauses);
                                try {
                                    for (int i = 0; i < perProducer; i++) {
                                        reservations.acquire();
                                        long s = ring.claim();
                                        if (local.nextInt(64) == 0) {
                                            Thread.yield();
                                        }
                                        ring.publish(s, s);
                                    }
                                } catch (Throwable e) {
                                    failure.compareAndSet(null, e);
                                }
                            },
                            "ring-producer-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long expected = 0;
        long total = (long) producers * perProducer;
        int maxChunks = ring.reachableChunks();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (expected < total) {
            Long e = ring.poll();
            if (e == null) {
                assertTrue(
                        System.nanoTime() < deadline, "stalled at " + expected + "; seed " + seed);
                Thread.onSpinWait();
                continue;
            }
            assertEquals(expected, e.longValue(), "seed " + seed);
            expected++;
            reservations.release();
            maxChunks = Math.max(maxChunks, ring.reachableChunks());
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertNull(failure.get(), "seed " + seed);
        assertNull(ring.poll());
        int bound = capacity / ring.chunkSize() + 2;
        assertTrue(maxChunks <= bound, maxChunks + " chunks, bound " + bound + "; seed " + seed);
    }
}
