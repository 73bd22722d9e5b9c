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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
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
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.Config;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.StartMode;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.ConsumerMetadata;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceConfig;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The managed Kafka source: produces what the stock {@code Kafka} source produces from the same
 * options, bounded in a {@code BATCH} job (each partition up to its end offset when discovered) and
 * unbounded in a {@code STREAMING} job. Runs on both lanes.
 *
 * <p>The split reader gets a copy of the user's configuration in which every topic starts from the
 * split's own offset and {@code commit_on_checkpoint} is off: the stock reader would otherwise seek
 * to the start mode again on every restore and switch the consumer's auto-commit on.
 *
 * <p>Threading: immutable after planning apart from the job context the engine sets once.
 */
public final class ManagedKafkaSource
        implements SeaTunnelSource<
                        SeaTunnelRow,
                        KafkaSourceSplit,
                        DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    private final KafkaSourceConfig userConfig;
    private final KafkaSourceConfig fetchConfig;
    private final ManagedReaderConfig readerConfig;
    private final ManagedKafkaOptions.Values managed;
    private JobContext jobContext;

    ManagedKafkaSource(
            ReadonlyConfig options,
            KafkaSourceConfig userConfig,
            ManagedReaderConfig readerConfig,
            ManagedKafkaOptions.Values managed) {
        this.userConfig = userConfig;
        this.fetchConfig = fetchConfig(options);
        this.readerConfig = readerConfig;
        this.managed = managed;
    }

    private static KafkaSourceConfig fetchConfig(ReadonlyConfig options) {
        Map<String, Object> copy = new HashMap<>(options.getSourceMap());
        copy.put(Config.COMMIT_ON_CHECKPOINT.key(), false);
        KafkaSourceConfig config = new KafkaSourceConfig(ReadonlyConfig.fromMap(copy));
        for (ConsumerMetadata m : config.getMapMetadata().values()) {
            // Every split carries a resolved start offset (see KafkaPartitionDiscovery).
            m.setStartMode(StartMode.SPECIFIC_OFFSETS);
        }
        return config;
    }

    /** The configuration the split reader and emitter use (see the class comment). */
    KafkaSourceConfig fetchConfig() {
        return fetchConfig;
    }

    @Override
    public String getPluginName() {
        return ManagedKafkaSourceFactory.IDENTIFIER;
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
        List<CatalogTable> tables = new ArrayList<>();
        for (ConsumerMetadata m : userConfig.getMapMetadata().values()) {
            tables.add(m.getCatalogTable());
        }
        return tables;
    }

    @Override
    public SourceReader<SeaTunnelRow, KafkaSourceSplit> createReader(SourceReader.Context context) {
        return new ManagedKafkaReader(context, readerConfig, fetchConfig, userConfig, managed);
    }

    @Override
    public SourceSplitEnumerator<
                    KafkaSourceSplit, DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
            createEnumerator(SourceSplitEnumerator.Context<KafkaSourceSplit> context) {
        return restoreEnumerator(context, null);
    }

    @Override
    public SourceSplitEnumerator<
                    KafkaSourceSplit, DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<KafkaSourceSplit> context,
                    DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> state) {
        boolean bounded = getBoundedness() == Boundedness.BOUNDED;
        return new ManagedKafkaEnumerator(
                context,
                new KafkaPartitionDiscovery(userConfig, bounded, managed.discoveryTimeoutMs),
                bounded,
                userConfig.getDiscoveryIntervalMillis(),
                managed.discoveryTimeoutMs,
                state);
    }

    @Override
    public Serializer<KafkaSourceSplit> getSplitSerializer() {
        return new KafkaSplitSerializer();
    }

    @Override
    public Serializer<DiscoveryState<KafkaSourceSplit, Set<TopicPartition>>>
            getEnumeratorStateSerializer() {
        return new KafkaEnumeratorState.Serializer();
    }
}
