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

import org.junit.jupiter.api.Test;

class SequencedMpscRingTest {

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertEquals(1, new SequencedMpscRing<>(1).capacity());
        assertEquals(2048, new SequencedMpscRing<>(1024 + 64).capacity());
        assertEquals(1024, new SequencedMpscRing<>(1024).capacity());
        assertThrows(IllegalArgumentException.class, () -> new SequencedMpscRing<>(0));
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
    void slotsAreReusedAfterWrapping() {
        SequencedMpscRing<Long> ring = new SequencedMpscRing<>(2);
        for (long i = 0; i < 10; i++) {
            long seq = ring.claim();
            assertEquals(i, seq);
            assertEquals((int) (i % 2), ring.slotOf(seq));
            ring.publish(seq, i);
            assertTrue(ring.isHeadPublished());
            assertEquals(Long.valueOf(i), ring.poll());
            assertEquals(i + 1, ring.head());
        }
    }
}
