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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the interrupt checks of a member's Lane A readers: one periodic task per distinct {@code
 * reader.interrupt-check-interval}, present only while a reader with that interval is open.
 *
 * <p>Threading: {@link #watch} and {@link Registration#cancel()} from any thread (registration is
 * guarded by this object's monitor, held only to add or remove); the checks run on the member's
 * watchdog thread, one after another, and must be short and non-blocking.
 *
 * <p>Why polling: Zeta cancels a task by interrupting its thread, and a thread's interrupt is
 * visible only in its own flag: the JDK has no listener for it. A reader inside a poll turn that
 * waits in a way that ignores interrupts (it honours {@code wakeup()}, as the SPI asks) would never
 * learn of the cancel, so another thread must read the flag and turn it into the attempt's terminal
 * signal. One task for all readers of an interval keeps the cost independent of the reader count.
 */
public final class InterruptWatch {
    private static final Logger LOG = LoggerFactory.getLogger(InterruptWatch.class);

    private final Supplier<ScheduledExecutorService> scheduler;
    // Guarded by this.
    private final Map<Long, Ticker> tickers = new HashMap<>();

    /**
     * @param scheduler the member's watchdog, looked up when the first check is registered
     */
    public InterruptWatch(Supplier<ScheduledExecutorService> scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** Runs {@code check} every {@code intervalNanos} until the registration is cancelled. */
    public synchronized Registration watch(long intervalNanos, Runnable check) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNanos);
        }
        Ticker t = tickers.get(intervalNanos);
        if (t == null) {
            t = new Ticker();
            t.future =
                    scheduler
                            .get()
                            .scheduleAtFixedRate(
                                    t, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
            tickers.put(intervalNanos, t);
        }
        t.checks.add(check);
        return new Registration(intervalNanos, check);
    }

    /** Periodic tasks currently scheduled (one per interval in use). */
    public synchronized int tickers() {
        return tickers.size();
    }

    private synchronized void remove(long intervalNanos, Runnable check) {
        Ticker t = tickers.get(intervalNanos);
        if (t == null || !t.checks.remove(check)) {
            return;
        }
        if (t.checks.isEmpty()) {
            t.future.cancel(false);
            tickers.remove(intervalNanos);
        }
    }

    /** One reader's check. */
    public final class Registration {
        private final long intervalNanos;
        private final Runnable check;

        private Registration(long intervalNanos, Runnable check) {
            this.intervalNanos = intervalNanos;
            this.check = check;
        }

        /** Stops the check. Idempotent. */
        public void cancel() {
            remove(intervalNanos, check);
        }
    }

    /** The checks of one interval. Threading: runs on the watchdog thread only. */
    private static final class Ticker implements Runnable {
        final CopyOnWriteArrayList<Runnable> checks = new CopyOnWriteArrayList<>();
        // Written once under the watch's monitor before the ticker is published in the map.
        ScheduledFuture<?> future;

        @Override
        public void run() {
            for (Runnable c : checks) {
                try {
                    c.run();
                } catch (RuntimeException e) {
                    // A failing check must not end the periodic task for every other reader.
                    LOG.warn("A Lane A interrupt check failed", e);
                }
            }
        }
    }
}
