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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergScanContext;
import org.apache.seatunnel.managed.testkit.conformance.ManagedReaderConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The managed Iceberg reader passes every rule of the reader conformance suite, reading fixture
 * splits planned from a real table (4 data files of 300, 5, 700 and 1 rows, one split starting
 * mid-file).
 */
class ManagedIcebergConformanceTest
        extends ManagedReaderConformanceSuite<SeaTunnelRow, IcebergSplit> {
    private static Path warehouse;
    private static IcebergTestTable table;

    @BeforeAll
    static void createTable() throws Exception {
        warehouse = Files.createTempDirectory("managed-iceberg-conformance");
        table = IcebergTestTable.create(warehouse, "conformance");
        table.append(1, 300);
        table.append(1, 5);
        table.append(1, 700);
        table.append(1, 1);
    }

    @AfterAll
    static void closeTable() throws Exception {
        table.close();
    }

    @Override
    protected SeaTunnelSource<SeaTunnelRow, IcebergSplit, ?> createSource() {
        HashMap<String, Object> o = new HashMap<>(table.options());
        o.put("managed.fetch.batch-rows", 64);
        return new ManagedIcebergSourceFactory().create(ReadonlyConfig.fromMap(o));
    }

    @Override
    protected List<IcebergSplit> fixtureSplits() {
        SourceConfig config = new SourceConfig(ReadonlyConfig.fromMap(table.options()));
        try (IcebergSnapshotDiscovery d =
                new IcebergSnapshotDiscovery(
                        config,
                        null,
                        IcebergScanContext.scanContext(config, IcebergTestTable.SCHEMA),
                        true)) {
            DiscoveryResult<IcebergSplit, IcebergCursor> r = d.discover(IcebergCursor.INITIAL, 100);
            List<IcebergSplit> splits = new ArrayList<>();
            for (IcebergSplit s : r.splits()) {
                // The 700-row file starts mid-file, as a restored split does.
                boolean big = s.task().file().recordCount() == 700;
                splits.add(big ? s.withRecordOffset(250) : s);
            }
            return splits;
        }
    }
}
