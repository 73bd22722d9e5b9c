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

package org.apache.seatunnel.connectors.managed.example.range;

import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorTarget;
import org.apache.seatunnel.managed.testkit.conformance.ManagedEnumeratorConformanceSuite;

/**
 * The tutorial's discovering enumerator, on {@code DiscoveringSplitEnumerator}, passes every
 * enumerator rule on both lanes: 4 ranges at the start, 2 more per discovery up to 12, its cursor
 * (the next range's number) never going back.
 */
class GrowingRangeEnumeratorConformanceTest
        extends ManagedEnumeratorConformanceSuite<RangeSplit, DiscoveryState<RangeSplit, Long>> {

    @Override
    protected SeaTunnelSource<?, RangeSplit, DiscoveryState<RangeSplit, Long>> createSource() {
        return new GrowingRangeSource(
                4, 2, 12, 100, DiscoveryConfig.defaults(), ManagedReaderConfig.defaults());
    }

    @Override
    protected EnumeratorTarget.Builder<RangeSplit, DiscoveryState<RangeSplit, Long>> configure(
            EnumeratorTarget.Builder<RangeSplit, DiscoveryState<RangeSplit, Long>> target) {
        return target.parallelism(3).cursor(DiscoveryState::cursor);
    }
}
