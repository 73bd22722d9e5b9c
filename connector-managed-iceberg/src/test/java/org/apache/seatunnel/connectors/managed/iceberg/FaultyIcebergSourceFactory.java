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

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;

/**
 * Test only: {@code ManagedIcebergFaulty} is {@code ManagedIceberg} whose readers throw once, when
 * the readers of fault {@code fault.id} together emitted {@code fail.once.at.row} rows, or whose
 * enumerator throws once from the snapshot of the first checkpoint after {@code
 * enumerator.fail.once.after.rows} rows were emitted.
 *
 * <p>Threading: the counters are JVM-wide concurrent maps keyed by fault id; each fault fires once.
 */
public final class FaultyIcebergSourceFactory implements TableSourceFactory {
    static final String IDENTIFIER = "ManagedIcebergFaulty";
    static final Option<String> FAULT_ID =
            Options.key("fault.id").stringType().defaultValue("").withDescription("fault id");
    static final Option<Long> READER_FAIL_AT_ROW =
            Options.key("fail.once.at.row")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription("rows before the reader's one failure");
    static final Option<Long> ENUMERATOR_FAIL_AFTER_ROWS =
            Options.key("enumerator.fail.once.after.rows")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription("rows before the enumerator's one failure");

    private static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> FIRED = new ConcurrentHashMap<>();

    static boolean fired(String faultId) {
        return FIRED.containsKey(faultId);
    }

    private static AtomicLong emitted(String faultId) {
        return EMITTED.computeIfAbsent(faultId, k -> new AtomicLong());
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return new ManagedIcebergSourceFactory().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        Map<String, Object> options = new HashMap<>(context.getOptions().getSourceMap());
        options.remove(FAULT_ID.key());
        options.remove(READER_FAIL_AT_ROW.key());
        options.remove(ENUMERATOR_FAIL_AFTER_ROWS.key());
        ManagedIcebergSource inner =
                new ManagedIcebergSourceFactory().create(ReadonlyConfig.fromMap(options));
        FaultySource source =
                new FaultySource(
                        inner,
                        context.getOptions().get(FAULT_ID),
                        context.getOptions().get(READER_FAIL_AT_ROW),
                        context.getOptions().get(ENUMERATOR_FAIL_AFTER_ROWS));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return FaultySource.class;
    }

    /** Delegates everything to the managed Iceberg source; wraps its readers and enumerator. */
    static final class FaultySource
            implements SeaTunnelSource<
                            SeaTunnelRow,
                            IcebergSplit,
                            DiscoveryState<IcebergSplit, IcebergCursor>>,
                    SupportParallelism,
                    SupportManagedSource {
        private static final long serialVersionUID = 1L;
        private final ManagedIcebergSource inner;
        private final String faultId;
        private final long readerFailAt;
        private final long enumeratorFailAfter;

        FaultySource(
                ManagedIcebergSource inner,
                String faultId,
                long readerFailAt,
                long enumeratorFailAfter) {
            this.inner = inner;
            this.faultId = faultId;
            this.readerFailAt = readerFailAt;
            this.enumeratorFailAfter = enumeratorFailAfter;
        }

        @Override
        public String getPluginName() {
            return IDENTIFIER;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return inner.managedSourceCapability();
        }

        @Override
        public void setJobContext(JobContext jobContext) {
            inner.setJobContext(jobContext);
        }

        @Override
        public Boundedness getBoundedness() {
            return inner.getBoundedness();
        }

        @Override
        public List<CatalogTable> getProducedCatalogTables() {
            return inner.getProducedCatalogTables();
        }

        @Override
        public SourceReader<SeaTunnelRow, IcebergSplit> createReader(SourceReader.Context context) {
            return new FaultyReader(
                    (ManagedIcebergReader) inner.createReader(context), faultId, readerFailAt);
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
            return new FaultyEnumerator(
                    (ManagedIcebergEnumerator) inner.restoreEnumerator(context, state),
                    faultId,
                    enumeratorFailAfter);
        }

        @Override
        public Serializer<IcebergSplit> getSplitSerializer() {
            return inner.getSplitSerializer();
        }

        @Override
        public Serializer<DiscoveryState<IcebergSplit, IcebergCursor>>
                getEnumeratorStateSerializer() {
            return inner.getEnumeratorStateSerializer();
        }
    }

