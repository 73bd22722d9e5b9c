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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The enumerator rules pass on a correct discovering enumerator, on both lanes, and each fails,
 * naming its rule, on an enumerator with the bug it exists to catch.
 */
class EnumeratorRulesTest {

    private static EnumeratorTarget.Builder<FixtureSplit, FixtureEnumerator.State> target(
            FixtureEnumerator.Flaw... flaws) {
        EnumSet<FixtureEnumerator.Flaw> set = EnumSet.noneOf(FixtureEnumerator.Flaw.class);
        set.addAll(List.of(flaws));
        return EnumeratorTarget.<FixtureSplit, FixtureEnumerator.State>forEnumerators(
                        ctx -> new FixtureEnumerator(ctx, null, set),
                        (ctx, state) -> new FixtureEnumerator(ctx, state, set),
                        new FixtureEnumerator.StateCodec(),
                        new FixtureSplit.Codec(),
                        true)
                .cursor(FixtureEnumerator.State::cursor);
    }

    private static EnumeratorRules<FixtureSplit, FixtureEnumerator.State> rules(
            FixtureEnumerator.Flaw... flaws) {
        return new EnumeratorRules<>(target(flaws).expectedSplits(FixtureEnumerator.all()).build());
    }

    @Test
    void aCorrectEnumeratorPassesEveryRule() throws Exception {
        EnumeratorRules<FixtureSplit, FixtureEnumerator.State> r = rules();
        r.restoresFromEverySnapshot();
        r.reassignsSplitsHandedBack();
        r.anyRegistrationOrder();
        assertTrue(r.discoveryCursorIsMonotonic(), "the target has a cursor");
        r.noSplitAssignedTwice();
        r.noMoreSplitsOnlyWhenDone();
    }

    @Test
    void aReferenceRunFindsTheWholeFixture() throws Exception {
        EnumeratorRules<FixtureSplit, FixtureEnumerator.State> r =
                new EnumeratorRules<>(target().build());
        assertEquals(FixtureEnumerator.TOTAL, r.expectedSplits().size());
        r.restoresFromEverySnapshot();
    }

    @Test
    void aSnapshotMissingQueuedSplitsBreaksRestore() {
        assertViolates(
                ConformanceRule.ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT,
                () ->
                        rules(FixtureEnumerator.Flaw.SNAPSHOT_SKIPS_UNREGISTERED_QUEUES)
                                .restoresFromEverySnapshot());
    }

    @Test
    void droppingSplitsHandedBackBreaksReassignment() {
        assertViolates(
                ConformanceRule.ENUMERATOR_REASSIGNS_SPLITS_BACK,
                () ->
                        rules(FixtureEnumerator.Flaw.IGNORES_SPLITS_BACK)
                                .reassignsSplitsHandedBack());
    }

    @Test
    void assumingRegistrationOrderBreaksAnyRegistrationOrder() {
        assertViolates(
                ConformanceRule.ENUMERATOR_ANY_REGISTRATION_ORDER,
                () ->
                        rules(FixtureEnumerator.Flaw.ASSUMES_REGISTRATION_ORDER)
                                .anyRegistrationOrder());
    }

    @Test
    void aCursorCountedSinceOpenBreaksMonotonicCursor() {
        assertViolates(
                ConformanceRule.ENUMERATOR_CURSOR_MONOTONIC,
                () ->
                        rules(FixtureEnumerator.Flaw.CURSOR_COUNTS_SINCE_OPEN)
                                .discoveryCursorIsMonotonic());
    }

    @Test
    void resendingOnRequestBreaksNoDuplicateAssignment() {
        assertViolates(
                ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT,
                () -> rules(FixtureEnumerator.Flaw.RESENDS_ON_REQUEST).noSplitAssignedTwice());
    }

    @Test
    void noMoreSplitsDuringDiscoveryBreaksNoMoreSplitsWhenDone() {
        assertViolates(
                ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE,
                () ->
                        rules(FixtureEnumerator.Flaw.NO_MORE_BEFORE_DISCOVERY_ENDS)
                                .noMoreSplitsOnlyWhenDone());
    }

    @Test
    void anUnboundedEnumeratorThatSignalsBreaksNoMoreSplitsWhenDone() {
        assertViolates(
                ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE,
                () ->
                        new EnumeratorRules<>(
                                        target().bounded(false)
                                                .expectedSplits(FixtureEnumerator.all())
                                                .build())
                                .noMoreSplitsOnlyWhenDone());
    }

    private interface Rule {
        void run() throws Exception;
    }

    private static void assertViolates(ConformanceRule expected, Rule rule) {
        ConformanceViolation v = assertThrows(ConformanceViolation.class, rule::run);
        assertEquals(expected, v.rule(), v.getMessage());
        assertTrue(
                v.getMessage().startsWith("[" + expected.name() + "]"),
                "the message names the rule: " + v.getMessage());
        assertTrue(v.getMessage().contains("-Dconformance.seed="), "the seed: " + v.getMessage());
        System.out.println(v.getMessage());
    }
}
