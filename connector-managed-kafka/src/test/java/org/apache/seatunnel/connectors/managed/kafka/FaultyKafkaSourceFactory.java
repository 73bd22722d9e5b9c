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

package org.apache.seatunnel.connectors.managed.kafka;

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
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
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * Test only: {@code ManagedKafkaFaulty} is {@code ManagedKafka} whose readers throw once, when the
 * readers of fault {@code fault.id} together emitted {@code fail.once.at.row} rows.
 */
public final class FaultyKafkaSourceFactory implements TableSourceFactory {
    static final String IDENTIFIER = "ManagedKafkaFaulty";
    static final Option<String> FAULT_ID =
            Options.key("fault.id").stringType().defaultValue("").withDescription("fault id");
    static final Option<Long> FAIL_AT_ROW =
            Options.key("fail.once.at.row")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription("rows before the one failure");

    private static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> FIRED = new ConcurrentHashMap<>();

    static boolean fired(String faultId) {
        return FIRED.containsKey(faultId);
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return new ManagedKafkaSourceFactory().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        Map<String, Object> options = new HashMap<>(context.getOptions().getSourceMap());
        options.remove(FAULT_ID.key());
        options.remove(FAIL_AT_ROW.key());
        ManagedKafkaSource inner =
                new ManagedKafkaSourceFactory().create(ReadonlyConfig.fromMap(options));
        FaultySource source =
                new FaultySource(
                        inner,
                        context.getOptions().get(FAULT_ID),
                        context.getOptions().get(FAIL_AT_ROW));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return FaultySource.class;
    }

    /** Delegates everything to the managed Kafka source; wraps its readers. */
    static final class FaultySource
            implements SeaTunnelSource<
                            SeaTunnelRow,
                            KafkaSourceSplit,
                            DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>,
                    SupportParallelism,
                    SupportManagedSource {
        private static final long serialVersionUID = 1L;
        private final ManagedKafkaSource inner;
        private final String faultId;
        private final long failAt;

        FaultySource(ManagedKafkaSource inner, String faultId, long failAt) {
            this.inner = inner;
            this.faultId = faultId;
            this.failAt = failAt;
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
        public SourceReader<SeaTunnelRow, KafkaSourceSplit> createReader(
                SourceReader.Context context) {
            return new FaultyReader(
                    (ManagedKafkaReader) inner.createReader(context), faultId, failAt);
        }

        @Override
        public SourceSplitEnumerator<
                        KafkaSourceSplit, DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
                createEnumerator(SourceSplitEnumerator.Context<KafkaSourceSplit> context) {
            return inner.createEnumerator(context);
        }

        @Override
        public SourceSplitEnumerator<
                        KafkaSourceSplit, DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
                restoreEnumerator(
                        SourceSplitEnumerator.Context<KafkaSourceSplit> context,
                        DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> state) {
            return inner.restoreEnumerator(context, state);
        }

        @Override
        public Serializer<KafkaSourceSplit> getSplitSerializer() {
            return inner.getSplitSerializer();
        }

        @Override
        public Serializer<DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
                getEnumeratorStateSerializer() {
            return inner.getEnumeratorStateSerializer();
        }
    }

    /** The managed Kafka reader, throwing once from a poll turn at the configured row. */
    static final class FaultyReader implements ManagedSourceReader<SeaTunnelRow, KafkaSourceSplit> {
        private final ManagedKafkaReader inner;
        private final String faultId;
        private final long failAt;

        FaultyReader(ManagedKafkaReader inner, String faultId, long failAt) {
            this.inner = inner;
            this.faultId = faultId;
            this.failAt = failAt;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return inner.managedSourceCapability();
        }

        @Override
        public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
                throws Exception {
            PollStatus status = inner.pollNextManaged(new Counting(output), ctx);
            if (failAt >= 0
                    && EMITTED.computeIfAbsent(faultId, k -> new AtomicLong()).get() >= failAt
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
                EMITTED.computeIfAbsent(faultId, k -> new AtomicLong()).incrementAndGet();
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
            inner.pollNext(output);
        }

        @Override
        public List<KafkaSourceSplit> snapshotState(long checkpointId) throws Exception {
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<KafkaSourceSplit> splits) {
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
