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
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumerator;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;

/**
 * {@code WakeupWaitProbe}: a Lane A source whose readers ({@link WakeupWaitReader}) emit a few rows
 * and then wait inside their poll turns until {@code wakeup()}, ignoring interrupts: the reader a
 * cancel must reach through the runtime's terminal signal. Splits are assigned up front.
 *
 * <p>Threading: immutable.
 */
public final class WakeupWaitSource
        implements SeaTunnelSource<SeaTunnelRow, PullSplit, ArrayList<PullSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "WakeupWaitProbe";

    private final int splits;
    private final long rowsBeforeWait;
    private final long waitMillis;
    private final boolean displaceListener;
    private final String probe;

    WakeupWaitSource(
            int splits,
            long rowsBeforeWait,
            long waitMillis,
            boolean displaceListener,
            String probe) {
        this.splits = splits;
        this.rowsBeforeWait = rowsBeforeWait;
        this.waitMillis = waitMillis;
        this.displaceListener = displaceListener;
        this.probe = probe;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return WakeupWaitReader.CAPABILITY;
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
                CatalogTableUtil.getCatalogTable("wakeup", new SeaTunnelRowType(names, types)));
    }

    @Override
    public SourceReader<SeaTunnelRow, PullSplit> createReader(SourceReader.Context context) {
        return new WakeupWaitReader(
                WakeupProbe.of(probe), rowsBeforeWait, waitMillis, displaceListener);
    }

    @Override
    public SourceSplitEnumerator<PullSplit, ArrayList<PullSplit>> createEnumerator(
            SourceSplitEnumerator.Context<PullSplit> context) {
        List<PullSplit> all = new ArrayList<>();
        for (int i = 0; i < splits; i++) {
            all.add(new PullSplit(i, 0, Long.MAX_VALUE));
        }
        return new StaticSplitEnumerator<>(context, all, true);
    }

    @Override
    public SourceSplitEnumerator<PullSplit, ArrayList<PullSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<PullSplit> context, ArrayList<PullSplit> pending) {
        return new StaticSplitEnumerator<>(context, pending, true);
    }

    @Override
    public Serializer<PullSplit> getSplitSerializer() {
        return new PullSplit.Serializer();
    }

    @Override
    public Serializer<ArrayList<PullSplit>> getEnumeratorStateSerializer() {
        return new SplitListSerializer<>(new PullSplit.Serializer());
    }
}
