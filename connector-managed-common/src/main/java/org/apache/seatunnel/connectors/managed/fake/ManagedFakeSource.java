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

import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;

/**
 * The managed FakeSource: {@code split.count} splits of {@code rows.per.split} rows (endless when
 * unbounded) with the fixed schema of {@link ManagedFakeRows}. Immutable and {@link
 * java.io.Serializable}: the engine ships it to every member.
 */
public final class ManagedFakeSource
        implements SeaTunnelSource<
                        SeaTunnelRow, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>,
                SupportParallelism,
                SupportManagedSource {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "ManagedFake";

    private final ManagedFakeConfig config;
    private final ManagedFakeHooks hooks;

    public ManagedFakeSource(ManagedFakeConfig config) {
        this(config, ManagedFakeHooks.NONE);
    }

    /** A source whose readers and enumerator report to {@code hooks} (tests, benchmarks). */
    public ManagedFakeSource(ManagedFakeConfig config, ManagedFakeHooks hooks) {
        this.config = config;
        this.hooks = hooks;
    }

    public ManagedFakeConfig config() {
        return config;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return ManagedFakeReader.CAPABILITY;
    }

    /** ManagedFake's enumerator sends {@link ManagedFakeEvent}s when asked to. */
    @Override
    public Serializer<SourceEvent> managedSourceEventSerializer() {
        return new ManagedFakeEventSerializer();
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public Boundedness getBoundedness() {
        return config.bounded() ? Boundedness.BOUNDED : Boundedness.UNBOUNDED;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return Collections.singletonList(ManagedFakeRows.catalogTable(config.datesColumn()));
    }

    @Override
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(
            SourceReader.Context readerContext) {
        return new ManagedFakeReader(readerContext, config, hooks);
    }

    @Override
    public Serializer<ManagedFakeSplit> getSplitSerializer() {
        return new ManagedFakeSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            createEnumerator(SourceSplitEnumerator.Context<ManagedFakeSplit> enumeratorContext) {
        return new ManagedFakeEnumerator(enumeratorContext, config, hooks);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<ManagedFakeSplit> enumeratorContext,
                    NumberedSplitState<ManagedFakeSplit> state) {
        return new ManagedFakeEnumerator(enumeratorContext, config, hooks, state);
    }

    @Override
    public Serializer<NumberedSplitState<ManagedFakeSplit>> getEnumeratorStateSerializer() {
        return new ManagedFakeEnumeratorStateSerializer();
    }
}
