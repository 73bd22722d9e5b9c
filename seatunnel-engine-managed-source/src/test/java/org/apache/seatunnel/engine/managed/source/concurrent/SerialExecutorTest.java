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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerialExecutorTest {

    /** Queued units of work; a drain runs at most its budget of them. */
    private static final class Work implements SerialExecutor.Body {
        final ArrayDeque<Runnable> units = new ArrayDeque<>();
        final List<Integer> budgets = new ArrayList<>();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();

        @Override
        public void drain(int budget, CompletableFuture<?> until, long deadlineNanos) {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            try {
                budgets.add(budget);
                for (int i = 0; i < budget && (until == null || !until.isDone()); i++) {
                    Runnable r;
                    synchronized (units) {
                        r = units.poll();
                    }
                    if (r == null) {
                        break;
                    }
                    r.run();
                }
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public boolean hasWork() {
            synchronized (units) {
                return !units.isEmpty();
            }
        }

        void add(Runnable r) {
            synchronized (units) {
                units.add(r);
            }
        }
    }

    @Test
    void aDrainRunsItsBatchThenReschedulesItselfWhileWorkIsLeft() {
        ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        Work work = new Work();
        SerialExecutor serial = new SerialExecutor("loop", tasks::add, 2, null, work);
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            work.add(ran::incrementAndGet);
        }
        serial.schedule();
        serial.schedule();
        assertEquals(1, tasks.size(), "a second schedule while one is queued queues nothing");
        while (!tasks.isEmpty()) {
            tasks.poll().run();
        }
        assertEquals(5, ran.get());
        assertEquals(List.of(2, 2, 2), work.budgets, "three drains of at most two units each");
    }

    @Test
    void aCallerTakesOverAScheduledDrainAndTheStaleTaskFindsNothing() {
        ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        Work work = new Work();
        SerialExecutor serial = new SerialExecutor("loop", tasks::add, 2, null, work);
        List<Thread> ranOn = new ArrayList<>();
        CompletableFuture<Void> answer = new CompletableFuture<>();
        work.add(() -> ranOn.add(Thread.currentThread()));
        work.add(
                () -> {
                    assertTrue(serial.owner().isOwner(), "the caller owns the work while draining");
                    answer.complete(null);
                });
        serial.schedule();
        assertTrue(serial.runOnCaller(answer, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        assertTrue(answer.isDone());
        assertEquals(List.of(Thread.currentThread()), ranOn);
        assertFalse(serial.owner().isOwner(), "the claim is released after the drain");
        tasks.poll().run();
        assertEquals(List.of(Integer.MAX_VALUE, 2), work.budgets);
        assertTrue(work.units.isEmpty());
    }

    @Test
    void onAPoolOfManyThreadsNoTwoDrainsOverlapAndNothingIsLost() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Work work = new Work();
            SerialExecutor serial = new SerialExecutor("loop", pool, 3, null, work);
            int producers = 4;
            int each = 2_000;
            CountDownLatch done = new CountDownLatch(producers * each);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                Thread t =
                        new Thread(
                                () -> {
                                    for (int i = 0; i < each; i++) {
                                        work.add(done::countDown);
                                        serial.schedule();
                                    }
                                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(done.await(30, TimeUnit.SECONDS), "units left: " + done.getCount());
            assertEquals(0, work.overlaps.get(), "two drains ran at once");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theDrainRunsWithTheGivenContextClassLoaderAndRestoresTheCallers() {
        ClassLoader loader = new URLClassLoader(new URL[0], null);
        Work work = new Work();
        SerialExecutor serial = new SerialExecutor("loop", Runnable::run, 1, loader, work);
        ClassLoader[] seen = new ClassLoader[1];
        work.add(() -> seen[0] = Thread.currentThread().getContextClassLoader());
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        serial.schedule();
        assertSame(loader, seen[0]);
        assertSame(before, Thread.currentThread().getContextClassLoader());
    }

    @Test
    void aRefusedDrainTaskLeavesTheExecutorIdleSoALaterScheduleRetries() {
        AtomicInteger refusals = new AtomicInteger(1);
        ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        Work work = new Work();
        SerialExecutor serial =
                new SerialExecutor(
                        "loop",
                        task -> {
                            if (refusals.getAndDecrement() > 0) {
                                throw new RejectedExecutionException("full");
                            }
                            tasks.add(task);
                        },
                        1,
                        null,
                        work);
        serial.schedule();
        assertTrue(tasks.isEmpty());
        serial.schedule();
        assertEquals(1, tasks.size(), "the refused schedule left the claim free");
    }

    @Test
    void aWaiterIsUnparkedWhenAnotherThreadsDrainReleasesTheClaim() throws Exception {
        Work work = new Work();
        ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        SerialExecutor serial = new SerialExecutor("loop", tasks::add, 1, null, work);
        CountDownLatch draining = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        work.add(
                () -> {
                    draining.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        serial.schedule();
        Thread drainer = new Thread(tasks.poll());
        drainer.start();
        draining.await();
        assertFalse(
                serial.runOnCaller(new CompletableFuture<>(), System.nanoTime() + 1_000_000),
                "the claim is held by the drainer");
        Thread me = Thread.currentThread();
        assertTrue(serial.registerHandoffWaiter(me));
        assertFalse(serial.registerHandoffWaiter(drainer), "one waiter at a time");
        release.countDown();
        drainer.join();
        // The release unparked this thread: a park now returns at once (the permit is there).
        long start = System.nanoTime();
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(30));
        assertTrue(
                System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30),
                "the waiter was not unparked");
        serial.clearHandoffWaiter(me);
    }
}
