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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.managed.testkit.conformance.EnumeratorTarget;
import org.apache.seatunnel.managed.testkit.conformance.ManagedEnumeratorConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ManagedIceberg's enumerator passes every enumerator conformance rule: a bounded job over a real
 * table of 3 snapshots and 11 files, handed out in chunks of 4 pending splits; the cursor (the
 * planned-through snapshot's sequence number, then the tasks of the range out) never goes back.
 */
class ManagedIcebergEnumeratorConformanceTest
        extends ManagedEnumeratorConformanceSuite<
                IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>> {
    private static IcebergTestTable table;

    @BeforeAll
    static void createTable() throws Exception {
        Path warehouse = Files.createTempDirectory("managed-iceberg-enumerator-conformance");
        table = IcebergTestTable.create(warehouse, "enumerator");
        table.append(5, 1);
        table.appendEmpty();
        table.append(6, 1);
    }

    @AfterAll
    static void closeTable() throws Exception {
        table.close();
    }

    @Override
    protected EnumeratorTarget.Builder<IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
            configure(
                    EnumeratorTarget.Builder<
                                    IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
                            target) {
        return target.cursor(state -> progress(state.cursor()));
    }

    /** How far a cursor is: snapshot sequence number, then tasks of the running range out. */
    static long progress(IcebergCursor c) {
        if (!c.started()) {
            return -1;
        }
        long seq = c.position() == null ? 0 : table.table().snapshot(c.position()).sequenceNumber();
        return seq * 1_000_000L + (c.range() == null ? 0 : c.range().handedOut);
    }

    @Override
    protected SeaTunnelSource<?, IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
            createSource() {
        HashMap<String, Object> o = new HashMap<>(table.options());
        o.put("discovery.max-pending-splits", 4);
        o.put("discovery.interval-ms", 100);
        return new ManagedIcebergSourceFactory().create(ReadonlyConfig.fromMap(o));
    }
}
