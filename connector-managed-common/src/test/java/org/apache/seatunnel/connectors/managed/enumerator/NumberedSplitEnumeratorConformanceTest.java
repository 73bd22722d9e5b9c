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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplitSerializer;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorRules;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorTarget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The numbered enumerator passes every enumerator conformance rule on both lanes, bounded and
 * unbounded, at several parallelisms (split {@code n} carries offset {@code 10 n}, so content is
 * checked too).
 */
class NumberedSplitEnumeratorConformanceTest {

    /** Split {@code n} is ManagedFake split {@code n} at offset {@code 10 n}. */
    static final class ByNumber extends NumberedSplitEnumerator<ManagedFakeSplit> {
        ByNumber(SourceSplitEnumerator.Context<ManagedFakeSplit> ctx, long count, boolean b) {
            super(ctx, count, b);
        }

        ByNumber(
                SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
                NumberedSplitState<ManagedFakeSplit> state,
                boolean b) {
            super(ctx, state, b);
        }

        @Override
        protected ManagedFakeSplit split(long number) {
            return new ManagedFakeSplit((int) number, 10L * number);
        }

        @Override
        protected long number(ManagedFakeSplit split) {
            return split.splitNumber();
        }
    }

    private static List<ManagedFakeSplit> splits(int n) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ManagedFakeSplit(i, 10L * i));
        }
        return out;
    }

    @ParameterizedTest(name = "bounded={0}, parallelism={1}, splits={2}")
    @CsvSource({"true, 1, 5", "true, 3, 8", "false, 3, 8", "true, 4, 3"})
    void passesEveryEnumeratorRule(boolean bounded, int parallelism, int count) throws Exception {
        EnumeratorRules<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> rules =
                new EnumeratorRules<>(
                        EnumeratorTarget
                                .<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
                                        forEnumerators(
                                                ctx -> new ByNumber(ctx, count, bounded),
                                                (ctx, state) -> new ByNumber(ctx, state, bounded),
                                                new NumberedSplitStateSerializer<>(
                                                        new ManagedFakeSplitSerializer()),
                                                new ManagedFakeSplitSerializer(),
                                                bounded)
                                .parallelism(parallelism)
                                .expectedSplits(splits(count))
                                .build());
        rules.restoresFromEverySnapshot();
        rules.reassignsSplitsHandedBack();
        rules.anyRegistrationOrder();
        rules.noSplitAssignedTwice();
        rules.noMoreSplitsOnlyWhenDone();
    }
}
