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

package org.apache.seatunnel.engine.managed.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Counts how often each {@link FaultPoint} is reached and answers, from its {@link FaultSchedule},
 * whether this occurrence fires. Every fired fault is logged so a failing test can print what
 * happened next to the schedule that replays it.
 *
 * <p>Threading: confined to the thread that drives the run (the in-process engine is
 * single-threaded); not thread-safe. Life cycle: enabled from construction until {@link
 * #disable()}, after which no point fires and occurrences are no longer counted (a run's fault-free
 * tail to completion).
 */
public final class FaultInjector {
    private final FaultSchedule schedule;
    private final Map<FaultPoint, long[]> counts = new EnumMap<>(FaultPoint.class);
    private final List<String> fired = new ArrayList<>();
    private boolean enabled = true;

    public FaultInjector(FaultSchedule schedule) {
        this.schedule = schedule;
        for (FaultPoint p : FaultPoint.values()) {
            counts.put(p, new long[1]);
        }
    }

    /** An injector that never fires. */
    public static FaultInjector none() {
        return new FaultInjector(FaultSchedule.NONE);
    }

    /**
     * The runtime reached {@code point}; returns the action to inject, or null to carry on.
     *
     * @param where a short description for the log (ids, never payloads)
     */
    public FaultAction at(FaultPoint point, String where) {
        if (!enabled) {
            return null;
        }
        long n = ++counts.get(point)[0];
        FaultAction a = schedule.actionAt(point, n);
        if (a != null) {
            fired.add(point.number() + "#" + n + ":" + a + " " + where);
        }
        return a;
    }

    /** Stops firing and counting. */
    public void disable() {
        enabled = false;
    }

    public boolean enabled() {
        return enabled;
    }

    /** How often {@code point} was reached while enabled. */
    public long occurrences(FaultPoint point) {
        return counts.get(point)[0];
    }

    /** The faults that fired, in order. */
    public List<String> fired() {
        return Collections.unmodifiableList(fired);
    }

    /** How many faults fired at {@code point}. */
    public int firedAt(FaultPoint point) {
        String prefix = point.number() + "#";
        int n = 0;
        for (String f : fired) {
            if (f.startsWith(prefix)) {
                n++;
            }
        }
        return n;
    }

    public FaultSchedule schedule() {
        return schedule;
    }

    @Override
    public String toString() {
        return "schedule=[" + schedule + "] fired=" + fired;
    }
}
