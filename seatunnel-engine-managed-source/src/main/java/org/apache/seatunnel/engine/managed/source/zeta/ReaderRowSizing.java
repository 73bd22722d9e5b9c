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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.engine.managed.source.reader.RecordSizes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a Lane A reader on Zeta sizes its rows for the poll turn's byte budget: by the type Zeta's
 * source task derives for its collector, so that a sampled row is sized as the collector then sizes
 * it.
 *
 * <p>Threading: stateless; called once per reader attempt on the task thread that opens it.
 */
final class ReaderRowSizing {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderRowSizing.class);

    private ReaderRowSizing() {}

    /** The record sizer of a reader of {@code source}. */
    static <T> ToLongFunction<T> recordSizer(SeaTunnelSource<?, ?, ?> source) {
        return RecordSizes.<T>forRowType(producedType(source));
    }

    /**
     * The type Zeta's source task derives for its collector (from the produced catalog tables, or
     * the produced type of a connector without them). Null, and rows sized without a type, if the
     * connector declares neither.
     */
    static SeaTunnelDataType<?> producedType(SeaTunnelSource<?, ?, ?> source) {
        try {
            try {
                return CatalogTableUtil.convertToDataType(source.getProducedCatalogTables());
            } catch (UnsupportedOperationException e) {
                return source.getProducedType();
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Lane A sizes rows without their type: the source declares no produced type"
                            + " ({})",
                    e.getClass().getSimpleName());
            return null;
        }
    }
}
