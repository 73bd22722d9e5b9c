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
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryStateSerializer;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/** Ranges found as the job runs (the tutorial's second part), read by the part one reader. */
public class GrowingRangeSource
        implements SeaTunnelSource<SeaTunnelRow, RangeSplit, DiscoveryState<RangeSplit, Long>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    final int initial;
    final int step;
    final int max;
    final long rowsPerSplit;
    private final DiscoveryConfig discovery;
    private final ManagedReaderConfig readerConfig;

    GrowingRangeSource(
            int initial,
            int step,
            int max,
            long rowsPerSplit,
            DiscoveryConfig discovery,
            ManagedReaderConfig readerConfig) {
        this.initial = initial;
        this.step = step;
        this.max = max;
        this.rowsPerSplit = rowsPerSplit;
        this.discovery = discovery;
        this.readerConfig = readerConfig;
    }

    @Override
    public String getPluginName() {
        return GrowingRangeSourceFactory.IDENTIFIER;
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
    public SourceSplitEnumerator<RangeSplit, DiscoveryState<RangeSplit, Long>> createEnumerator(
            SourceSplitEnumerator.Context<RangeSplit> context) {
        return restoreEnumerator(context, DiscoveryState.initial(0L));
    }

    @Override
    public SourceSplitEnumerator<RangeSplit, DiscoveryState<RangeSplit, Long>> restoreEnumerator(
            SourceSplitEnumerator.Context<RangeSplit> context,
            DiscoveryState<RangeSplit, Long> state) {
        return new GrowingRangeEnumerator(context, state, discovery, this);
    }

    @Override
    public Serializer<RangeSplit> getSplitSerializer() {
        return new RangeSplit.Serializer();
    }

    @Override
    public Serializer<DiscoveryState<RangeSplit, Long>> getEnumeratorStateSerializer() {
        return new DiscoveryStateSerializer<>(
                new RangeSplit.Serializer(), new DiscoveryStateSerializer.LongCursor());
    }
}
