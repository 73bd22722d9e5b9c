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

package org.apache.seatunnel.managed.testkit.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The helpers the enumerator rules share: random steps and orders, completeness and cursor checks
 * over a driver's ledger.
 *
 * <p>Threading: one test thread per instance, like the rules.
 */
abstract class EnumeratorRuleSupport<SplitT extends SourceSplit, StateT> {
    final EnumeratorTarget<SplitT, StateT> target;

    EnumeratorRuleSupport(EnumeratorTarget<SplitT, StateT> target) {
        this.target = target;
    }

    /**
     * One random engine step; returns true if it was a reader failure. Failures only when {@code
     * failures}.
     */
    boolean randomStep(EnumeratorDriver<SplitT, StateT> d, Random rnd, boolean failures)
            throws Exception {
        List<Integer> unregistered = d.unregistered();
        List<Integer> registered = d.registered();
        int pick = rnd.nextInt(10);
        if (!d.ran() && pick == 0) {
            d.run();
        } else if (pick <= 2 && !unregistered.isEmpty()) {
            d.register(unregistered.get(rnd.nextInt(unregistered.size())));
        } else if (pick == 3 && !registered.isEmpty()) {
            d.splitRequest(registered.get(rnd.nextInt(registered.size())));
        } else if (pick == 4 && !registered.isEmpty()) {
            int r = registered.get(rnd.nextInt(registered.size()));
            if (d.demandable(r)) {
                d.demand(r, 1 + rnd.nextInt(4));
            }
        } else if (pick == 5 || pick == 6) {
            if (!d.async(rnd.nextInt(8))) {
                d.timer();
            }
        } else if (pick == 7) {
            d.timer();
        } else if (pick == 8) {
            d.checkpoint(rnd.nextBoolean());
        } else if (pick == 9 && failures && !registered.isEmpty()) {
            d.fail(registered.get(rnd.nextInt(registered.size())));
            return true;
        }
        return false;
    }

    List<Integer> holders(EnumeratorDriver<SplitT, StateT> d) {
        List<Integer> out = new ArrayList<>();
        for (int r : d.registered()) {
            if (!d.ledger().since(r).isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    void checkComplete(
            ConformanceRule rule,
            EnumeratorDriver<SplitT, StateT> d,
            Map<String, byte[]> want,
            String what) {
        SplitLedger l = d.ledger();
        Set<String> missing = new TreeSet<>(want.keySet());
        missing.removeAll(l.holder.keySet());
        Set<String> extra = new TreeSet<>(l.holder.keySet());
        extra.removeAll(want.keySet());
        Set<String> changed = new TreeSet<>();
        for (Map.Entry<String, byte[]> e : want.entrySet()) {
            byte[] got = l.bytes.get(e.getKey());
            if (got != null
                    && l.holder.containsKey(e.getKey())
                    && !Arrays.equals(got, e.getValue())) {
                changed.add(e.getKey());
            }
        }
        if (missing.isEmpty() && extra.isEmpty() && l.twice.isEmpty() && changed.isEmpty()) {
            return;
        }
        throw d.violation(
                rule,
                what
                        + ": "
                        + missing.size()
                        + " splits never handed out "
                        + first(missing)
                        + ", "
                        + l.twice.size()
                        + " assigned while a reader held them "
                        + first(l.twice)
                        + ", "
                        + extra.size()
                        + " not in the fixture "
                        + first(extra)
                        + ", "
                        + changed.size()
                        + " handed out with other content "
                        + first(changed));
    }

    List<List<Integer>> orders(ConformanceRule rule) {
        List<Integer> readers = new ArrayList<>();
        for (int r = 0; r < target.parallelism(); r++) {
            readers.add(r);
        }
        List<List<Integer>> out = new ArrayList<>();
        if (readers.size() <= 4) {
            permute(readers, 0, out);
        } else {
            Random rnd = random(rule, false, 1);
            for (int i = 0; i < 24; i++) {
                List<Integer> o = new ArrayList<>(readers);
                Collections.shuffle(o, rnd);
                out.add(o);
            }
        }
        return out;
    }

    static void permute(List<Integer> a, int k, List<List<Integer>> out) {
        if (k == a.size()) {
            out.add(new ArrayList<>(a));
            return;
        }
        for (int i = k; i < a.size(); i++) {
            Collections.swap(a, k, i);
            permute(a, k + 1, out);
            Collections.swap(a, k, i);
        }
    }

    Random random(ConformanceRule rule, boolean laneA, int schedule) {
        return new Random(
                target.seed() * 31 + rule.ordinal() * 1_000_003L + (laneA ? 7919 : 0) + schedule);
    }

    static Set<ConformanceRule> none() {
        return EnumSet.noneOf(ConformanceRule.class);
    }

    static String first(java.util.Collection<String> items) {
        List<String> out = new ArrayList<>();
        for (String s : items) {
            if (out.size() == 6) {
                out.add("...");
                break;
            }
            out.add(s);
        }
        return out.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    Comparable checkCursor(
            ConformanceRule rule,
            EnumeratorDriver<SplitT, StateT> d,
            Comparable last,
            EnumeratorSnapshot snap)
            throws Exception {
        Comparable now = cursor(snap);
        if (last != null && now != null && now.compareTo(last) < 0) {
            throw d.violation(
                    rule,
                    "the snapshot of checkpoint "
                            + snap.checkpointId
                            + " has cursor "
                            + now
                            + ", below the "
                            + last
                            + " of the snapshot before it");
        }
        return now == null ? last : now;
    }

    @SuppressWarnings("rawtypes")
    Comparable cursor(EnumeratorSnapshot snap) throws Exception {
        StateT state = target.stateSerializer().deserialize(snap.state);
        return (Comparable) target.cursor().apply(state);
    }

    void finalChecks(
            ConformanceRule rule,
            EnumeratorDriver<SplitT, StateT> d,
            Map<String, byte[]> want,
            String what) {
        if (rule == ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE && target.bounded()) {
            List<Integer> untold = new ArrayList<>();
            for (int r = 0; r < target.parallelism(); r++) {
                if (!d.noMoreSignalled(r)) {
                    untold.add(r);
                }
            }
            boolean all = d.ledger().holder.keySet().containsAll(want.keySet());
            if (!untold.isEmpty() && all) {
                throw d.violation(
                        rule,
                        what
                                + ": every split was handed out but readers "
                                + untold
                                + " of a bounded source were never told no more splits would"
                                + " come (they would never end)");
            }
            if (untold.isEmpty() && !all) {
                Set<String> missing = new TreeSet<>(want.keySet());
                missing.removeAll(d.ledger().holder.keySet());
                throw d.violation(
                        rule,
                        what
                                + ": every reader was told no more splits would come, but splits "
                                + first(missing)
                                + " were never handed out");
            }
        }
        checkComplete(rule, d, want, what);
    }
}
