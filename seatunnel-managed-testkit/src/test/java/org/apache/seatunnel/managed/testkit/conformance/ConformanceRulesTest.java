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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** Two splits of two records: read in one or two turns. */
    private static final List<FixtureSplit> TINY =
            List.of(new FixtureSplit(0, 0, 2), new FixtureSplit(1, 0, 2));

    private static ConformanceRules<String, FixtureSplit> rules(FixtureReader.Flaw... flaws) {
        return new ConformanceRules<>(target(new FixtureSource(set(flaws), SPLITS)).build());
    }

    private static EnumSet<FixtureReader.Flaw> set(FixtureReader.Flaw... flaws) {
        EnumSet<FixtureReader.Flaw> set = EnumSet.noneOf(FixtureReader.Flaw.class);
        set.addAll(List.of(flaws));
        return set;
    }

    private static ConformanceTarget.Builder<String, FixtureSplit> target(
            org.apache.seatunnel.api.source.SeaTunnelSource<String, FixtureSplit, ?> source) {
        return ConformanceTarget.forSource(source)
                .splits(SPLITS)
                .events(List.of(new FixtureEvent(0, 60)))
                .availabilityBound(Duration.ofMillis(500))
                .turnGrace(Duration.ofMillis(300))
                .readBound(Duration.ofSeconds(30))
                .closeBound(Duration.ofSeconds(1))
                .blockedTurn(Duration.ofSeconds(3))
                .wakeupBound(Duration.ofMillis(500));
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
        r.callbacksAreIdempotent();
        assertTrue(r.sourceEventsAreDeclaredAndSurviveRestore(), "the fixture has a source");
        r.contextClassLoaderIsRestored();
        assertFalse(r.wakeupEndsABlockedPoll(), "the fixture reader never waits in a turn");
    }

    @Test
    void aReaderThatWaitsInATurnIsWokenByWakeup() throws Exception {
        assertTrue(
                rules(FixtureReader.Flaw.WAITS_IN_POLL).wakeupEndsABlockedPoll(),
                "the turn waited and wakeup() ended it");
    }

    @Test
    void aWaitThatIgnoresWakeupBreaksWakeupEndsBlockedPoll() {
        assertViolates(
                ConformanceRule.WAKEUP_ENDS_BLOCKED_POLL,
                () -> rules(FixtureReader.Flaw.IGNORES_WAKEUP).wakeupEndsABlockedPoll());
    }

    @Test
    void resubmittingOnARepeatedCallbackBreaksCallbackIdempotence() {
        assertViolates(
                ConformanceRule.CALLBACK_IDEMPOTENT,
                () ->
                        rules(FixtureReader.Flaw.REPEATED_CALLBACK_RESUBMITS)
                                .callbacksAreIdempotent());
    }

    @Test
    void consumingEventsWithoutASerializerBreaksSourceEventsDeclared() {
        assertViolates(
                ConformanceRule.SOURCE_EVENTS_DECLARED,
                () ->
                        rules(FixtureReader.Flaw.UNDECLARED_EVENTS)
                                .sourceEventsAreDeclaredAndSurviveRestore());
    }

    @Test
    void eventStateOutsideTheSnapshotBreaksSourceEventsDeclared() {
        assertViolates(
                ConformanceRule.SOURCE_EVENTS_DECLARED,
                () ->
                        rules(FixtureReader.Flaw.EVENT_STATE_NOT_SNAPSHOTTED)
                                .sourceEventsAreDeclaredAndSurviveRestore());
    }

    @Test
    void eventStateOutsideTheSnapshotPassesWhenTheEventsAreDeclaredResent() throws Exception {
        ConformanceRules<String, FixtureSplit> r =
                new ConformanceRules<>(
                        target(
                                        new FixtureSource(
                                                set(FixtureReader.Flaw.EVENT_STATE_NOT_SNAPSHOTTED),
                                                SPLITS))
                                .eventsResentAfterRestore(true)
                                .build());
        assertTrue(r.sourceEventsAreDeclaredAndSurviveRestore());
    }

    @Test
    void aLeakedContextClassLoaderBreaksContextClassLoaderRestored() {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        assertViolates(
                ConformanceRule.CONTEXT_CLASS_LOADER_RESTORED,
                () ->
                        rules(FixtureReader.Flaw.LEAKS_CONTEXT_CLASS_LOADER)
                                .contextClassLoaderIsRestored());
        assertSame(before, Thread.currentThread().getContextClassLoader(), "put back");
    }

    /**
     * A reader that emitted every record before no-more-splits was signalled rightly answers
     * NOTHING_AVAILABLE and leaves its future incomplete: the rules that read part of the data
     * first must not report that as a lost wakeup.
     */
    @Test
    void aReaderThatDrainedBeforeNoMoreSplitsPassesAddSplitsIdempotent() throws Exception {
        tiny().duplicateAddSplitsIsIdempotent();
    }

    /** As above, for the rule that never signals no-more-splits at all. */
    @Test
    void aReaderThatDrainedBeforeNoMoreSplitsPassesCloseLeavesNoThread() throws Exception {
        tiny().closeLeavesNoThreadBehind();
    }

    @Test
    void aReaderThatDrainedBeforeNoMoreSplitsPassesCallbackIdempotent() throws Exception {
        tiny().callbacksAreIdempotent();
    }

    private static ConformanceRules<String, FixtureSplit> tiny() {
        return new ConformanceRules<>(target(new FixtureSource(set(), TINY)).splits(TINY).build());
    }

    /**
     * A test-classes source extending a main-classes base with a package-private constructor (here:
     * two folders of one loader) restores in a fresh class loader: the base's folder is loaded anew
     * with the source's, as one connector jar would be.
     */
    @Test
    void aSourceWhoseSuperclassComesFromAnotherFolderRestoresInAFreshClassLoader(@TempDir Path dir)
            throws Exception {
        ConformanceRules<String, FixtureSplit> r =
                new ConformanceRules<>(target(splitHierarchySource(dir)).build());
        assertTrue(r.restoreInFreshClassLoader());
    }

    @Test
    void aSourceThatCannotBeCopiedBreaksRestoreInFreshClassLoaderByName() {
        ConformanceViolation v =
                assertViolates(
                        ConformanceRule.RESTORE_IN_FRESH_CLASS_LOADER,
                        () ->
                                new ConformanceRules<>(target(new InnerSource()).build())
                                        .restoreInFreshClassLoader());
        assertTrue(v.getMessage().contains("NotSerializableException"), v.getMessage());
        assertTrue(v.getMessage().contains("loaded anew"), v.getMessage());
    }

    /** Not static: it holds the test instance, which is not serializable (an author's slip). */
    private final class InnerSource
            extends HierSource<String, FixtureSplit, java.util.ArrayList<FixtureSplit>> {
        private static final long serialVersionUID = 1L;

        InnerSource() {
            super(new FixtureSource(EnumSet.noneOf(FixtureReader.Flaw.class), SPLITS));
        }
    }

    @SuppressWarnings("unchecked")
    private static org.apache.seatunnel.api.source.SeaTunnelSource<String, FixtureSplit, ?>
            splitHierarchySource(Path dir) throws Exception {
        String pkg = HierBase.class.getPackageName().replace('.', '/');
        Path base = dir.resolve("base");
        Path sub = dir.resolve("sub");
        copyClass(HierBase.class, base.resolve(pkg));
        copyClass(HierSource.class, sub.resolve(pkg));
        Set<String> own = Set.of(HierBase.class.getName(), HierSource.class.getName());
        URLClassLoader loader =
                new URLClassLoader(
                        new URL[] {sub.toUri().toURL(), base.toUri().toURL()},
                        ConformanceRulesTest.class.getClassLoader()) {
                    @Override
                    protected Class<?> loadClass(String name, boolean resolve)
                            throws ClassNotFoundException {
                        synchronized (getClassLoadingLock(name)) {
                            if (own.contains(name)) {
                                Class<?> c = findLoadedClass(name);
                                return c != null ? c : findClass(name);
                            }
                            return super.loadClass(name, resolve);
                        }
                    }
                };
        Object source =
                loader.loadClass(HierSource.class.getName())
                        .getConstructor(org.apache.seatunnel.api.source.SeaTunnelSource.class)
                        .newInstance(
                                new FixtureSource(
                                        EnumSet.noneOf(FixtureReader.Flaw.class), SPLITS));
        assertEquals(
                sub.toUri().toURL(),
                source.getClass().getProtectionDomain().getCodeSource().getLocation());
        return (org.apache.seatunnel.api.source.SeaTunnelSource<String, FixtureSplit, ?>) source;
    }

    private static void copyClass(Class<?> c, Path into) throws Exception {
        Files.createDirectories(into);
        String file = c.getSimpleName() + ".class";
        try (InputStream in = c.getResourceAsStream(file)) {
            Files.copy(in, into.resolve(file));
        }
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

    private static ConformanceViolation assertViolates(ConformanceRule expected, Rule rule) {
        ConformanceViolation v = assertThrows(ConformanceViolation.class, rule::run);
        assertEquals(expected, v.rule(), v.getMessage());
        assertTrue(
                v.getMessage().startsWith("[" + expected.name() + "]"),
                "the message names the rule: " + v.getMessage());
        return v;
    }
}
