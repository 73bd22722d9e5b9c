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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A member runs one periodic task per interval in use, not one per reader, only while a reader of
 * that interval is active, stops it when the last active reader goes quiet or leaves, and a failing
 * check does not stop the others.
 */
class InterruptWatchTest {
    /**
     * Counts the periodic tasks it was given: its queue's size is no count of them, since a task is
     * out of the queue while it runs, and at a 1 ms rate it often is.
     */
    private static final class CountingScheduler extends ScheduledThreadPoolExecutor {
        final AtomicInteger periodic = new AtomicInteger();

        CountingScheduler() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(
                Runnable command, long initialDelay, long period, TimeUnit unit) {
            periodic.incrementAndGet();
            return super.scheduleAtFixedRate(command, initialDelay, period, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(
                Runnable command, long initialDelay, long delay, TimeUnit unit) {
            periodic.incrementAndGet();
            return super.scheduleWithFixedDelay(command, initialDelay, delay, unit);
        }
    }

    private final CountingScheduler scheduler = new CountingScheduler();
    private final InterruptWatch watch = new InterruptWatch(() -> scheduler);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void readersOfOneIntervalShareOneTaskThatStopsWithTheLastOfThem() throws Exception {
        long interval = TimeUnit.MILLISECONDS.toNanos(1);
        CountDownLatch a = new CountDownLatch(3);
        CountDownLatch b = new CountDownLatch(3);
        InterruptWatch.Registration ra = watch.watch(interval, a::countDown);
        InterruptWatch.Registration rb = watch.watch(interval, b::countDown);
        ra.activate();
        rb.activate();
        assertEquals(1, watch.tickers());
        assertEquals(1, scheduler.periodic.get(), "one task for the interval");
        assertTrue(a.await(10, TimeUnit.SECONDS));
        assertTrue(b.await(10, TimeUnit.SECONDS));

        InterruptWatch.Registration rc = watch.watch(TimeUnit.MILLISECONDS.toNanos(50), () -> {});
        rc.activate();
        assertEquals(2, watch.tickers());
        ra.cancel();
        ra.cancel();
        assertEquals(2, watch.tickers());
        rb.cancel();
        rc.cancel();
        assertEquals(0, watch.tickers());
        scheduler.purge();
        assertEquals(0, scheduler.getQueue().size(), "no periodic task is left behind");
    }

    @Test
    void idleReadersScheduleNothingAndAQuietReaderIsNoLongerChecked() throws Exception {
        long interval = TimeUnit.MILLISECONDS.toNanos(1);
        AtomicInteger runs = new AtomicInteger();
        InterruptWatch.Registration r = watch.watch(interval, runs::incrementAndGet);
        InterruptWatch.Registration idle = watch.watch(interval, () -> {});
        assertEquals(0, watch.tickers(), "registered readers that never ran a turn");
        assertEquals(0, scheduler.periodic.get());

        r.activate();
        r.activate();
        assertEquals(1, watch.tickers());
        assertEquals(1, scheduler.periodic.get(), "activation is idempotent");
        CountDownLatch checked = new CountDownLatch(1);
        InterruptWatch.Registration probe = watch.watch(interval, checked::countDown);
        probe.activate();
        assertTrue(checked.await(10, TimeUnit.SECONDS));
        probe.deactivate();
        r.deactivate();
        assertEquals(0, watch.tickers(), "the last active reader went quiet");
        scheduler.purge();
        assertEquals(0, scheduler.getQueue().size());

        // A cancelled registration cannot be woken again by a late activation.
        r.cancel();
        r.activate();
        assertEquals(0, watch.tickers());
        idle.cancel();
        probe.cancel();
    }

    @Test
    void aFailingCheckDoesNotStopTheOthers() throws Exception {
        long interval = TimeUnit.MILLISECONDS.toNanos(1);
        AtomicInteger failures = new AtomicInteger();
        CountDownLatch healthy = new CountDownLatch(5);
        watch.watch(
                        interval,
                        () -> {
                            failures.incrementAndGet();
                            throw new IllegalStateException("broken check");
                        })
                .activate();
        watch.watch(interval, healthy::countDown).activate();
        assertTrue(healthy.await(10, TimeUnit.SECONDS));
        assertTrue(failures.get() >= 5, "the failing check kept running too");
    }
}
