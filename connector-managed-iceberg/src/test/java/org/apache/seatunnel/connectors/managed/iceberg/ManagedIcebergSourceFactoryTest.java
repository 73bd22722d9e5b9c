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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning: the stock options parsed by the stock config, the table's schema through the stock type
 * conversion, and every bad option failing with its name before the job runs.
 */
class ManagedIcebergSourceFactoryTest {
    @TempDir static Path warehouse;
    private static IcebergTestTable table;

    @BeforeAll
    static void create() throws Exception {
        table = IcebergTestTable.create(warehouse, "planning");
        table.append(1, 1);
    }

    @AfterAll
    static void close() throws Exception {
        table.close();
    }

    private static ManagedIcebergSource create(Map<String, Object> options) {
        return new ManagedIcebergSourceFactory().create(ReadonlyConfig.fromMap(options));
    }

    private static String refused(String key, Object value) {
        Map<String, Object> o = table.options();
        if (value == null) {
            o.remove(key);
        } else {
            o.put(key, value);
        }
        return assertThrows(IllegalArgumentException.class, () -> create(o)).getMessage();
    }

    @Test
    void theTableSchemaIsConvertedByTheStockMapping() {
        ManagedIcebergSource source = create(table.options());
        assertArrayEquals(new String[] {"id", "name", "batch"}, source.rowType().getFieldNames());
        assertEquals("BIGINT", source.rowType().getFieldType(0).getSqlType().name());
        assertEquals(1, source.getProducedCatalogTables().size());
        assertEquals(ManagedIcebergSourceFactory.IDENTIFIER, source.getPluginName());
    }

    @Test
    void badOptionsFailAtPlanningNamingTheOption() {
        assertTrue(
                refused("stream_scan_stratgy", "FROM_LATEST_SNAPSHOT")
                        .contains("stream_scan_stratgy"));
        assertTrue(refused("start_snapshot_id", "abc").contains("start_snapshot_id"));
        assertTrue(refused("stream_scan_strategy", "SOMETIMES").contains("stream_scan_strategy"));
        assertTrue(
                refused("stream_scan_strategy", "FROM_SNAPSHOT_ID").contains("start_snapshot_id"));
        assertTrue(
                refused("stream_scan_strategy", "FROM_SNAPSHOT_TIMESTAMP")
                        .contains("start_snapshot_timestamp"));
        assertTrue(refused("table", null).contains("table"));
        assertTrue(refused("discovery.interval-ms", 0).contains("discovery.interval-ms"));
        assertTrue(
                refused("discovery.max-pending-splits", 0)
                        .contains("discovery.max-pending-splits"));
        assertTrue(refused("managed.fetch.batch-rows", 0).contains("managed.fetch.batch-rows"));
        String missing = refused("table", "no_such_table");
        assertTrue(missing.contains("no_such_table") && missing.contains("ice"), missing);
    }
}
