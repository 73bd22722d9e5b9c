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

package org.apache.seatunnel.connectors.managed.example.common;

import java.util.List;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.example.common.CountingSource.CountSplit;
import org.apache.seatunnel.managed.testkit.conformance.ManagedReaderConformanceSuite;

/**
 * A reader built on SeaTunnel 2.3.8's connector-common split reader and record emitter passes every
 * rule of the conformance suite through the adapter.
 */
class CountingConformanceTest extends ManagedReaderConformanceSuite<SeaTunnelRow, CountSplit> {

    @Override
    protected SeaTunnelSource<SeaTunnelRow, CountSplit, ?> createSource() {
        return new CountingSource(3, 500);
    }

    @Override
    protected List<CountSplit> fixtureSplits() {
        return List.of(
                new CountSplit(0, 0, 500), new CountSplit(1, 100, 350), new CountSplit(2, 0, 1));
    }
}
