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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.WorkerClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool on real bounded executors, one per worker class: member-wide queue bounds refuse, a
 * blocked worker class does not hold the other, lanes bound one coordinator and are released.
 */
class SourceAsyncWorkerPoolTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final Map<WorkerClass, ThreadPoolExecutor> executors = new EnumMap<>(WorkerClass.class);
    private final CountDownLatch release = new CountDownLatch(1);

    private SourceAsyncWorkerPool pool(int threads, int queue) {
        for (WorkerClass wc : WorkerClass.values()) {
            executors.put(
                    wc,
                    new ThreadPoolExecutor(
                            threads,
                            threads,
                            0,
                            TimeUnit.MILLISECONDS,
                            new ArrayBlockingQueue<>(queue)));
        }
        return new SourceAsyncWorkerPool(executors);
    }

    @AfterEach
    void stop() {
        release.countDown();
        executors.values().forEach(ThreadPoolExecutor::shutdownNow);
    }

    /** A task that blocks until the test releases it, recording how it ended. */
    private final class Blocking implements SourceAsyncWorkerPool.PoolTask {
        final AtomicInteger ran = new AtomicInteger();
        final List<RejectedExecutionException> rejections = new CopyOnWriteArrayList<>();

        @Override
        public void run() {
            ran.incrementAndGet();
            try {
                release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void rejected(RejectedExecutionException cause) {
            rejections.add(cause);
        }
    }

    @Test
    void theMemberQueueOfAWorkerClassRefusesBeyondItsBound() {
        SourceAsyncWorkerPool pool = pool(1, 1);
        SourceAsyncWorkerPool.CoordinatorShare a = pool.newShare(4, 4);
        SourceAsyncWorkerPool.CoordinatorShare b = pool.newShare(4, 4);
        Blocking running = new Blocking();
        Blocking queued = new Blocking();
        assertTrue(a.submit(running, WorkerClass.DISCOVERY));
        await().atMost(BOUND).until(() -> running.ran.get() == 1);
        assertTrue(b.submit(queued, WorkerClass.DISCOVERY), "the member queue has one place");
        assertFalse(b.submit(new Blocking(), WorkerClass.DISCOVERY), "member queue full");
        assertEquals(1, pool.rejected());
        assertEquals(1, b.running(), "the refused task gave its slot back");
        assertEquals(1L, pool.snapshot().get(SourceAsyncWorkerPool.QUEUED + "Discovery"));
        assertEquals(1L, pool.snapshot().get(SourceAsyncWorkerPool.RUNNING + "Discovery"));
    }

    @Test
    void aBlockedWorkerClassDoesNotHoldTheOther() {
        SourceAsyncWorkerPool pool = pool(1, 4);
        SourceAsyncWorkerPool.CoordinatorShare lane = pool.newShare(4, 4);
        Blocking discovery = new Blocking();
        assertTrue(lane.submit(discovery, WorkerClass.DISCOVERY));
        await().atMost(BOUND).until(() -> discovery.ran.get() == 1);
        CountDownLatch computed = new CountDownLatch(1);
        assertTrue(
                lane.submit(
                        new SourceAsyncWorkerPool.PoolTask() {
                            @Override
                            public void run() {
                                computed.countDown();
                            }

                            @Override
                            public void rejected(RejectedExecutionException cause) {}
                        },
                        WorkerClass.COMPUTE));
        await().atMost(BOUND).until(() -> computed.getCount() == 0);
    }

    @Test
    void aLaneRunsAtMostItsConcurrencyQueuesItsCapacityAndIsReleasedOnClose() {
        SourceAsyncWorkerPool pool = pool(4, 16);
        SourceAsyncWorkerPool.CoordinatorShare lane = pool.newShare(1, 1);
        Blocking first = new Blocking();
        Blocking waiting = new Blocking();
        assertTrue(lane.submit(first, WorkerClass.DISCOVERY));
        assertTrue(lane.submit(waiting, WorkerClass.DISCOVERY));
        assertFalse(lane.submit(new Blocking(), WorkerClass.DISCOVERY), "lane queue full");
        assertEquals(1, lane.running());
        assertEquals(1, lane.queued());
        assertEquals(1, pool.openShares());

        lane.close();
        assertEquals(0, pool.openShares());
        assertEquals(1, waiting.rejections.size(), "the waiting task is told it never runs");
        assertFalse(lane.submit(new Blocking(), WorkerClass.DISCOVERY), "closed lane refuses");
        release.countDown();
        await().atMost(BOUND).until(() -> lane.running() == 0);
        assertEquals(0, waiting.ran.get());
    }
}
