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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member-wide turn watchdog: checks the running poll turns of every active reader attempt once
 * per period ({@value #DEFAULT_PERIOD_MILLIS} ms by default), and does nothing at all — no timer,
 * no wake-up — while no reader is active. A reader becomes active with its first turn after being
 * quiet and quiet when a turn reports nothing available or end of input ({@link TurnWatch}), so the
 * work is proportional to the readers that are actually polling, not to the readers that exist. One
 * per member, over the per-attempt {@link TurnWatch}es (see there for the three watch names).
 *
 * <p>Threading: {@link #activate}/{@link #deactivate} — any thread (reader loops' driving threads);
 * checks run on the injected scheduler's thread, one at a time (a check re-arms itself only after
 * it ran). Arming is a compare-and-set on {@code armed}; a check that finds no active reader
 * disarms and then looks again, and an activation adds itself before it tries to arm, so (both
 * being sequentially consistent) an activation racing with a disarm is never lost.
 */
public final class TurnWatchdog {
    private static final Logger LOG = LoggerFactory.getLogger(TurnWatchdog.class);
    public static final long DEFAULT_PERIOD_MILLIS = 100;

    /** Where checks run: the member's watchdog scheduler, or a manual one in tests. */
    public interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    private final Scheduler scheduler;
    private final long periodNanos;
    private final Set<TurnWatch> active = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicLong checks = new AtomicLong();
    private final Runnable tick = this::tick;

    public TurnWatchdog(Scheduler scheduler, long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNanos);
        }
        this.scheduler = scheduler;
        this.periodNanos = periodNanos;
    }

    /** A watchdog on a scheduled executor with the default period. */
    public static TurnWatchdog on(ScheduledExecutorService executor) {
        return new TurnWatchdog(
                (task, delay) -> executor.schedule(task, delay, TimeUnit.NANOSECONDS),
                TimeUnit.MILLISECONDS.toNanos(DEFAULT_PERIOD_MILLIS));
    }

    void activate(TurnWatch w) {
        active.add(w);
        arm();
    }

    void deactivate(TurnWatch w) {
        active.remove(w);
    }

    private void arm() {
        if (armed.compareAndSet(false, true)) {
            try {
                scheduler.schedule(tick, periodNanos);
            } catch (RuntimeException e) {
                // The member is shutting down: nothing left to watch.
                armed.set(false);
                LOG.debug("Turn watchdog could not schedule a check: {}", e.toString());
            }
        }
    }

    private void tick() {
        for (TurnWatch w : active) {
            checks.incrementAndGet();
            try {
                w.check();
            } catch (RuntimeException e) {
                LOG.warn("Turn watchdog check failed", e);
            }
        }
        armed.set(false);
        if (!active.isEmpty()) {
            arm();
        }
    }

    /** Readers being watched now. */
    public int activeReaders() {
        return active.size();
    }

    /** True while a check is scheduled. */
    public boolean armed() {
        return armed.get();
    }

    /** Reader checks run so far (one per active reader per period). */
    public long checks() {
        return checks.get();
    }
}
