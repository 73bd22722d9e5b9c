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

package org.apache.seatunnel.engine.managed.faults.world;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.coordinator.DelayScheduler;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;

/**
 * The model run's one clock and timer queue, moved by hand.
 *
 * <p>Threading: confined to the run's thread. Time moves only in {@link #advance}, which fires due
 * timers in due order on the caller's thread; the coordinator's retry timers, its clock and the
 * readers' nano clock all read this one time line, so tests step time instead of sleeping.
 */
public final class ManualTime implements DelayScheduler, NanoClock {
    private final PriorityQueue<Timed> queue =
            new PriorityQueue<>(
                    (a, b) ->
                            a.due != b.due
                                    ? Long.compare(a.due, b.due)
                                    : Long.compare(a.seq, b.seq));
    private long nowMillis;
    private long seq;

    @Override
    public Cancellable schedule(Duration delay, Runnable action) {
        Timed t = new Timed(nowMillis + Math.max(0, delay.toMillis()), seq++, action);
        queue.add(t);
        return t;
    }

    @Override
    public long nanoTime() {
        return TimeUnit.MILLISECONDS.toNanos(nowMillis);
    }

    /** Moves time forward by {@code millis}, firing due timers in due order. */
    public void advance(long millis) {
        long target = nowMillis + millis;
        while (!queue.isEmpty() && queue.peek().due <= target) {
            Timed t = queue.poll();
            nowMillis = Math.max(nowMillis, t.due);
            if (!t.cancelled) {
                t.cancelled = true;
                t.action.run();
            }
        }
        nowMillis = target;
    }

    public long nowMillis() {
        return nowMillis;
    }

    /** Timers not yet fired or cancelled. */
    public int pendingTimers() {
        int n = 0;
        for (Timed t : queue) {
            if (!t.cancelled) {
                n++;
            }
        }
        return n;
    }

    /** A wall clock on this time line, for the coordinator. */
    public Clock clock() {
        ManualTime self = this;
        return new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(self.nowMillis);
            }
        };
    }

    private static final class Timed implements Cancellable {
        final long due;
        final long seq;
        final Runnable action;
        boolean cancelled;

        Timed(long due, long seq, Runnable action) {
            this.due = due;
            this.seq = seq;
            this.action = action;
        }

        @Override
        public boolean cancel() {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }
}
