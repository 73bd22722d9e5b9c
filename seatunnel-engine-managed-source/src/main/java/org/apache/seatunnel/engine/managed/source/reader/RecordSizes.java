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

import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.table.type.MultipleRowType;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;

/**
 * Stateless. How a poll turn estimates the bytes of the records it emits.
 *
 * <p>A row computes its size once and caches it, and the engine's source collector asks every row
 * for its size for its metrics, so sampling a row moves that computation rather than adding one —
 * provided the sample sizes the row the way the collector will. The first computation is the one
 * cached, so a sampler that sized differently would also change what the engine reports.
 */
public final class RecordSizes {
    private RecordSizes() {}

    /**
     * The byte size of a {@link SeaTunnelRow} without its type, 0 for anything else. SeaTunnel
     * picks each field's size from its class name here, which is slower than by type and rejects
     * some values a typed size accepts (arrays of dates or decimals, for one); use {@link
     * #forRowType} when the produced type is known.
     */
    public static long ofRecord(Object record) {
        return record instanceof SeaTunnelRow ? ((SeaTunnelRow) record).getBytesSize() : 0;
    }

    /**
     * A sizer that sizes rows as Zeta's source collector does for a source producing {@code
     * rowType}: by the row type, or for a multi-table source by the type of the row's table. Rows
     * of a table the type does not name, and any row when the type is neither, are sized without a
     * type ({@link #ofRecord}).
     */
    public static <T> ToLongFunction<T> forRowType(SeaTunnelDataType<?> rowType) {
        if (rowType instanceof SeaTunnelRowType) {
            SeaTunnelRowType type = (SeaTunnelRowType) rowType;
            return record ->
                    record instanceof SeaTunnelRow ? ((SeaTunnelRow) record).getBytesSize(type) : 0;
        }
        if (rowType instanceof MultipleRowType) {
            MultipleRowType types = (MultipleRowType) rowType;
            return record -> {
                if (!(record instanceof SeaTunnelRow)) {
                    return 0;
                }
                SeaTunnelRow row = (SeaTunnelRow) record;
                SeaTunnelRowType type = types.getRowType(row.getTableId());
                return type != null ? row.getBytesSize(type) : row.getBytesSize();
            };
        }
        return RecordSizes::ofRecord;
    }
}
