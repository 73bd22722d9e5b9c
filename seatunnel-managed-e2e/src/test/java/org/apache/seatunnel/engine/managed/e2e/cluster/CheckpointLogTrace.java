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

package org.apache.seatunnel.engine.managed.e2e.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engine checkpoints of one job, read from a member's log (the part written while the job ran):
 * each checkpoint from the line its coordinator logs when it triggers it ({@code wait checkpoint
 * completed: N}) to the line it logs when the checkpoint completed ({@code pending checkpoint(N/…)
 * notify finished!}), to the millisecond of cluster.sh's log pattern ({@code HH:mm:ss.SSS}). Lane
 * neutral: both lanes' jobs are measured by the engine's own lines. A checkpoint triggered and
 * never completed (the job ended first, or it failed) counts as triggered only.
 *
 * <p>Threading: immutable.
 */
final class CheckpointLogTrace {
    private static final Pattern TIME = Pattern.compile("^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{3}) ");
    private static final Pattern TRIGGERED = Pattern.compile("wait checkpoint completed: (\\d+)");
    private static final Pattern COMPLETED =
            Pattern.compile("pending checkpoint\\((\\d+)/\\d+@\\d+\\) notify finished!");
    private static final Pattern SCHEDULING =
            Pattern.compile("checkpoint is enabled, start schedule trigger pending checkpoint");
    private static final long DAY_MILLIS = 24L * 3600 * 1000;
    private static final long FINAL = Long.MAX_VALUE;

    /** One line of the trace: when (local time of day, as logged) and what ("T3", "C3", ...). */
    static final class Event {
        final long timeOfDayMillis;
        final String label;

        Event(long timeOfDayMillis, String label) {
            this.timeOfDayMillis = timeOfDayMillis;
            this.label = label;
        }
    }

    private final List<Long> millis;
    private final int unfinished;
    private final List<Event> events;

    private CheckpointLogTrace(List<Long> millis, int unfinished, List<Event> events) {
        this.millis = Collections.unmodifiableList(millis);
        this.unfinished = unfinished;
        this.events = Collections.unmodifiableList(events);
    }

    /** The checkpoints whose trigger and completion lines are both in {@code log}. */
    static CheckpointLogTrace parse(String log) {
        Map<Long, Long> triggeredAt = new HashMap<>();
        List<Long> durations = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        long lastTime = -1;
        long dayOffset = 0;
        for (String line : log.split("\n")) {
            Matcher t = TIME.matcher(line);
            if (!t.find()) {
                continue;
            }
            long time =
                    ((Long.parseLong(t.group(1)) * 60 + Long.parseLong(t.group(2))) * 60
                                            + Long.parseLong(t.group(3)))
                                    * 1000
                            + Long.parseLong(t.group(4));
            if (lastTime >= 0 && time + dayOffset < lastTime - DAY_MILLIS / 2) {
                // Past midnight: the log's clock starts again at 00:00.
                dayOffset += DAY_MILLIS;
            }
            time += dayOffset;
            lastTime = time;
            if (SCHEDULING.matcher(line).find()) {
                events.add(new Event(time, "scheduling"));
                continue;
            }
            Matcher trig = TRIGGERED.matcher(line);
            if (trig.find()) {
                long id = Long.parseLong(trig.group(1));
                triggeredAt.put(id, time);
                events.add(new Event(time, "T" + name(id)));
                continue;
            }
            Matcher done = COMPLETED.matcher(line);
            if (done.find()) {
                long id = Long.parseLong(done.group(1));
                Long start = triggeredAt.remove(id);
                if (start != null) {
                    durations.add(time - start);
                    events.add(new Event(time, "C" + name(id)));
                }
            }
        }
        return new CheckpointLogTrace(durations, triggeredAt.size(), events);
    }

    private static String name(long checkpointId) {
        return checkpointId == FINAL ? "final" : Long.toString(checkpointId);
    }

    /** The scheduling start, triggers and completions, in log order. */
    List<Event> events() {
        return events;
    }

    /** Each completed checkpoint's milliseconds from trigger to completion, in completion order. */
    List<Long> millis() {
        return millis;
    }

    /** Checkpoints triggered whose completion the log does not show. */
    int unfinished() {
        return unfinished;
    }

    /**
     * "n checkpoints, median m ms, longest l ms, sum s ms", or "no checkpoint", and how many were
     * triggered and never completed, if any.
     */
    String summary() {
        String open = unfinished == 0 ? "" : "; " + unfinished + " triggered, not completed";
        if (millis.isEmpty()) {
            return "no checkpoint" + open;
        }
        List<Long> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        long sum = 0;
        for (long m : sorted) {
            sum += m;
        }
        return String.format(
                        Locale.ROOT,
                        "%d checkpoints, median %d ms, longest %d ms, sum %d ms",
                        sorted.size(),
                        sorted.get((sorted.size() - 1) / 2),
                        sorted.get(sorted.size() - 1),
                        sum)
                + open;
    }
}
