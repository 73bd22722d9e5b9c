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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
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
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * {@code PullProbe}: a bounded source whose readers pull their splits: the enumerator ({@link
 * PullEnumerator}) assigns a split only in answer to a reader's split request, and the reader
 * ({@link PullReader}) sends one from inside its poll turns whenever it has no split. Each reader
 * also sends its enumerator a {@link Hello} source event from {@code open()}.
 *
 * <p>Threading: immutable.
 */
public final class PullSource
        implements SeaTunnelSource<SeaTunnelRow, PullSplit, ArrayList<PullSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "PullProbe";

    private final int splits;
    private final long rowsPerSplit;
    private final String probe;

    PullSource(int splits, long rowsPerSplit, String probe) {
        this.splits = splits;
        this.rowsPerSplit = rowsPerSplit;
        this.probe = probe;
    }

    /** The event every reader sends its enumerator when it opens. Immutable. */
    static final class Hello implements SourceEvent {
        private static final long serialVersionUID = 1L;
        final int subtask;

        Hello(int subtask) {
            this.subtask = subtask;
        }
    }

    /** Version 1: i32 subtask. */
    static final class HelloSerializer extends VersionedSerializer<SourceEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, SourceEvent e) throws IOException {
            out.writeInt(((Hello) e).subtask);
        }

        @Override
        protected SourceEvent read(DataInputStream in, int version) throws IOException {
            return new Hello(in.readInt());
        }
    }

    @Override
    public Serializer<SourceEvent> managedSourceEventSerializer() {
        return new HelloSerializer();
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return PullReader.CAPABILITY;
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
                CatalogTableUtil.getCatalogTable("pull", new SeaTunnelRowType(names, types)));
    }

    @Override
    public SourceReader<SeaTunnelRow, PullSplit> createReader(SourceReader.Context context) {
        return new PullReader(context, PullProbe.of(probe));
    }

    @Override
    public SourceSplitEnumerator<PullSplit, ArrayList<PullSplit>> createEnumerator(
            SourceSplitEnumerator.Context<PullSplit> context) {
        List<PullSplit> all = new ArrayList<>();
        for (int i = 0; i < splits; i++) {
            all.add(new PullSplit(i, 0, rowsPerSplit));
        }
        return new PullEnumerator(context, all, PullProbe.of(probe));
    }

    @Override
    public SourceSplitEnumerator<PullSplit, ArrayList<PullSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<PullSplit> context, ArrayList<PullSplit> pending) {
        return new PullEnumerator(context, pending, PullProbe.of(probe));
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
