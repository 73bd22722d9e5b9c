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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.table.type.ArrayType;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.MultipleRowType;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.junit.jupiter.api.Test;

/**
 * The sampler must size a row as Zeta's source collector will (by type), because the first size
 * computed is the one the row caches and the engine reports.
 */
class RecordSizesTest {
    // (id BIGINT, days ARRAY<DATE>): SeaTunnel sizes a LocalDate[] only by type.
    private static final SeaTunnelRowType DATES =
            new SeaTunnelRowType(
                    new String[] {"id", "days"},
                    new SeaTunnelDataType<?>[] {
                        BasicType.LONG_TYPE, ArrayType.LOCAL_DATE_ARRAY_TYPE
                    });
    private static final SeaTunnelRowType TEXT =
            new SeaTunnelRowType(
                    new String[] {"id", "text"},
                    new SeaTunnelDataType<?>[] {BasicType.LONG_TYPE, BasicType.STRING_TYPE});

    private static SeaTunnelRow datesRow() {
        LocalDate day = LocalDate.of(2026, 11, 30);
        return new SeaTunnelRow(new Object[] {1L, new LocalDate[] {day, day, day}});
    }

    @Test
    void aTypedSizerSizesWhatTheUntypedSizeRejects() {
        assertThrows(UnsupportedOperationException.class, () -> RecordSizes.ofRecord(datesRow()));
        ToLongFunction<Object> sizer = RecordSizes.forRowType(DATES);
        assertEquals(8 + 3 * 24, sizer.applyAsLong(datesRow()));
    }

    @Test
    void theSampledSizeIsTheOneTheEngineThenReads() {
        SeaTunnelRow row = new SeaTunnelRow(new Object[] {7L, "seatunnel"});
        long sampled = RecordSizes.<Object>forRowType(TEXT).applyAsLong(row);
        assertEquals(8 + 9, sampled);
        assertEquals(sampled, row.getBytesSize(TEXT), "what Zeta's collector reads");
        assertEquals(sampled, row.getBytesSize(), "what Zeta's metrics read");
    }

    @Test
    void aMultiTableSizerUsesTheTypeOfTheRowsTable() {
        Map<String, SeaTunnelRowType> types = new LinkedHashMap<>();
        types.put("db.text", TEXT);
        types.put("db.dates", DATES);
        ToLongFunction<Object> sizer = RecordSizes.forRowType(new MultipleRowType(types));
        SeaTunnelRow dates = datesRow();
        dates.setTableId("db.dates");
        assertEquals(8 + 3 * 24, sizer.applyAsLong(dates));
        SeaTunnelRow text = new SeaTunnelRow(new Object[] {1L, "abc"});
        text.setTableId("db.text");
        assertEquals(8 + 3, sizer.applyAsLong(text));
        // A table the type does not name: sized without a type, as before.
        SeaTunnelRow other = new SeaTunnelRow(new Object[] {1L, "abcd"});
        other.setTableId("db.other");
        assertEquals(8 + 4, sizer.applyAsLong(other));
    }

    @Test
    void recordsThatAreNotRowsAndUnknownTypesFallBack() {
        assertEquals(0, RecordSizes.forRowType(TEXT).applyAsLong("not a row"));
        assertEquals(0, RecordSizes.forRowType(null).applyAsLong(42L));
        assertEquals(
                8 + 2,
                RecordSizes.forRowType(null)
                        .applyAsLong(new SeaTunnelRow(new Object[] {1L, "ab"})));
        assertEquals(
                8 + 2,
                RecordSizes.forRowType(BasicType.STRING_TYPE)
                        .applyAsLong(new SeaTunnelRow(new Object[] {1L, "ab"})));
    }
}
