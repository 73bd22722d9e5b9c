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
import java.util.List;
import java.util.Random;

/**
 * Which occurrence of which fault point fires, and how. Immutable; any thread. The occurrence
 * counters live in a {@link FaultInjector}, so one schedule replays identically in every run that
 * drives the runtime through the same steps.
 *
 * <p>Text form, printed by {@link #toString()} and read back by {@link #parse(String)}: rules
 * separated by commas, each {@code <point>@<occurrence>[x<count>]:<ACTION>} — fault point number
 * (1–11), the 1-based occurrence of that point at which the rule starts firing, how many
 * consecutive occurrences it covers (default 1) and the {@link FaultAction}. Example: {@code
 * 2@3:LOSE,3@1x5:RETRY_LATER,11@2:CRASH}. {@code seed:<long>} is also accepted and means {@link
 * #random(long)}; an empty string is the schedule without faults.
 */
public final class FaultSchedule {
    /** The schedule that never fires. */
    public static final FaultSchedule NONE = new FaultSchedule(Collections.<Rule>emptyList());

    private final List<Rule> rules;

    private FaultSchedule(List<Rule> rules) {
        this.rules = Collections.unmodifiableList(new ArrayList<>(rules));
    }

    public static FaultSchedule of(Rule... rules) {
        List<Rule> l = new ArrayList<>();
        Collections.addAll(l, rules);
        return new FaultSchedule(l);
    }

    /** One rule: fire {@code action} at occurrences {@code [occurrence, occurrence + count)}. */
    public static Rule at(FaultPoint point, int occurrence, FaultAction action) {
        return new Rule(point, occurrence, 1, action);
    }

    public static Rule at(FaultPoint point, int occurrence, int count, FaultAction action) {
        return new Rule(point, occurrence, count, action);
    }

    /** A random schedule of 1–4 rules over all points, occurrences 1–6. */
    public static FaultSchedule random(long seed) {
        return random(seed, 4, 6);
    }

    /**
     * A random schedule: 1 to {@code maxRules} rules, each at a random point and occurrence in
     * {@code [1, maxOccurrence]} with an action the point allows; RETRY_LATER covers up to 8
     * consecutive occurrences (a storm), others up to 2.
     */
    public static FaultSchedule random(long seed, int maxRules, int maxOccurrence) {
        Random rnd = new Random(seed);
        int n = 1 + rnd.nextInt(Math.max(1, maxRules));
        List<Rule> l = new ArrayList<>(n);
        FaultPoint[] points = FaultPoint.values();
        for (int i = 0; i < n; i++) {
            FaultPoint p = points[rnd.nextInt(points.length)];
            FaultAction a = p.actions().get(rnd.nextInt(p.actions().size()));
            int count = 1 + rnd.nextInt(a == FaultAction.RETRY_LATER ? 8 : 2);
            l.add(new Rule(p, 1 + rnd.nextInt(Math.max(1, maxOccurrence)), count, a));
        }
        return new FaultSchedule(l);
    }

    /** Reads the text form (see the class comment). */
    public static FaultSchedule parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            return NONE;
        }
        if (t.startsWith("seed:")) {
            return random(Long.parseLong(t.substring(5).trim()));
        }
        List<Rule> l = new ArrayList<>();
        for (String part : t.split(",")) {
            String r = part.trim();
            int atSign = r.indexOf('@');
            int colon = r.indexOf(':');
            if (atSign <= 0 || colon < atSign) {
                throw new IllegalArgumentException(
                        "fault rule '" + r + "' is not <point>@<occurrence>[x<count>]:<ACTION>");
            }
            FaultPoint p = FaultPoint.byNumber(Integer.parseInt(r.substring(0, atSign)));
            String occ = r.substring(atSign + 1, colon);
            int x = occ.indexOf('x');
            int occurrence = Integer.parseInt(x < 0 ? occ : occ.substring(0, x));
            int count = x < 0 ? 1 : Integer.parseInt(occ.substring(x + 1));
            l.add(new Rule(p, occurrence, count, FaultAction.valueOf(r.substring(colon + 1))));
        }
        return new FaultSchedule(l);
    }

    /** The action for the {@code occurrence}-th (1-based) reach of {@code point}, or null. */
    public FaultAction actionAt(FaultPoint point, long occurrence) {
        for (Rule r : rules) {
            if (r.point == point
                    && occurrence >= r.occurrence
                    && occurrence < r.occurrence + r.count) {
                return r.action;
            }
        }
        return null;
    }

    public List<Rule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Rule r : rules) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(r);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FaultSchedule && toString().equals(o.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    /** One rule of a schedule. Immutable. */
    public static final class Rule {
        private final FaultPoint point;
        private final int occurrence;
        private final int count;
        private final FaultAction action;

        Rule(FaultPoint point, int occurrence, int count, FaultAction action) {
            if (occurrence < 1 || count < 1) {
                throw new IllegalArgumentException("occurrence and count start at 1");
            }
            if (!point.allows(action)) {
                throw new IllegalArgumentException(
                        "fault point "
                                + point.number()
                                + " "
                                + point
                                + " does not allow "
                                + action);
            }
            this.point = point;
            this.occurrence = occurrence;
            this.count = count;
            this.action = action;
        }

        public FaultPoint point() {
            return point;
        }

        public int occurrence() {
            return occurrence;
        }

        public int count() {
            return count;
        }

        public FaultAction action() {
            return action;
        }

        @Override
        public String toString() {
            return point.number()
                    + "@"
                    + occurrence
                    + (count == 1 ? "" : "x" + count)
                    + ":"
                    + action;
        }
    }
}
