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

package org.apache.seatunnel.engine.managed.source.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.jctools.queues.MessagePassingQueue;
import org.junit.jupiter.api.Test;

class BoundedMpscQueuesTest {

    @Test
    void theBoundIsTheCapacityRoundedUpToAPowerOfTwoForEverySize() {
        int[][] capacityAndBound = {
            {1, 1},
            {2, 2},
            {3, 4},
            {4, 4},
            {255, 256},
            {256, 256},
            {257, 512},
            {4096, 4096},
            {1 << 16, 1 << 16}
        };
        for (int[] c : capacityAndBound) {
            MessagePassingQueue<Integer> q = BoundedMpscQueues.create(c[0]);
            int offered = 0;
            int polled = 0;
            for (int lap = 0; lap < 3; lap++) {
                while (q.offer(offered)) {
                    offered++;
                }
                assertEquals(c[1], q.size(), "capacity " + c[0] + ", lap " + lap);
                assertFalse(q.offer(-1), "full at the bound");
                // Half drained and refilled: the queue wraps or links a chunk, never more room.
                for (int i = 0; i < c[1] / 2 + 1; i++) {
                    assertEquals(Integer.valueOf(polled++), q.poll(), "FIFO, capacity " + c[0]);
                }
            }
        }
    }

    @Test
    void elementsComeOutInOfferOrderAcrossChunks() {
        MessagePassingQueue<Integer> q = BoundedMpscQueues.create(64, 4);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < round % 64 + 1 && q.offer(next); i++) {
                next++;
            }
            for (int i = 0; i < (round * 7) % 40; i++) {
                Integer e = q.poll();
                if (e == null) {
                    break;
                }
                assertEquals(expected++, e.intValue());
            }
        }
        for (Integer e = q.poll(); e != null; e = q.poll()) {
            assertEquals(expected++, e.intValue());
        }
        assertEquals(next, expected);
        assertNull(q.poll());
    }

    @Test
    void aLargeQueueTakesOneChunkUntilItFills() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        // Warm up class loading, which allocates on this thread too.
        BoundedMpscQueues.create(1 << 16);
        long before = threads.getThreadAllocatedBytes(id);
        MessagePassingQueue<Integer> q = BoundedMpscQueues.create(1 << 16);
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(
                allocated < 8 * 1024,
                "a 65,536-slot queue allocated " + allocated + " bytes before anything was queued");
        assertTrue(q.offer(1));
    }

    @Test
    void capacitiesOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> BoundedMpscQueues.create(0));
        assertThrows(IllegalArgumentException.class, () -> BoundedMpscQueues.create(-1));
    }
}
