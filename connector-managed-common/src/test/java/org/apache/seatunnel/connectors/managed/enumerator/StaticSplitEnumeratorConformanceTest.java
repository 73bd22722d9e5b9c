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
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplitSerializer;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorRules;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorTarget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The static-list enumerator passes every enumerator conformance rule on both lanes, bounded and
 * unbounded, at several parallelisms (splits carry offsets, so content is checked too).
 */
class StaticSplitEnumeratorConformanceTest {

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
        List<ManagedFakeSplit> fixture = splits(count);
        EnumeratorRules<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> rules =
                new EnumeratorRules<>(
                        EnumeratorTarget
                                .<ManagedFakeSplit, ArrayList<ManagedFakeSplit>>forEnumerators(
                                        ctx -> new StaticSplitEnumerator<>(ctx, fixture, bounded),
                                        (ctx, state) ->
                                                new StaticSplitEnumerator<>(ctx, state, bounded),
                                        new SplitListSerializer<>(new ManagedFakeSplitSerializer()),
                                        new ManagedFakeSplitSerializer(),
                                        bounded)
                                .parallelism(parallelism)
                                .expectedSplits(fixture)
                                .build());
        rules.restoresFromEverySnapshot();
        rules.reassignsSplitsHandedBack();
        rules.anyRegistrationOrder();
        rules.noSplitAssignedTwice();
        rules.noMoreSplitsOnlyWhenDone();
    }
}
