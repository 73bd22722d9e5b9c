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

package org.apache.seatunnel.connectors.managed.reader.fetcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.junit.jupiter.api.Test;

/** The fetch queue holds at most its record and byte bounds, and never loses a wakeup. */
class FetchQueueTest {

    private static FetchedRecords<Integer> batch(int records, long bytesEach) {
        FetchedRecords.Builder<Integer> b = FetchedRecords.builder();
        for (int i = 0; i < records; i++) {
            b.add("s", i, bytesEach);
        }
        return b.build();
    }

    @Test
    void aBatchThatWouldPassTheRecordBoundWaitsAndIsRefusedAtItsDeadline() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(10, 1 << 20);
        assertTrue(q.put(batch(6, 1), 0));
        assertTrue(q.put(batch(4, 1), 0), "exactly at the bound fits");
        assertFalse(q.put(batch(1, 1), TimeUnit.MILLISECONDS.toNanos(1)), "one past the bound");
        assertEquals(10, q.records());
        assertEquals(1, q.fullWaits());
    }

    @Test
    void aBatchThatWouldPassTheByteBoundWaits() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(1000, 100);
        assertTrue(q.put(batch(2, 50), 0));
        assertFalse(q.put(batch(1, 1), 0));
        assertEquals(100, q.bytes());
    }

    @Test
    void aBatchLargerThanTheBoundsIsAdmittedAloneOnly() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(4, 100);
        assertTrue(q.put(batch(9, 50), 0), "an empty queue admits an oversize batch");
        assertFalse(q.put(batch(1, 1), 0), "nothing joins it");
        q.poll();
        assertTrue(q.put(batch(1, 1), 0));
    }

    @Test
    void takingABatchReleasesAWaitingPut() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(4, 1 << 20);
        assertTrue(q.put(batch(4, 1), 0));
        CompletableFuture<Boolean> put =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return q.put(batch(2, 1), TimeUnit.SECONDS.toNanos(30));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        assertEquals(4, q.poll().recordCount());
        assertTrue(put.get(30, TimeUnit.SECONDS));
        assertEquals(2, q.records());
    }

    @Test
    void availabilityIsCompleteWhenABatchWaitsAndCompletesOnPut() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(4, 1 << 20);
        CompletableFuture<Void> f = q.availability();
        assertFalse(f.isDone());
        assertSame(f, q.availability(), "the same future until it completes");
        q.put(batch(1, 1), 0);
        assertTrue(f.isDone(), "a put completes the pending future");
        assertTrue(q.availability().isDone(), "a queued batch means available");
    }

    @Test
    void closeRefusesPutsAndCompletesAvailability() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(4, 1 << 20);
        CompletableFuture<Void> f = q.availability();
        q.close();
        assertTrue(f.isDone());
        assertFalse(q.put(batch(1, 1), 0));
        assertNull(q.poll());
    }

    @Test
    void emptyBatchesAreNotQueued() throws Exception {
        FetchQueue<Integer> q = new FetchQueue<>(4, 1 << 20);
        assertTrue(q.put(FetchedRecords.empty(), 0));
        assertTrue(q.isEmpty());
    }
}
