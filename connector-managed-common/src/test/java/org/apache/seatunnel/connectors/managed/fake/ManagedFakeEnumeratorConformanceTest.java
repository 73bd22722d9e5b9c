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

package org.apache.seatunnel.connectors.managed.fake;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.managed.testkit.conformance.DeterministicScheduler;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorRules;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorTarget;
import org.apache.seatunnel.managed.testkit.conformance.ManagedEnumeratorConformanceSuite;
import org.junit.jupiter.api.Test;

/**
 * ManagedFake's enumerator passes every enumerator conformance rule (bounded, 7 splits over 3
 * readers, a reference run defining the fixture); with discovery, its checkpointed cursor never
 * goes backwards, with the discovery clock driven by the fake engine's virtual time.
 */
class ManagedFakeEnumeratorConformanceTest
        extends ManagedEnumeratorConformanceSuite<
                ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> {

    @Override
    protected SeaTunnelSource<?, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            createSource() {
        return new ManagedFakeSource(
                ManagedFakeConfig.builder().splitCount(7).rowsPerSplit(10).bounded(true).build());
    }

    @Test
    void theDiscoveryCursorNeverGoesBackwards() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(3)
                        .bounded(false)
                        .discoverySplitsPerSecond(20)
                        .build();
        EnumeratorRules<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> rules =
                new EnumeratorRules<>(
                        EnumeratorTarget
                                .<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
                                        forEnumerators(
                                                ctx ->
                                                        new ManagedFakeEnumerator(
                                                                ctx,
                                                                config,
                                                                ManagedFakeHooks.NONE,
                                                                null,
                                                                virtualClock(ctx)),
                                                (ctx, state) ->
                                                        new ManagedFakeEnumerator(
                                                                ctx,
                                                                config,
                                                                ManagedFakeHooks.NONE,
                                                                state,
                                                                virtualClock(ctx)),
                                                new ManagedFakeEnumeratorStateSerializer(),
                                                new ManagedFakeSplitSerializer(),
                                                false)
                                .cursor(ManagedFakeEnumeratorConformanceTest::cursor)
                                .build());
        assertTrue(rules.discoveryCursorIsMonotonic());
    }

    /** The fake engine's virtual clock: discovery runs at the pace of the timers it fires. */
    private static java.util.function.LongSupplier virtualClock(
            org.apache.seatunnel.api.source.SourceSplitEnumerator.Context<ManagedFakeSplit> ctx) {
        DeterministicScheduler s =
                (DeterministicScheduler) ManagedEnumeratorContext.of(ctx).scheduler();
        return s::nowNanos;
    }

    /** The discovery cursor: the split count, which discovery raises. */
    private static Comparable<?> cursor(NumberedSplitState<ManagedFakeSplit> state) {
        return state.count();
    }
}
