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

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.annotation.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the interrupt checks of a member's Lane A readers: one periodic task per distinct {@code
 * reader.interrupt-check-interval}, scheduled only while a reader with that interval is active. A
 * host activates its check when the member's turn watchdog finds one of its poll turns running and
 * deactivates it once that turn ended, so readers that idle, or run only short turns, cause no
 * periodic work at all. Zeta-only and member-wide, unlike the engine-neutral turn watches ({@code
 * TurnWatch}, {@code TurnWatchdog}) whose long-turn finding switches its checks on.
 *
 * <p>Threading: {@link #watch}, {@link Registration#activate()}, {@link Registration#deactivate()}
 * and {@link Registration#cancel()} from any thread (guarded by this object's monitor, held only to
 * add, remove and schedule); the checks run on the member's watchdog thread, one after another, and
 * must be short and non-blocking.
 *
 * <p>Why polling: Zeta cancels a task by interrupting its thread, and a thread's interrupt is
 * visible only in its own flag: the JDK has no listener for it. A reader inside a poll turn that
 * waits in a way that ignores interrupts (it honours {@code wakeup()}, as the SPI asks) would never
 * learn of the cancel, so another thread must read the flag and turn it into the attempt's terminal
 * signal. Only a reader inside a turn needs it: between turns the host waits in a way that ends on
 * an interrupt and sees the flag itself. One task for all active readers of an interval keeps the
 * cost independent of the reader count.
 */
public final class InterruptWatch {
    private static final Logger LOG = LoggerFactory.getLogger(InterruptWatch.class);

    private final Supplier<ScheduledExecutorService> scheduler;

    // Guarded by this.
    @GuardedBy("this")
    private final Map<Long, Ticker> tickers = new HashMap<>();

    /**
     * @param scheduler the member's watchdog, looked up when the first check is activated
     */
    public InterruptWatch(Supplier<ScheduledExecutorService> scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * Registers {@code check}, dormant: it runs every {@code intervalNanos} while the registration
     * is active, until it is cancelled.
     */
    public synchronized Registration watch(long intervalNanos, Runnable check) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive: " + intervalNanos);
        }
        Ticker t = tickers.get(intervalNanos);
        if (t == null) {
            t = new Ticker();
            tickers.put(intervalNanos, t);
        }
        t.registered++;
        return new Registration(intervalNanos, check);
    }

    /** Periodic tasks currently scheduled (one per interval with an active reader). */
    public synchronized int tickers() {
        int n = 0;
        for (Ticker t : tickers.values()) {
            if (t.future != null) {
                n++;
            }
        }
        return n;
    }

    private synchronized void setActive(long intervalNanos, Runnable check, boolean active) {
        Ticker t = tickers.get(intervalNanos);
        if (t == null) {
            return;
        }
        if (active) {
            if (!t.checks.contains(check)) {
                t.checks.add(check);
            }
            if (t.future == null) {
                t.future =
                        scheduler
                                .get()
                                .scheduleAtFixedRate(
                                        t, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
            }
        } else {
            t.checks.remove(check);
            if (t.checks.isEmpty() && t.future != null) {
                t.future.cancel(false);
                t.future = null;
            }
        }
    }

    private synchronized void remove(long intervalNanos, Runnable check) {
        setActive(intervalNanos, check, false);
        Ticker t = tickers.get(intervalNanos);
        if (t != null && --t.registered == 0) {
            tickers.remove(intervalNanos);
        }
    }

    /** One reader's check. */
    public final class Registration {
        private final long intervalNanos;
        private final Runnable check;

        // Guarded by the watch's monitor.
        @GuardedBy("InterruptWatch.this")
        private boolean cancelled;

        private Registration(long intervalNanos, Runnable check) {
            this.intervalNanos = intervalNanos;
            this.check = check;
        }

        /** The reader runs poll turns: check it every interval. */
        public void activate() {
            synchronized (InterruptWatch.this) {
                if (!cancelled) {
                    setActive(intervalNanos, check, true);
                }
            }
        }

        /** The reader is quiet: stop checking it (the periodic task ends with the last one). */
        public void deactivate() {
            setActive(intervalNanos, check, false);
        }

        /** Stops the check for good. Idempotent. */
        public void cancel() {
            synchronized (InterruptWatch.this) {
                if (!cancelled) {
                    cancelled = true;
                    remove(intervalNanos, check);
                }
            }
        }
    }

    /** The checks of one interval. Threading: runs on the watchdog thread only. */
    private static final class Ticker implements Runnable {
        final CopyOnWriteArrayList<Runnable> checks = new CopyOnWriteArrayList<>();

        // Guarded by the monitor of the InterruptWatch that owns the ticker.
        @GuardedBy("InterruptWatch.this")
        ScheduledFuture<?> future;

        @GuardedBy("InterruptWatch.this")
        int registered;

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
