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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplitSerializer;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;

/**
 * The plugin side shared by the streaming test connectors that read {@link ManagedFakeSplit}s with
 * a reader and enumerator of their own ({@code CutRace}, {@code RestoreProbe}): Lane A capable,
 * unbounded, {@link ManagedFakeRows}' table, ManagedFake's split serializer and a split list as
 * enumerator state. A subclass names itself and creates its reader and enumerator.
 *
 * <p>Threading: subclasses are immutable and serializable; the engine ships them to every member.
 */
abstract class FakeSplitTestSource
        implements SeaTunnelSource<SeaTunnelRow, ManagedFakeSplit, ArrayList<ManagedFakeSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    /** The enumerator, fresh ({@code restored == null}) or restored from its state. */
    protected abstract SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>>
            enumerator(
                    SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
                    ArrayList<ManagedFakeSplit> restored);

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.UNBOUNDED;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return Collections.singletonList(ManagedFakeRows.catalogTable());
    }

    @Override
    public Serializer<ManagedFakeSplit> getSplitSerializer() {
        return new ManagedFakeSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> createEnumerator(
            SourceSplitEnumerator.Context<ManagedFakeSplit> ctx) {
        return enumerator(ctx, null);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
            ArrayList<ManagedFakeSplit> state) {
        return enumerator(ctx, state);
    }

    @Override
    public Serializer<ArrayList<ManagedFakeSplit>> getEnumeratorStateSerializer() {
        return new SplitListSerializer<>(new ManagedFakeSplitSerializer());
    }
}
