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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.PriorityQueue;
import org.apache.seatunnel.api.source.managed.Cancellable;

/** A manual clock and timer: time moves only in {@link #advance}. */
final class ManualTimer implements DelayScheduler {
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
        Timed t = new Timed(nowMillis + delay.toMillis(), seq++, action);
        queue.add(t);
        return t;
    }

    /** Moves time forward, firing due actions in due order. */
    void advance(Duration d) {
        advance(d, false);
    }

    /**
     * Moves time forward and fires due actions even if they were cancelled: a real timer thread
     * that had already taken an action when the cancel came still runs it.
     */
    void advanceRacingCancel(Duration d) {
        advance(d, true);
    }

    private void advance(Duration d, boolean evenIfCancelled) {
        long target = nowMillis + d.toMillis();
        while (!queue.isEmpty() && queue.peek().due <= target) {
            Timed t = queue.poll();
            nowMillis = Math.max(nowMillis, t.due);
            if (!t.cancelled || evenIfCancelled) {
                t.cancelled = true;
                t.action.run();
            }
        }
        nowMillis = target;
    }

    int pending() {
        int n = 0;
        for (Timed t : queue) {
            if (!t.cancelled) {
                n++;
            }
        }
        return n;
    }

    long nowMillis() {
        return nowMillis;
    }

    Clock clock() {
        ManualTimer self = this;
        return new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
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
