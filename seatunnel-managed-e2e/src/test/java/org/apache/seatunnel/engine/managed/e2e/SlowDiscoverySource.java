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

package org.apache.seatunnel.engine.managed.e2e;

import java.io.Serializable;
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
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * {@code SlowDiscovery}: the managed FakeSource's readers, splits and rows, with {@link
 * SlowDiscoveryEnumerator}, whose coordinator keeps slow {@code callAsync} discoveries running.
 *
 * <p>Threading: immutable and {@link Serializable}; the engine ships it to every member.
 */
public final class SlowDiscoverySource
        implements SeaTunnelSource<
                        SeaTunnelRow, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>,
                SupportParallelism,
                SupportManagedSource {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "SlowDiscovery";

    private final ManagedFakeSource fake;
    private final String runId;
    private final int burst;
    private final long discoveryMillis;

    SlowDiscoverySource(ManagedFakeSource fake, String runId, int burst, long discoveryMillis) {
        this.fake = fake;
        this.runId = runId;
        this.burst = burst;
        this.discoveryMillis = discoveryMillis;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return fake.managedSourceCapability();
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public Boundedness getBoundedness() {
        return fake.getBoundedness();
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return fake.getProducedCatalogTables();
    }

    @Override
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(SourceReader.Context ctx) {
        return fake.createReader(ctx);
    }

    @Override
    public Serializer<ManagedFakeSplit> getSplitSerializer() {
        return fake.getSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            createEnumerator(SourceSplitEnumerator.Context<ManagedFakeSplit> ctx) throws Exception {
        return new SlowDiscoveryEnumerator(
                ctx, fake.createEnumerator(ctx), runId, burst, discoveryMillis);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
                    NumberedSplitState<ManagedFakeSplit> state)
                    throws Exception {
        return new SlowDiscoveryEnumerator(
                ctx, fake.restoreEnumerator(ctx, state), runId, burst, discoveryMillis);
    }

    @Override
    public Serializer<NumberedSplitState<ManagedFakeSplit>> getEnumeratorStateSerializer() {
        return fake.getEnumeratorStateSerializer();
    }
}
