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

import java.io.Serializable;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The enumerator half of the conformance suite: extend it, supply the source (and, if a reference
 * run should not define them, the splits its enumerator must hand out), and each rule of the
 * enumerator contract runs as a test on both lanes, against a deterministic fake engine whose
 * scheduler runs {@code callAsync} and scheduled tasks when the schedule decides. Override {@link
 * #configure} to set the parallelism, the expected splits or a discovery cursor.
 *
 * <pre>{@code
 * class MyEnumeratorConformanceTest
 *         extends ManagedEnumeratorConformanceSuite<MySplit, ArrayList<MySplit>> {
 *     protected SeaTunnelSource<?, MySplit, ArrayList<MySplit>> createSource() {
 *         return new MySource(...);
 *     }
 * }
 * }</pre>
 *
 * <p>Schedules are seeded; every failure names its rule, the lane, the last steps and the seed, and
 * {@code -Dconformance.seed=S} replays.
 *
 * <p>Threading: JUnit runs each test on one thread; a fresh target per test.
 */
public abstract class ManagedEnumeratorConformanceSuite<
        SplitT extends SourceSplit, StateT extends Serializable> {

    private EnumeratorRules<SplitT, StateT> rules;

    /** The source whose enumerators are under test. */
    protected abstract SeaTunnelSource<?, SplitT, StateT> createSource() throws Exception;

    /** Adjusts the target (parallelism, expected splits, cursor, schedules); returns it. */
    protected EnumeratorTarget.Builder<SplitT, StateT> configure(
            EnumeratorTarget.Builder<SplitT, StateT> target) {
        return target;
    }

    @BeforeEach
    void buildTarget() throws Exception {
        EnumeratorTarget<SplitT, StateT> target =
                configure(EnumeratorTarget.forSource(createSource())).build();
        System.out.println(
                "enumerator conformance, seed "
                        + target.seed()
                        + " (replay: -Dconformance.seed="
                        + target.seed()
                        + ")");
        rules = new EnumeratorRules<>(target);
    }

    /** The rules of this test's target, for authors adding rules of their own. */
    protected EnumeratorRules<SplitT, StateT> rules() {
        return rules;
    }

    @Test
    void restoresFromEverySnapshot() throws Exception {
        rules.restoresFromEverySnapshot();
    }

    @Test
    void reassignsSplitsHandedBackAfterAReaderFailure() throws Exception {
        rules.reassignsSplitsHandedBack();
    }

    @Test
    void readersMayRegisterInAnyOrder() throws Exception {
        rules.anyRegistrationOrder();
    }

    @Test
    void discoveryCursorIsMonotonic() throws Exception {
        Assumptions.assumeTrue(rules.discoveryCursorIsMonotonic(), "no cursor function");
    }

    @Test
    void noSplitIsAssignedTwice() throws Exception {
        rules.noSplitAssignedTwice();
    }

    @Test
    void noMoreSplitsOnlyWhenDone() throws Exception {
        rules.noMoreSplitsOnlyWhenDone();
    }
}
