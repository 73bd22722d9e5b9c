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

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.managed.testkit.conformance.ConformanceTarget;
import org.apache.seatunnel.managed.testkit.conformance.ManagedReaderConformanceSuite;

/** The managed FakeSource passes every rule of the conformance suite. */
class ManagedFakeConformanceTest
        extends ManagedReaderConformanceSuite<SeaTunnelRow, ManagedFakeSplit> {

    private static final int SPLITS = 4;

    @Override
    protected SeaTunnelSource<SeaTunnelRow, ManagedFakeSplit, ?> createSource() {
        return new ManagedFakeSource(
                ManagedFakeConfig.builder()
                        .splitCount(SPLITS)
                        .rowsPerSplit(300)
                        .bounded(true)
                        .build());
    }

    @Override
    protected List<ManagedFakeSplit> fixtureSplits() {
        List<ManagedFakeSplit> splits = new ArrayList<>();
        for (int n = 0; n < SPLITS; n++) {
            splits.add(new ManagedFakeSplit(n, n * 40L));
        }
        return splits;
    }

    @Override
    protected ConformanceTarget.Builder<SeaTunnelRow, ManagedFakeSplit> configure(
            ConformanceTarget.Builder<SeaTunnelRow, ManagedFakeSplit> target) {
        // The payload column is unique per (split, seq).
        return target.recordKey(row -> (String) row.getField(ManagedFakeRows.FIELD_PAYLOAD));
    }
}
