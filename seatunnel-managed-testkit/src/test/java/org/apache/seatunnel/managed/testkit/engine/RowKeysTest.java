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

package org.apache.seatunnel.managed.testkit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.seatunnel.api.table.type.RowKind;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.junit.jupiter.api.Test;

/** The row keys the collecting sink records: exact text per SeaTunnel value type, stable. */
class RowKeysTest {

    @Test
    void scalarsRenderByValueWithQuotedStringsAndNulls() {
        SeaTunnelRow row =
                new SeaTunnelRow(
                        new Object[] {
                            (byte) 1, (short) 2, 3, 4L, 1.5f, 2.25d, true, null, "a\"b\\c,d\n"
                        });
        assertEquals(
                "[1, 2, 3, 4, 1.5, 2.25, true, null, \"a\\\"b\\\\c,d\\u000a\"]", RowKeys.of(row));
    }

    @Test
    void decimalsKeepTheirScaleAndNeverUseExponents() {
        assertEquals(
                "[12.30, 1000, 0.00000001]",
                RowKeys.ofFields(
                        new BigDecimal("12.30"), new BigDecimal("1E+3"), new BigDecimal("1E-8")));
        assertNotEquals(
                RowKeys.ofFields(new BigDecimal("1.0")), RowKeys.ofFields(new BigDecimal("1.00")));
    }

    @Test
    void datesAndTimesRenderAsIso8601() {
        assertEquals(
                "[2024-02-29, 23:59:58.123, 2024-02-29T00:00:01]",
                RowKeys.ofFields(
                        LocalDate.of(2024, 2, 29),
                        LocalTime.of(23, 59, 58, 123_000_000),
                        LocalDateTime.of(2024, 2, 29, 0, 0, 1)));
    }

    @Test
    void nestedArraysRowsAndBytesRenderRecursively() {
        Object[] nested = {new Integer[] {1, null}, new String[] {"x"}, new Object[0]};
        SeaTunnelRow inner = new SeaTunnelRow(new Object[] {7L, new LocalDate[] {LocalDate.MIN}});
        assertEquals(
                "[[[1, null], [\"x\"], []], (7, [-999999999-01-01]), 0x00ff10, null]",
                RowKeys.ofFields(nested, inner, new byte[] {0, (byte) 0xff, 0x10}, null));
    }

    @Test
    void mapsRenderSortedWhateverTheirIterationOrder() {
        Map<String, Integer> forward = new LinkedHashMap<>();
        forward.put("b", 2);
        forward.put("a", null);
        forward.put("c", 3);
        Map<String, Integer> backward = new LinkedHashMap<>();
        backward.put("c", 3);
        backward.put("a", null);
        backward.put("b", 2);
        Map<Integer, String[]> arrays = new HashMap<>();
        arrays.put(10, new String[] {"t"});
        arrays.put(9, null);

        assertEquals("[{\"a\"=null, \"b\"=2, \"c\"=3}]", RowKeys.ofFields(forward));
        assertEquals(RowKeys.ofFields(forward), RowKeys.ofFields(backward));
        // Sorted by the rendered key, so 10 sorts before 9.
        assertEquals("[{10=[\"t\"], 9=null}]", RowKeys.ofFields(arrays));
    }

    @Test
    void rowKindOtherThanInsertIsPartOfTheKeyAndTableIdIsNot() {
        SeaTunnelRow insert = new SeaTunnelRow(new Object[] {1L});
        SeaTunnelRow delete = new SeaTunnelRow(new Object[] {1L});
        delete.setRowKind(RowKind.DELETE);
        delete.setTableId("db.t");

        assertEquals("[1]", RowKeys.of(insert));
        assertEquals("-D [1]", RowKeys.of(delete));
    }

    @Test
    void aStringFieldKeyIsTheBareStringOtherFieldsRenderAsInARow() {
        assertEquals("fake-0:1", RowKeys.fieldKey("fake-0:1"));
        assertEquals("42", RowKeys.fieldKey(42L));
        assertEquals("null", RowKeys.fieldKey(null));
        assertEquals("[\"a\", null]", RowKeys.fieldKey(new String[] {"a", null}));
    }
}
