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

import java.util.Collections;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryStateSerializer;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergScanContext;

/**
 * The managed Iceberg source: produces what the stock {@code Iceberg} source produces from the same
 * options (its schema, projection and type conversion), bounded in a {@code BATCH} job and
 * following new snapshots in a {@code STREAMING} job. Runs on both lanes.
 *
 * <p>Threading: immutable after planning apart from the job context the engine sets once.
 */
public final class ManagedIcebergSource
        implements SeaTunnelSource<
                        SeaTunnelRow, IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    private final SourceConfig config;
    private final CatalogTable catalogTable;
    private final Schema tableSchema;
    private final Schema projectedSchema;
    private final SeaTunnelRowType rowType;
    private final ManagedReaderConfig readerConfig;
    private final DiscoveryConfig discoveryConfig;
    private final ManagedIcebergOptions.Values managed;
    private JobContext jobContext;

    ManagedIcebergSource(
            SourceConfig config,
            CatalogTable catalogTable,
            Schema tableSchema,
            Schema projectedSchema,
            SeaTunnelRowType rowType,
            ManagedReaderConfig readerConfig,
            DiscoveryConfig discoveryConfig,
            ManagedIcebergOptions.Values managed) {
        this.config = config;
        this.catalogTable = catalogTable;
        this.tableSchema = tableSchema;
        this.projectedSchema = projectedSchema;
        this.rowType = rowType;
        this.readerConfig = readerConfig;
        this.discoveryConfig = discoveryConfig;
        this.managed = managed;
    }

    @Override
    public String getPluginName() {
        return ManagedIcebergSourceFactory.IDENTIFIER;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return ManagedSourceReaderBase.CAPABILITY;
    }

    @Override
    public void setJobContext(JobContext jobContext) {
        this.jobContext = jobContext;
    }

    @Override
    public Boundedness getBoundedness() {
        return jobContext != null && JobMode.STREAMING.equals(jobContext.getJobMode())
                ? Boundedness.UNBOUNDED
                : Boundedness.BOUNDED;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return Collections.singletonList(catalogTable);
    }

    /** The rows this source produces. */
    public SeaTunnelRowType rowType() {
        return rowType;
    }

    IcebergFileSplitReader newSplitReader() {
        return new IcebergFileSplitReader(
                config,
                catalogTable,
                tableSchema,
                projectedSchema,
                rowType,
                managed.fetchBatchRows);
    }

    @Override
    public SourceReader<SeaTunnelRow, IcebergSplit> createReader(SourceReader.Context context) {
        return new ManagedIcebergReader(context, readerConfig, this);
    }

    @Override
    public SourceSplitEnumerator<IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
            createEnumerator(SourceSplitEnumerator.Context<IcebergSplit> context) {
        return restoreEnumerator(context, null);
    }

    @Override
    public SourceSplitEnumerator<IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<IcebergSplit> context,
                    DiscoveryState<IcebergSplit, IcebergCursor> state) {
        boolean bounded = getBoundedness() == Boundedness.BOUNDED;
        IcebergScanContext scan =
                bounded
                        ? IcebergScanContext.scanContext(config, projectedSchema)
                        : IcebergScanContext.streamScanContext(config, projectedSchema);
        return new ManagedIcebergEnumerator(
                context,
                new IcebergSnapshotDiscovery(config, catalogTable, scan, bounded),
                discoveryConfig,
                state);
    }

    @Override
    public Serializer<IcebergSplit> getSplitSerializer() {
        return new IcebergSplitSerializer(config.isCaseSensitive());
    }

    @Override
    public Serializer<DiscoveryState<IcebergSplit, IcebergCursor>> getEnumeratorStateSerializer() {
        return stateSerializer(config.isCaseSensitive());
    }

    /** The enumerator state: the kit's discovery state over this source's split and cursor. */
    static Serializer<DiscoveryState<IcebergSplit, IcebergCursor>> stateSerializer(
            boolean caseSensitive) {
        return new DiscoveryStateSerializer<>(
                new IcebergSplitSerializer(caseSensitive), new IcebergCursor.Serializer());
    }
}
