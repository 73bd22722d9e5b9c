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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The rules of the enumerator contract, each a method that throws a {@link ConformanceViolation}
 * naming its rule when the target breaks it. An enumerator runs against a deterministic fake engine
 * ({@link EnumeratorDriver}): readers register, ask for splits (Lane B: split requests; Lane A:
 * split demand), fail and hand splits back, checkpoints are taken, scheduled and asynchronous work
 * runs, all in seeded random orders; every violation names the lane, the last steps and the seed,
 * and {@code -Dconformance.seed=S} replays. Each rule runs on both lanes.
 *
 * <p>Threading: one test thread per instance; the expected splits are computed once, lazily.
 */
public final class EnumeratorRules<SplitT extends SourceSplit, StateT> {
    private final EnumeratorTarget<SplitT, StateT> target;
    private Map<String, byte[]> expected;

    public EnumeratorRules(EnumeratorTarget<SplitT, StateT> target) {
        this.target = target;
    }

    /**
     * The splits every run must hand out, by id with their serialized bytes: the target's, or what
     * a reference run hands out (Lane B, readers registering in order after run(), every scheduled
     * task run until nothing moves).
     */
    public Map<String, byte[]> expectedSplits() throws Exception {
        if (expected != null) {
            return expected;
        }
        Map<String, byte[]> e = new LinkedHashMap<>();
        if (target.expectedSplits() != null) {
            for (SplitT s : target.expectedSplits()) {
                e.put(s.splitId(), target.splitSerializer().serialize(s));
            }
        } else {
            Deque<String> history = new ArrayDeque<>();
            try (EnumeratorDriver<SplitT, StateT> d =
                    EnumeratorDriver.fresh(
                            target,
                            false,
                            ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT,
                            EnumSet.of(ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT),
                            history)) {
                d.run();
                for (int r = 0; r < target.parallelism(); r++) {
                    d.register(r);
                }
                d.drain(new Random(target.seed()), null);
                for (String id : d.ledger().holder.keySet()) {
                    e.put(id, d.ledger().bytes.get(id));
                }
            }
        }
        if (e.isEmpty()) {
            throw new ConformanceViolation(
                    ConformanceRule.ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT,
                    "the enumerator hands out no splits in a reference run; the rules need some"
                            + " (or give the target its expected splits)");
        }
        expected = Collections.unmodifiableMap(e);
        return expected;
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT

    /**
     * A random schedule with a checkpoint after every step; each snapshot is restored into a fresh
     * enumerator (its state through the serializer), the readers keep what they held at that
     * checkpoint and register again in a random order, and the fixture is drained: every split is
     * then held exactly once, with the bytes it has in the fixture.
     */
    public void restoresFromEverySnapshot() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT;
        Map<String, byte[]> want = expectedSplits();
        for (boolean laneA : new boolean[] {false, true}) {
            for (int s = 0; s < target.schedules(); s++) {
                Random rnd = random(rule, laneA, s);
                List<EnumeratorDriver.Snapshot> snapshots = new ArrayList<>();
                Deque<String> history = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, none(), history)) {
                    snapshots.add(d.checkpoint(rnd.nextBoolean()));
                    for (int i = 0; i < target.steps(); i++) {
                        randomStep(d, rnd, false);
                        snapshots.add(d.checkpoint(rnd.nextBoolean()));
                    }
                    d.drain(rnd, want);
                    checkComplete(rule, d, want, "the schedule without a restore");
                }
                for (EnumeratorDriver.Snapshot snap : snapshots) {
                    Deque<String> h = new ArrayDeque<>();
                    try (EnumeratorDriver<SplitT, StateT> d =
                            EnumeratorDriver.restored(target, laneA, rule, none(), h, snap)) {
                        if (rnd.nextBoolean()) {
                            d.run();
                        }
                        d.drain(rnd, want);
                        checkComplete(
                                rule,
                                d,
                                want,
                                "after a restore from checkpoint "
                                        + snap.checkpointId
                                        + " (taken after "
                                        + snap.after
                                        + ")");
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_REASSIGNS_SPLITS_BACK

    /**
     * Random schedules in which readers fail (the splits each got since the last checkpoint are
     * handed back with {@code addSplitsBack}, the reader registers again later): every split handed
     * back goes out again, and the fixture ends up held exactly once.
     */
    public void reassignsSplitsHandedBack() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_REASSIGNS_SPLITS_BACK;
        Map<String, byte[]> want = expectedSplits();
        for (boolean laneA : new boolean[] {false, true}) {
            for (int s = 0; s < target.schedules(); s++) {
                Random rnd = random(rule, laneA, s);
                Deque<String> history = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, none(), history)) {
                    int failures = 0;
                    for (int i = 0; i < target.steps(); i++) {
                        failures += randomStep(d, rnd, true) ? 1 : 0;
                    }
                    // At least one failure that hands splits back, after assignments.
                    List<Integer> holders = holders(d);
                    if (!holders.isEmpty()) {
                        d.fail(holders.get(rnd.nextInt(holders.size())));
                    }
                    d.drain(rnd, want);
                    if (!d.ledger().returned.isEmpty()) {
                        throw d.violation(
                                rule,
                                "splits "
                                        + first(d.ledger().returned)
                                        + " were handed back after a reader failure and never"
                                        + " went out again");
                    }
                    checkComplete(rule, d, want, "a schedule with reader failures");
                }
            }
        }
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_ANY_REGISTRATION_ORDER

    /**
     * Every order in which the readers can register (all of them for up to 4 readers, seeded
     * shuffles beyond), with run() before, between or after the registrations and scheduled work
     * run at random points: the fixture ends up held exactly once.
     */
    public void anyRegistrationOrder() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_ANY_REGISTRATION_ORDER;
        Map<String, byte[]> want = expectedSplits();
        List<List<Integer>> orders = orders(rule);
        for (boolean laneA : new boolean[] {false, true}) {
            Random rnd = random(rule, laneA, 0);
            for (List<Integer> order : orders) {
                int runAt = rnd.nextInt(order.size() + 1);
                Deque<String> history = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, none(), history)) {
                    for (int i = 0; i <= order.size(); i++) {
                        if (i == runAt) {
                            d.run();
                        }
                        if (rnd.nextInt(3) == 0) {
                            if (!d.async(rnd.nextInt(8))) {
                                d.timer();
                            }
                        }
                        if (i < order.size()) {
                            d.register(order.get(i));
                        }
                    }
                    d.drain(rnd, want);
                    checkComplete(rule, d, want, "readers registering in the order " + order);
                }
            }
        }
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_CURSOR_MONOTONIC

    /**
     * With a cursor function: random schedules with a checkpoint after every step, then a restore
     * from one of them and more steps; no snapshot's cursor is below the one before it. Skipped
     * (returns false) without a cursor function.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public boolean discoveryCursorIsMonotonic() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_CURSOR_MONOTONIC;
        if (target.cursor() == null) {
            return false;
        }
        for (boolean laneA : new boolean[] {false, true}) {
            for (int s = 0; s < target.schedules(); s++) {
                Random rnd = random(rule, laneA, s);
                List<EnumeratorDriver.Snapshot> snapshots = new ArrayList<>();
                Comparable last = null;
                Deque<String> history = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, none(), history)) {
                    for (int i = 0; i < target.steps(); i++) {
                        randomStep(d, rnd, false);
                        EnumeratorDriver.Snapshot snap = d.checkpoint(rnd.nextBoolean());
                        snapshots.add(snap);
                        last = checkCursor(rule, d, last, snap);
                    }
                }
                EnumeratorDriver.Snapshot from = snapshots.get(rnd.nextInt(snapshots.size()));
                Comparable restoredFrom = cursor(from);
                Deque<String> h = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.restored(target, laneA, rule, none(), h, from)) {
                    last = restoredFrom;
                    for (int i = 0; i < target.steps(); i++) {
                        randomStep(d, rnd, false);
                        last = checkCursor(rule, d, last, d.checkpoint(rnd.nextBoolean()));
                    }
                }
            }
        }
        return true;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Comparable checkCursor(
            ConformanceRule rule,
            EnumeratorDriver<SplitT, StateT> d,
            Comparable last,
            EnumeratorDriver.Snapshot snap)
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
    private Comparable cursor(EnumeratorDriver.Snapshot snap) throws Exception {
        StateT state = target.stateSerializer().deserialize(snap.state);
        return (Comparable) target.cursor().apply(state);
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_NO_DUPLICATE_ASSIGNMENT

    /**
     * Random schedules with every kind of step (registrations, requests, demand, scheduled work,
     * checkpoints, reader failures) and restores from random snapshots: no split is assigned while
     * a reader holds it.
     */
    public void noSplitAssignedTwice() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT;
        Map<String, byte[]> want = expectedSplits();
        runMixed(rule, EnumSet.of(rule), want);
    }

    // ------------------------------------------------------------------
    // ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE

    /**
     * Random schedules as for duplicates: no split is assigned to a reader after it was told no
     * more splits would come (until it fails and registers anew); an unbounded source's enumerator
     * never says so; and after a drain every reader of a bounded source was told.
     */
    public void noMoreSplitsOnlyWhenDone() throws Exception {
        ConformanceRule rule = ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE;
        Map<String, byte[]> want = expectedSplits();
        runMixed(rule, EnumSet.of(rule), want);
    }

    private void runMixed(
            ConformanceRule rule, Set<ConformanceRule> online, Map<String, byte[]> want)
            throws Exception {
        for (boolean laneA : new boolean[] {false, true}) {
            for (int s = 0; s < target.schedules(); s++) {
                Random rnd = random(rule, laneA, s);
                Deque<String> history = new ArrayDeque<>();
                EnumeratorDriver.Snapshot restoreFrom = null;
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, online, history)) {
                    List<EnumeratorDriver.Snapshot> snaps = new ArrayList<>();
                    for (int i = 0; i < target.steps(); i++) {
                        randomStep(d, rnd, true);
                        if (rnd.nextInt(4) == 0) {
                            snaps.add(d.checkpoint(rnd.nextBoolean()));
                        }
                    }
                    d.drain(rnd, want);
                    finalChecks(rule, d, want, "a schedule with failures and checkpoints");
                    if (!snaps.isEmpty()) {
                        restoreFrom = snaps.get(rnd.nextInt(snaps.size()));
                    }
                }
                if (restoreFrom != null) {
                    Deque<String> h = new ArrayDeque<>();
                    try (EnumeratorDriver<SplitT, StateT> d =
                            EnumeratorDriver.restored(
                                    target, laneA, rule, online, h, restoreFrom)) {
                        for (int i = 0; i < target.steps() / 2; i++) {
                            randomStep(d, rnd, true);
                        }
                        d.drain(rnd, want);
                        finalChecks(
                                rule,
                                d,
                                want,
                                "after a restore from checkpoint " + restoreFrom.checkpointId);
                    }
                }
            }
        }
    }

    private void finalChecks(
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

    // ------------------------------------------------------------------ schedule steps

    /**
     * One random engine step; returns true if it was a reader failure. Failures only when {@code
     * failures}.
     */
    private boolean randomStep(EnumeratorDriver<SplitT, StateT> d, Random rnd, boolean failures)
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

    private List<Integer> holders(EnumeratorDriver<SplitT, StateT> d) {
        List<Integer> out = new ArrayList<>();
        for (int r : d.registered()) {
            if (!d.ledger().since(r).isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    private void checkComplete(
            ConformanceRule rule,
            EnumeratorDriver<SplitT, StateT> d,
            Map<String, byte[]> want,
            String what) {
        EnumeratorDriver.Ledger l = d.ledger();
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

    private List<List<Integer>> orders(ConformanceRule rule) {
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

    private static void permute(List<Integer> a, int k, List<List<Integer>> out) {
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

    private Random random(ConformanceRule rule, boolean laneA, int schedule) {
        return new Random(
                target.seed() * 31 + rule.ordinal() * 1_000_003L + (laneA ? 7919 : 0) + schedule);
    }

    private static Set<ConformanceRule> none() {
        return EnumSet.noneOf(ConformanceRule.class);
    }

    private static String first(java.util.Collection<String> items) {
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
}
