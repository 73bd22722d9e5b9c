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
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
public final class EnumeratorRules<SplitT extends SourceSplit, StateT>
        extends EnumeratorRuleSupport<SplitT, StateT> {
    private Map<String, byte[]> expected;

    public EnumeratorRules(EnumeratorTarget<SplitT, StateT> target) {
        super(target);
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
                List<EnumeratorSnapshot> snapshots = new ArrayList<>();
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
                for (EnumeratorSnapshot snap : snapshots) {
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
                List<EnumeratorSnapshot> snapshots = new ArrayList<>();
                Comparable last = null;
                Deque<String> history = new ArrayDeque<>();
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, none(), history)) {
                    for (int i = 0; i < target.steps(); i++) {
                        randomStep(d, rnd, false);
                        EnumeratorSnapshot snap = d.checkpoint(rnd.nextBoolean());
                        snapshots.add(snap);
                        last = checkCursor(rule, d, last, snap);
                    }
                }
                EnumeratorSnapshot from = snapshots.get(rnd.nextInt(snapshots.size()));
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
                EnumeratorSnapshot restoreFrom = null;
                try (EnumeratorDriver<SplitT, StateT> d =
                        EnumeratorDriver.fresh(target, laneA, rule, online, history)) {
                    List<EnumeratorSnapshot> snaps = new ArrayList<>();
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

    // ------------------------------------------------------------------ schedule steps

}
