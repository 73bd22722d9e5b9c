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

import java.time.LocalDate;
import java.util.Collections;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.PhysicalColumn;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.catalog.TableSchema;
import org.apache.seatunnel.api.table.type.ArrayType;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * The fixed schema of the managed FakeSource and the row/payload encoding that sinks use to check
 * exactly-once delivery. Stateless.
 */
public final class ManagedFakeRows {

    public static final int FIELD_ID = 0;
    public static final int FIELD_SPLIT = 1;
    public static final int FIELD_SEQ = 2;
    public static final int FIELD_PAYLOAD = 3;

    /** Present only with {@code dates.column}. */
    public static final int FIELD_DAYS = 4;

    public static final TablePath TABLE_PATH = TablePath.of("managed_fake", "rows");

    private ManagedFakeRows() {}

    /** A fresh catalog table: (id BIGINT, split INT, seq BIGINT, payload STRING). */
    public static CatalogTable catalogTable() {
        return catalogTable(false);
    }

    /** The catalog table, with the {@code days ARRAY<DATE>} column when {@code dates} is set. */
    public static CatalogTable catalogTable(boolean dates) {
        TableSchema.Builder builder =
                TableSchema.builder()
                        .column(PhysicalColumn.of("id", BasicType.LONG_TYPE, 8L, false, null, ""))
                        .column(PhysicalColumn.of("split", BasicType.INT_TYPE, 4L, false, null, ""))
                        .column(PhysicalColumn.of("seq", BasicType.LONG_TYPE, 8L, false, null, ""))
                        .column(
                                PhysicalColumn.of(
                                        "payload", BasicType.STRING_TYPE, 64L, false, null, ""));
        if (dates) {
            builder.column(
                    PhysicalColumn.of(
                            "days", ArrayType.LOCAL_DATE_ARRAY_TYPE, 72L, false, null, ""));
        }
        TableSchema schema = builder.build();
        return CatalogTable.of(
                TableIdentifier.of("ManagedFake", TABLE_PATH),
                schema,
                Collections.<String, String>emptyMap(),
                Collections.<String>emptyList(),
                "rows of the managed FakeSource");
    }

    /** {@code "fake-<split>:<seq>"}: unique per (split, seq), so a sink can count duplicates. */
    public static String payload(int splitNumber, long seq) {
        return ManagedFakeSplit.splitId(splitNumber) + ':' + seq;
    }

    /** A unique id across splits: ids of different splits never collide for any split count. */
    public static long rowId(int splitNumber, int splitCount, long seq) {
        return seq * Math.max(1, splitCount) + splitNumber;
    }

    /** Three days from the epoch on, a function of seq so restored readers produce them again. */
    private static LocalDate[] days(long seq) {
        LocalDate first = LocalDate.ofEpochDay(seq % 10_000);
        return new LocalDate[] {first, first.plusDays(1), first.plusDays(2)};
    }

    static SeaTunnelRow row(
            int splitNumber, int splitCount, long seq, String tableId, boolean dates) {
        long id = rowId(splitNumber, splitCount, seq);
        String payload = payload(splitNumber, seq);
        SeaTunnelRow row =
                new SeaTunnelRow(
                        dates
                                ? new Object[] {id, splitNumber, seq, payload, days(seq)}
                                : new Object[] {id, splitNumber, seq, payload});
        row.setTableId(tableId);
        return row;
    }
}
