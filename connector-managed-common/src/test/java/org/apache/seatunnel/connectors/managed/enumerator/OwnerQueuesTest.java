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

package org.apache.seatunnel.connectors.managed.enumerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The per-owner split queues both kit enumerators hold their splits in. */
class OwnerQueuesTest {

    private static OwnerQueues<Integer> queues(List<Integer> initial, AtomicInteger mappings) {
        return new OwnerQueues<>(
                initial,
                (split, parallelism) -> {
                    mappings.incrementAndGet();
                    return split % parallelism;
                },
                () -> 3);
    }

    @Test
    void initialSplitsReachTheirOwnersOnlyAtFirstUse() {
        AtomicInteger mappings = new AtomicInteger();
        OwnerQueues<Integer> q = queues(Arrays.asList(5, 1, 4), mappings);

        assertEquals(Arrays.asList(5, 1, 4), q.snapshot(), "as constructed before first use");
        assertEquals(3, q.size());
        assertEquals(0, mappings.get(), "no owner mapping before first use");

        List<Integer> got = new ArrayList<>();
        assertEquals(2, q.handOut(1, 10, got::addAll));
        assertEquals(Arrays.asList(1, 4), got, "owner 1's splits in arrival order");
        assertEquals(1, q.size());
        assertTrue(q.isEmpty(1));
        assertEquals(Arrays.asList(5), q.snapshot());
    }

    @Test
    void handOutTakesAtMostMaxAndAddFirstGoesBeforeTheRest() {
        OwnerQueues<Integer> q = queues(new ArrayList<>(), new AtomicInteger());
        for (int s : new int[] {0, 3, 6, 9}) {
            assertEquals(0, q.addLast(s));
        }
        assertEquals(0, q.addFirst(12));

        List<Integer> got = new ArrayList<>();
        assertEquals(2, q.handOut(0, 2, got::addAll));
        assertEquals(Arrays.asList(12, 0), got);
        assertEquals(Arrays.asList(3, 6, 9), q.snapshot());
        assertEquals(0, q.handOut(2, 5, got::addAll), "nothing for owner 2");
    }

    @Test
    void aFailedDeliveryPutsTheBatchBackInItsOrder() {
        OwnerQueues<Integer> q = queues(Arrays.asList(0, 3, 6), new AtomicInteger());
        IllegalStateException boom = new IllegalStateException("delivery failed");

        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () ->
                                q.handOut(
                                        0,
                                        2,
                                        batch -> {
                                            throw boom;
                                        }));

        assertSame(boom, e);
        assertEquals(3, q.size());
        assertEquals(Arrays.asList(0, 3, 6), q.snapshot(), "the batch is back at the front");
    }
}
