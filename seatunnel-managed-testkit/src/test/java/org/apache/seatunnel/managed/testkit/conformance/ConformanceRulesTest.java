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

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conformance rules pass on a correct hand-written reader and each fails, naming its rule, on a
 * reader with the connector bug it exists to catch.
 */
class ConformanceRulesTest {

    private static final List<FixtureSplit> SPLITS =
            List.of(
                    new FixtureSplit(0, 0, 120),
                    new FixtureSplit(1, 0, 40),
                    new FixtureSplit(2, 10, 90),
                    new FixtureSplit(3, 0, 1));

    private static ConformanceRules<String, FixtureSplit> rules(FixtureReader.Flaw... flaws) {
        EnumSet<FixtureReader.Flaw> set = EnumSet.noneOf(FixtureReader.Flaw.class);
        set.addAll(List.of(flaws));
        return new ConformanceRules<>(
                ConformanceTarget.forSource(new FixtureSource(set, SPLITS))
                        .splits(SPLITS)
                        .availabilityBound(Duration.ofMillis(500))
                        .turnGrace(Duration.ofMillis(300))
                        .readBound(Duration.ofSeconds(30))
                        .closeBound(Duration.ofSeconds(1))
                        .build());
    }

    @Test
    void aCorrectReaderPassesEveryRule() throws Exception {
        ConformanceRules<String, FixtureSplit> r = rules();
        assertEquals(120 + 40 + 80 + 1, r.expectedRecords().size());
        r.pollReturnsWithinBudgetAndHonoursShouldYield();
        r.noLostWakeupUnderAdversarialTiming();
        r.wakeupIsIdempotentAndThreadSafe();
        r.snapshotAndEmitAreAtomic();
        r.snapshotIncludesSplitsAddedInTheSameTurn();
        r.duplicateAddSplitsIsIdempotent();
        assertTrue(r.restoreInFreshClassLoader(), "the fixture source has a code source");
        r.serializersRoundTripAndRefuseMalformedInput();
        r.noBackgroundThreadChangesSnapshotState();
        r.closeLeavesNoThreadBehind();
    }

    @Test
    void aBlockingPollBreaksPollWithinBudget() {
        assertViolates(
                ConformanceRule.POLL_WITHIN_BUDGET,
                () ->
                        rules(FixtureReader.Flaw.BLOCKING_POLL)
                                .pollReturnsWithinBudgetAndHonoursShouldYield());
    }

    @Test
    void aNeverCompletedAvailabilityFutureBreaksNoLostWakeup() {
        assertViolates(
                ConformanceRule.NO_LOST_WAKEUP,
                () ->
                        rules(FixtureReader.Flaw.NEVER_SIGNALS_AVAILABILITY)
                                .noLostWakeupUnderAdversarialTiming());
    }

    @Test
    void aFetchThreadAdvancingPositionsBreaksSnapshotEmitAtomicity() {
        assertViolates(
                ConformanceRule.SNAPSHOT_EMIT_ATOMIC,
                () ->
                        rules(FixtureReader.Flaw.FETCH_THREAD_ADVANCES_POSITIONS)
                                .snapshotAndEmitAreAtomic());
    }

    @Test
    void aFetchThreadAdvancingPositionsChangesSnapshotsWhileIdle() {
        assertViolates(
                ConformanceRule.NO_BACKGROUND_STATE_CHANGE,
                () ->
                        rules(FixtureReader.Flaw.SLOW_FETCH_THREAD_ADVANCES_POSITIONS)
                                .noBackgroundThreadChangesSnapshotState());
    }

    @Test
    void aSnapshotMissingANewSplitBreaksSnapshotIncludesNewSplits() {
        assertViolates(
                ConformanceRule.SNAPSHOT_INCLUDES_NEW_SPLITS,
                () ->
                        rules(FixtureReader.Flaw.SNAPSHOT_MISSES_NEW_SPLIT)
                                .snapshotIncludesSplitsAddedInTheSameTurn());
    }

    @Test
    void aNonIdempotentAddSplitsBreaksAddSplitsIdempotent() {
        assertViolates(
                ConformanceRule.ADD_SPLITS_IDEMPOTENT,
                () ->
                        rules(FixtureReader.Flaw.NON_IDEMPOTENT_ADD_SPLITS)
                                .duplicateAddSplitsIsIdempotent());
    }

    @Test
    void aLeakedFetchThreadBreaksCloseLeavesNoThread() {
        assertViolates(
                ConformanceRule.CLOSE_LEAVES_NO_THREAD,
                () -> rules(FixtureReader.Flaw.LEAKS_THREAD).closeLeavesNoThreadBehind());
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
    }
}
