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

package org.apache.seatunnel.connectors.managed.example.range;

import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitStateSerializer;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/** {@code splits} ranges of {@code rows-per-split} numbers each, as rows {@code (split, n)}. */
public final class RangeSource
        implements SeaTunnelSource<SeaTunnelRow, RangeSplit, NumberedSplitState<RangeSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    private final int splits;
    private final long rowsPerSplit;
    private final ManagedReaderConfig readerConfig;

    RangeSource(int splits, long rowsPerSplit, ManagedReaderConfig readerConfig) {
        this.splits = splits;
        this.rowsPerSplit = rowsPerSplit;
        this.readerConfig = readerConfig;
    }

    @Override
    public String getPluginName() {
        return RangeSourceFactory.IDENTIFIER;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return ManagedSourceReaderBase.CAPABILITY;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        String[] names = {"split", "n"};
        SeaTunnelDataType<?>[] types = {BasicType.INT_TYPE, BasicType.LONG_TYPE};
        return Collections.singletonList(
                CatalogTableUtil.getCatalogTable("range", new SeaTunnelRowType(names, types)));
    }

    @Override
    public SourceReader<SeaTunnelRow, RangeSplit> createReader(SourceReader.Context context) {
        return new RangeReader(context, readerConfig);
    }

    @Override
    public SourceSplitEnumerator<RangeSplit, NumberedSplitState<RangeSplit>> createEnumerator(
            SourceSplitEnumerator.Context<RangeSplit> context) {
        return new RangeEnumerator(context, splits, rowsPerSplit);
    }

    @Override
    public SourceSplitEnumerator<RangeSplit, NumberedSplitState<RangeSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<RangeSplit> context,
            NumberedSplitState<RangeSplit> state) {
        return new RangeEnumerator(context, state, rowsPerSplit);
    }

    @Override
    public Serializer<RangeSplit> getSplitSerializer() {
        return new RangeSplit.Serializer();
    }

    @Override
    public Serializer<NumberedSplitState<RangeSplit>> getEnumeratorStateSerializer() {
        return new NumberedSplitStateSerializer<>(new RangeSplit.Serializer());
    }

    /**
     * Range {@code n} is computed when its reader has room for it: a million ranges cost the
     * enumerator a cursor per reader, not a million splits.
     */
    static final class RangeEnumerator extends NumberedSplitEnumerator<RangeSplit> {
        private final long rowsPerSplit;

        RangeEnumerator(Context<RangeSplit> context, long splits, long rowsPerSplit) {
            super(context, splits, true);
            this.rowsPerSplit = rowsPerSplit;
        }

        RangeEnumerator(
                Context<RangeSplit> context,
                NumberedSplitState<RangeSplit> state,
                long rowsPerSplit) {
            super(context, state, true);
            this.rowsPerSplit = rowsPerSplit;
        }

        @Override
        protected RangeSplit split(long number) {
            return new RangeSplit((int) number, 0, rowsPerSplit);
        }

        @Override
        protected long number(RangeSplit split) {
            return split.number;
        }
    }
}
