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
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member-wide turn watchdog: checks the running poll turns of every active reader attempt when
 * they need it (see {@link TurnWatch} for when), at most once per period ({@value
 * #DEFAULT_PERIOD_MILLIS} ms by default) while a reader runs turns back to back, and does nothing
 * at all — no timer, no wake-up — while no reader is active. A reader becomes active with its first
 * turn after being quiet and quiet when a turn reports nothing available or end of input, so the
 * work is proportional to the readers that are actually polling, not to the readers that exist. A
 * reader on slow data, active for one short turn per row, costs about one check per {@code
 * poll.hard-duration}. One per member, over the per-attempt {@link TurnWatch}es (see there for the
 * three watch names).
 *
 * <p>Why readers are registered once and only flag their activity: a reader on slow data becomes
 * active and quiet once per row, and adding it to a set of active readers and removing it again
 * cost its thread two map updates and an allocation per row.
 *
 * <p>Threading: {@link #watch}/{@link #unwatch} (the host, at open and close) and {@link
 * #activated} (reader loops' driving threads) — any thread; checks run on the injected scheduler's
 * thread, one at a time. At most one check is armed: {@code armedAt} holds when it is due, and only
 * the check armed for that time runs (a reader needing one earlier arms a new one, and the one it
 * replaced finds itself stale and returns). A check takes {@code armedAt} before it looks at the
 * readers' flags, and an activation raises its reader's flag before it looks at {@code armedAt}
 * (all sequentially consistent), so an activation racing with a check is either seen by that check
 * or arms its own: none is lost.
 */
public final class TurnWatchdog {
    private static final Logger LOG = LoggerFactory.getLogger(TurnWatchdog.class);
    public static final long DEFAULT_PERIOD_MILLIS = 100;
    private static final long NOT_ARMED = Long.MIN_VALUE;

    /** Where checks run: the member's watchdog scheduler, or a manual one in tests. */
    public interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    private final Scheduler scheduler;
    private final NanoClock clock;
    private final long periodNanos;
    private final Set<TurnWatch> watched = ConcurrentHashMap.newKeySet();
    // When the armed check is due, on this watchdog's clock, or NOT_ARMED.
    private final AtomicLong armedAt = new AtomicLong(NOT_ARMED);
    private final AtomicLong checks = new AtomicLong();
    private final AtomicLong ticks = new AtomicLong();

    public TurnWatchdog(Scheduler scheduler, NanoClock clock, long periodNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNanos);
        }
        this.scheduler = scheduler;
        this.clock = clock;
        this.periodNanos = periodNanos;
    }

    /** A watchdog on a scheduled executor with the default period. */
    public static TurnWatchdog on(ScheduledExecutorService executor) {
        return new TurnWatchdog(
                (task, delay) -> executor.schedule(task, delay, TimeUnit.NANOSECONDS),
                NanoClock.SYSTEM,
                TimeUnit.MILLISECONDS.toNanos(DEFAULT_PERIOD_MILLIS));
    }

    /** Watches {@code w}'s turns from now on; {@code w} tells {@link #activated} when it polls. */
    void watch(TurnWatch w) {
        watched.add(w);
        if (w.isActive()) {
            armWithin(periodNanos);
        }
    }

    /** Stops watching {@code w}. */
    void unwatch(TurnWatch w) {
        watched.remove(w);
    }

    /** A watched reader raised its active flag; it needs a check within {@code firstCheckNanos}. */
    void activated(long firstCheckNanos) {
        armWithin(firstCheckNanos);
    }

    private void armWithin(long delayNanos) {
        long due = clock.nanoTime() + delayNanos;
        if (due == NOT_ARMED) {
            due++;
        }
        for (; ; ) {
            long armed = armedAt.get();
            if (armed != NOT_ARMED && armed - due <= 0) {
                return;
            }
            if (armedAt.compareAndSet(armed, due)) {
                long at = due;
                try {
                    scheduler.schedule(() -> tick(at), delayNanos);
                } catch (RuntimeException e) {
                    // The member is shutting down: nothing left to watch.
                    armedAt.compareAndSet(at, NOT_ARMED);
                    LOG.debug("Turn watchdog could not schedule a check: {}", e.toString());
                }
                return;
            }
        }
    }

    private void tick(long due) {
        if (!armedAt.compareAndSet(due, NOT_ARMED)) {
            // Replaced by a check due earlier, which ran or will run and arm what comes next.
            return;
        }
        ticks.incrementAndGet();
        long next = Long.MAX_VALUE;
        for (TurnWatch w : watched) {
            if (!w.isActive()) {
                continue;
            }
            checks.incrementAndGet();
            long wants = TurnWatch.EVERY_PERIOD;
            try {
                wants = w.check();
            } catch (RuntimeException e) {
                LOG.warn("Turn watchdog check failed", e);
            }
            next = Math.min(next, wants == TurnWatch.EVERY_PERIOD ? periodNanos : wants);
        }
        if (next != Long.MAX_VALUE) {
            armWithin(next);
        }
    }

    /** Readers being watched now: those polling, from their first turn until they go quiet. */
    public int activeReaders() {
        int n = 0;
        for (TurnWatch w : watched) {
            if (w.isActive()) {
                n++;
            }
        }
        return n;
    }

    /** True while a check is scheduled. */
    public boolean armed() {
        return armedAt.get() != NOT_ARMED;
    }

    /** Reader checks run so far (one per active reader per check). */
    public long checks() {
        return checks.get();
    }

    /** Checks the watchdog ran so far, each over every active reader: its own wake-ups. */
    public long ticks() {
        return ticks.get();
    }
}
