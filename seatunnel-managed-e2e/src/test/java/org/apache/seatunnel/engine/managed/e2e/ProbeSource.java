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

import com.hazelcast.spi.impl.NodeEngineImpl;
import java.io.IOException;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * {@code ManagedProbe}: the managed FakeSource wrapped so that every engine callback records its
 * thread in {@link Probe}, and the reader and enumerator contexts are resolved to their member
 * through {@link EngineInternals}. Lane B only (the wrapper is a plain {@link SourceReader}).
 *
 * <p>Threading: the source is immutable; the wrappers only forward and record into concurrent
 * collections, so they add no state of their own.
 */
public final class ProbeSource
        implements SeaTunnelSource<
                        SeaTunnelRow, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>,
                SupportParallelism {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "ManagedProbe";

    private final ManagedFakeSource delegate;
    private final String runId;

    ProbeSource(ManagedFakeSource delegate, String runId) {
        this.delegate = delegate;
        this.runId = runId;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public Boundedness getBoundedness() {
        return delegate.getBoundedness();
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        return delegate.getProducedCatalogTables();
    }

    @Override
    public Serializer<ManagedFakeSplit> getSplitSerializer() {
        return delegate.getSplitSerializer();
    }

    @Override
    public Serializer<NumberedSplitState<ManagedFakeSplit>> getEnumeratorStateSerializer() {
        return delegate.getEnumeratorStateSerializer();
    }

    @Override
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(SourceReader.Context ctx)
            throws Exception {
        Probe probe = Probe.of(runId);
        probe.called("Source.createReader");
        NodeEngineImpl nodeEngine = EngineInternals.nodeEngineOf(ctx);
        probe.fact(
                "reader[" + ctx.getIndexOfSubtask() + "].member",
                nodeEngine.getThisAddress().toString());
        probe.fact(
                "reader[" + ctx.getIndexOfSubtask() + "].taskLocation",
                EngineInternals.locationOf(ctx).toString());
        return new ProbeReader(delegate.createReader(ctx), probe);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            createEnumerator(SourceSplitEnumerator.Context<ManagedFakeSplit> ctx) throws Exception {
        Probe probe = Probe.of(runId);
        probe.called("Source.createEnumerator");
        recordEnumeratorMember(ctx, probe);
        return new ProbeEnumerator(delegate.createEnumerator(ctx), probe);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
                    NumberedSplitState<ManagedFakeSplit> state)
                    throws Exception {
        Probe probe = Probe.of(runId);
        probe.called("Source.restoreEnumerator");
        recordEnumeratorMember(ctx, probe);
        return new ProbeEnumerator(delegate.restoreEnumerator(ctx, state), probe);
    }

    private static void recordEnumeratorMember(
            SourceSplitEnumerator.Context<ManagedFakeSplit> ctx, Probe probe) {
        probe.fact(
                "enumerator.member", EngineInternals.nodeEngineOf(ctx).getThisAddress().toString());
        probe.fact("enumerator.taskLocation", EngineInternals.locationOf(ctx).toString());
    }

    /** Forwards to the real reader and records threads; see the class comment. */
    private static final class ProbeReader implements SourceReader<SeaTunnelRow, ManagedFakeSplit> {
        private final SourceReader<SeaTunnelRow, ManagedFakeSplit> r;
        private final Probe probe;

        ProbeReader(SourceReader<SeaTunnelRow, ManagedFakeSplit> r, Probe probe) {
            this.r = r;
            this.probe = probe;
        }

        @Override
        public void open() throws Exception {
            probe.called("Reader.open");
            r.open();
        }

        @Override
        public void close() throws IOException {
            probe.called("Reader.close");
            r.close();
        }

        @Override
        public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
            probe.called("Reader.pollNext");
            try {
                r.pollNext(output);
            } catch (InterruptedException e) {
                probe.called("Reader.pollNext interrupted");
                throw e;
            }
        }

        @Override
        public List<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
            probe.called("Reader.snapshotState");
            return r.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<ManagedFakeSplit> splits) {
            probe.called("Reader.addSplits");
            r.addSplits(splits);
        }

        @Override
        public void handleNoMoreSplits() {
            probe.called("Reader.handleNoMoreSplits");
            r.handleNoMoreSplits();
        }

        @Override
        public void handleSourceEvent(SourceEvent sourceEvent) {
            probe.called("Reader.handleSourceEvent");
            r.handleSourceEvent(sourceEvent);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            probe.called("Reader.notifyCheckpointComplete");
            r.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) throws Exception {
            probe.called("Reader.notifyCheckpointAborted");
            r.notifyCheckpointAborted(checkpointId);
        }
    }

    /** Forwards to the real enumerator and records threads; see the class comment. */
    private static final class ProbeEnumerator
            implements SourceSplitEnumerator<
                    ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> {
        private final SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
                e;
        private final Probe probe;

        ProbeEnumerator(
                SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> e,
                Probe probe) {
            this.e = e;
            this.probe = probe;
        }

        @Override
        public void open() {
            probe.called("Enumerator.open");
            e.open();
        }

        @Override
        public void run() throws Exception {
            probe.called("Enumerator.run");
            e.run();
        }

        @Override
        public void close() throws IOException {
            probe.called("Enumerator.close");
            e.close();
        }

        @Override
        public void addSplitsBack(List<ManagedFakeSplit> splits, int subtaskId) {
            probe.called("Enumerator.addSplitsBack");
            e.addSplitsBack(splits, subtaskId);
        }

        @Override
        public int currentUnassignedSplitSize() {
            return e.currentUnassignedSplitSize();
        }

        @Override
        public void handleSplitRequest(int subtaskId) {
            probe.called("Enumerator.handleSplitRequest");
            e.handleSplitRequest(subtaskId);
        }

        @Override
        public void registerReader(int subtaskId) {
            probe.called("Enumerator.registerReader");
            e.registerReader(subtaskId);
        }

        @Override
        public NumberedSplitState<ManagedFakeSplit> snapshotState(long checkpointId)
                throws Exception {
            probe.called("Enumerator.snapshotState");
            return e.snapshotState(checkpointId);
        }

        @Override
        public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
            probe.called("Enumerator.handleSourceEvent");
            e.handleSourceEvent(subtaskId, sourceEvent);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            probe.called("Enumerator.notifyCheckpointComplete");
            e.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) throws Exception {
            probe.called("Enumerator.notifyCheckpointAborted");
            e.notifyCheckpointAborted(checkpointId);
        }
    }
}