    /** The managed enumerator, throwing once from a checkpoint's snapshot after enough rows. */
    static final class FaultyEnumerator
            implements SourceSplitEnumerator<
                            IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>,
                    SupportSplitDemand {
        private final ManagedIcebergEnumerator inner;
        private final String faultId;
        private final long failAfter;

        FaultyEnumerator(ManagedIcebergEnumerator inner, String faultId, long failAfter) {
            this.inner = inner;
            this.faultId = faultId;
            this.failAfter = failAfter;
        }

        @Override
        public DiscoveryState<IcebergSplit, IcebergCursor> snapshotState(long checkpointId)
                throws Exception {
            if (failAfter >= 0
                    && emitted(faultId).get() >= failAfter
                    && FIRED.putIfAbsent(faultId, Boolean.TRUE) == null) {
                throw new IllegalStateException("injected enumerator failure " + faultId);
            }
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void handleSplitDemand(int subtaskId, int maxSplits) {
            inner.handleSplitDemand(subtaskId, maxSplits);
        }

        @Override
        public void open() {
            inner.open();
        }

        @Override
        public void run() throws Exception {
            inner.run();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public void addSplitsBack(List<IcebergSplit> splits, int subtaskId) {
            inner.addSplitsBack(splits, subtaskId);
        }

        @Override
        public int currentUnassignedSplitSize() {
            return inner.currentUnassignedSplitSize();
        }

        @Override
        public void handleSplitRequest(int subtaskId) {
            inner.handleSplitRequest(subtaskId);
        }

        @Override
        public void registerReader(int subtaskId) {
            inner.registerReader(subtaskId);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            inner.notifyCheckpointComplete(checkpointId);
        }
    }

    /** The managed Iceberg reader, throwing once from a poll turn at the configured row. */
    static final class FaultyReader implements ManagedSourceReader<SeaTunnelRow, IcebergSplit> {
        private final ManagedIcebergReader inner;
        private final String faultId;
        private final long failAt;

        FaultyReader(ManagedIcebergReader inner, String faultId, long failAt) {
            this.inner = inner;
            this.faultId = faultId;
            this.failAt = failAt;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return inner.managedSourceCapability();
        }

        @Override
        public int splitBacklog() {
            return inner.splitBacklog();
        }

        @Override
        public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
                throws Exception {
            PollStatus status = inner.pollNextManaged(new Counting(output), ctx);
            if (failAt >= 0
                    && emitted(faultId).get() >= failAt
                    && FIRED.putIfAbsent(faultId, Boolean.TRUE) == null) {
                throw new IllegalStateException("injected reader failure " + faultId);
            }
            return status;
        }

        private final class Counting implements Collector<SeaTunnelRow> {
            private final Collector<SeaTunnelRow> out;

            Counting(Collector<SeaTunnelRow> out) {
                this.out = out;
            }

            @Override
            public void collect(SeaTunnelRow row) {
                out.collect(row);
                emitted(faultId).incrementAndGet();
            }

            @Override
            public Object getCheckpointLock() {
                return out.getCheckpointLock();
            }
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return inner.isAvailable();
        }

        @Override
        public void wakeup() {
            inner.wakeup();
        }

        @Override
        public void open() throws Exception {
            inner.open();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
            inner.pollNext(new Counting(output));
        }

        @Override
        public List<IcebergSplit> snapshotState(long checkpointId) throws Exception {
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<IcebergSplit> splits) {
            inner.addSplits(splits);
        }

        @Override
        public void handleNoMoreSplits() {
            inner.handleNoMoreSplits();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            inner.notifyCheckpointComplete(checkpointId);
        }
    }
}
