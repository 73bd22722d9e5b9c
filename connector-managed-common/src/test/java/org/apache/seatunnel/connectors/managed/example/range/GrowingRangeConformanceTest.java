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

import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.managed.testkit.conformance.ManagedReaderConformanceSuite;

/** The tutorial's discovering source passes every rule of the conformance suite. */
class GrowingRangeConformanceTest extends ManagedReaderConformanceSuite<SeaTunnelRow, RangeSplit> {

    @Override
    protected SeaTunnelSource<SeaTunnelRow, RangeSplit, ?> createSource() {
        return new GrowingRangeSource(
                4, 2, 12, 700, DiscoveryConfig.defaults(), ManagedReaderConfig.defaults());
    }

    @Override
    protected List<RangeSplit> fixtureSplits() {
        return Arrays.asList(
                new RangeSplit(0, 0, 700), new RangeSplit(1, 0, 300), new RangeSplit(2, 50, 1000));
    }
}
