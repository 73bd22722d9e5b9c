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

import java.util.List;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite a connector author runs: extend it, supply the source and splits holding a
 * small bounded fixture data set, and each rule of the Lane A reader contract runs as a test whose
 * failure names the rule. Override {@link #configure} to set record keys, events or bounds.
 *
 * <pre>{@code
 * class MyReaderConformanceTest extends ManagedReaderConformanceSuite<SeaTunnelRow, MySplit> {
 *     protected SeaTunnelSource<SeaTunnelRow, MySplit, ?> createSource() { return new MySource(...); }
 *     protected List<MySplit> fixtureSplits() { return Arrays.asList(new MySplit(0, 0, 100), ...); }
 * }
 * }</pre>
 *
 * <p>Randomized rules print their seed in every failure; {@code -Dconformance.seed=S} replays.
 *
 * <p>Threading: JUnit runs each test on one thread; a fresh target per test.
 */
public abstract class ManagedReaderConformanceSuite<T, SplitT extends SourceSplit> {

    private ConformanceRules<T, SplitT> rules;

    /** The source under test; it must be serializable (the engine ships it). */
    protected abstract SeaTunnelSource<T, SplitT, ?> createSource() throws Exception;

    /** Splits holding the fixture data: a bounded amount of records with unique keys. */
    protected abstract List<SplitT> fixtureSplits() throws Exception;

    /** Adjusts the target (record keys, events, bounds); returns the builder. */
    protected ConformanceTarget.Builder<T, SplitT> configure(
            ConformanceTarget.Builder<T, SplitT> target) {
        return target;
    }

    @BeforeEach
    void buildTarget() throws Exception {
        ConformanceTarget<T, SplitT> target =
                configure(ConformanceTarget.forSource(createSource()))
                        .splits(fixtureSplits())
                        .build();
        System.out.println(
                "reader conformance, seed "
                        + target.seed()
                        + " (replay: -Dconformance.seed="
                        + target.seed()
                        + ")");
        rules = new ConformanceRules<>(target);
    }

    /** The rules of this test's target, for authors adding rules of their own. */
    protected ConformanceRules<T, SplitT> rules() {
        return rules;
    }

    @Test
    void readsTheFixtureToItsEnd() throws Exception {
        rules.expectedRecords();
    }

    @Test
    void pollReturnsWithinBudgetAndHonoursShouldYield() throws Exception {
        rules.pollReturnsWithinBudgetAndHonoursShouldYield();
    }

    @Test
    void noLostWakeupUnderAdversarialTiming() throws Exception {
        rules.noLostWakeupUnderAdversarialTiming();
    }

    @Test
    void wakeupIsIdempotentAndThreadSafe() throws Exception {
        rules.wakeupIsIdempotentAndThreadSafe();
    }

    @Test
    void snapshotAndEmitAreAtomic() throws Exception {
        rules.snapshotAndEmitAreAtomic();
    }

    @Test
    void snapshotIncludesSplitsAddedInTheSameTurn() throws Exception {
        rules.snapshotIncludesSplitsAddedInTheSameTurn();
    }

    @Test
    void duplicateAddSplitsIsIdempotent() throws Exception {
        rules.duplicateAddSplitsIsIdempotent();
    }

    @Test
    void restoreInFreshClassLoader() throws Exception {
        Assumptions.assumeTrue(rules.restoreInFreshClassLoader(), "no source to reload");
    }

    @Test
    void serializersRoundTripAndRefuseMalformedInput() throws Exception {
        rules.serializersRoundTripAndRefuseMalformedInput();
    }

    @Test
    void noBackgroundThreadChangesSnapshotState() throws Exception {
        rules.noBackgroundThreadChangesSnapshotState();
    }

    @Test
    void closeLeavesNoThreadBehind() throws Exception {
        rules.closeLeavesNoThreadBehind();
    }

    @Test
    void repeatedCallbacksAreIdempotent() throws Exception {
        rules.callbacksAreIdempotent();
    }

    @Test
    void sourceEventsAreDeclaredAndSurviveRestore() throws Exception {
        Assumptions.assumeTrue(rules.sourceEventsAreDeclaredAndSurviveRestore(), "no source");
    }

    @Test
    void contextClassLoaderIsRestored() throws Exception {
        rules.contextClassLoaderIsRestored();
    }

    /** Passes at once for a reader that never waits inside a turn (nothing to wake). */
    @Test
    void wakeupEndsABlockedPoll() throws Exception {
        rules.wakeupEndsABlockedPoll();
    }
}
