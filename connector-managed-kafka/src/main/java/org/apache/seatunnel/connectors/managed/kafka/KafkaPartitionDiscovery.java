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
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.Config;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.StartMode;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.ConsumerMetadata;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceConfig;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The blocking metadata work of partition discovery: which partitions the configured topics (or
 * patterns) have, and for each new one a split with concrete start and end offsets. Start offsets
 * are resolved here from the start mode once, so a split's position is always an offset and a
 * restored split resumes exactly where its checkpoint says.
 *
 * <p>Threading: {@link #discover} runs on the coordinator scheduler's worker pool, one call at a
 * time (the enumerator's task key coalesces); {@link #close} from the enumerator. The admin client
 * is thread-safe.
 */
final class KafkaPartitionDiscovery implements AutoCloseable {
    /** The end offset of an unbounded split: read forever. */
    static final long UNBOUNDED_END = Long.MAX_VALUE;

    private final KafkaSourceConfig config;
    private final boolean bounded;
    private final long timeoutMs;
    private final Object lock = new Object();
    // guarded by lock
    private AdminClient admin;
    private boolean closed;

    KafkaPartitionDiscovery(KafkaSourceConfig config, boolean bounded, long timeoutMs) {
        this.config = config;
        this.bounded = bounded;
        this.timeoutMs = timeoutMs;
    }

    /** The splits of partitions not in {@code known}, with resolved offsets. */
    List<KafkaSourceSplit> discover(Set<TopicPartition> known) throws Exception {
        AdminClient client = admin();
        Map<TopicPartition, TablePath> fresh = new HashMap<>();
        for (Map.Entry<TablePath, ConsumerMetadata> e : config.getMapMetadata().entrySet()) {
            for (TopicPartition tp : partitions(client, e.getValue())) {
                if (!known.contains(tp)) {
                    fresh.put(tp, e.getKey());
                }
            }
        }
        if (fresh.isEmpty()) {
            return new ArrayList<>();
        }
        Map<TopicPartition, Long> ends =
                bounded ? offsets(client, fresh.keySet(), OffsetSpec.latest()) : null;
        Map<TopicPartition, Long> starts = new HashMap<>();
        for (Map.Entry<TablePath, ConsumerMetadata> e : config.getMapMetadata().entrySet()) {
            Set<TopicPartition> mine = new HashSet<>();
            for (Map.Entry<TopicPartition, TablePath> f : fresh.entrySet()) {
                if (f.getValue().equals(e.getKey())) {
                    mine.add(f.getKey());
                }
            }
            if (!mine.isEmpty()) {
                starts.putAll(startOffsets(client, e.getValue(), mine));
            }
        }
        List<KafkaSourceSplit> splits = new ArrayList<>(fresh.size());
        for (Map.Entry<TopicPartition, TablePath> f : fresh.entrySet()) {
            TopicPartition tp = f.getKey();
            long end = bounded ? ends.get(tp) : UNBOUNDED_END;
            long start = Math.min(starts.get(tp), end);
            splits.add(new KafkaSourceSplit(f.getValue(), tp, start, end));
        }
        return splits;
    }

    private List<TopicPartition> partitions(AdminClient client, ConsumerMetadata metadata)
            throws Exception {
        Collection<String> topics;
        if (metadata.isPattern()) {
            Pattern pattern = Pattern.compile(metadata.getTopic());
            topics = new ArrayList<>();
            for (String t : await(client.listTopics(listTopics()).names(), "list topics")) {
                if (pattern.matcher(t).matches()) {
                    topics.add(t);
                }
            }
        } else {
            topics = new ArrayList<>();
            for (String t : Arrays.asList(metadata.getTopic().split(","))) {
                if (!t.trim().isEmpty()) {
                    topics.add(t.trim());
                }
            }
        }
        List<TopicPartition> out = new ArrayList<>();
        if (topics.isEmpty()) {
            return out;
        }
        Map<String, TopicDescription> described;
        try {
            described =
                    await(
                            client.describeTopics(topics, describeTopics()).allTopicNames(),
                            "describe topics " + topics);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException(
                        "Kafka topic(s) "
                                + topics
                                + " of option '"
                                + Config.TOPIC.key()
                                + "' do not exist at "
                                + Config.BOOTSTRAP_SERVERS.key()
                                + "="
                                + config.getBootstrap(),
                        e.getCause());
            }
            throw e;
        }
        for (TopicDescription d : described.values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                out.add(new TopicPartition(d.name(), p.partition()));
            }
        }
        return out;
    }

    private Map<TopicPartition, Long> startOffsets(
            AdminClient client, ConsumerMetadata metadata, Set<TopicPartition> partitions)
            throws Exception {
        StartMode mode = metadata.getStartMode();
        switch (mode) {
            case EARLIEST:
                return offsets(client, partitions, OffsetSpec.earliest());
            case LATEST:
                return offsets(client, partitions, OffsetSpec.latest());
            case TIMESTAMP:
                {
                    Map<TopicPartition, Long> byTime =
                            offsets(
                                    client,
                                    partitions,
                                    OffsetSpec.forTimestamp(metadata.getStartOffsetsTimestamp()));
                    return fillMissing(client, partitions, byTime, OffsetSpec.latest());
                }
            case SPECIFIC_OFFSETS:
                {
                    Map<TopicPartition, Long> given = new HashMap<>();
                    for (TopicPartition tp : partitions) {
                        Long o = metadata.getSpecificStartOffsets().get(tp);
                        if (o != null && o >= 0) {
                            given.put(tp, o);
                        }
                    }
                    return fillMissing(client, partitions, given, OffsetSpec.earliest());
                }
            case GROUP_OFFSETS:
            default:
                {
                    Map<TopicPartition, Long> committed = groupOffsets(client, partitions);
                    String reset =
                            String.valueOf(
                                    config.getProperties()
                                            .getOrDefault(
                                                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                                    "latest"));
                    if ("none".equalsIgnoreCase(reset) && committed.size() < partitions.size()) {
                        throw new IllegalStateException(
                                "consumer group '"
                                        + config.getConsumerGroup()
                                        + "' has no committed offset for some partitions and"
                                        + " kafka.config.auto.offset.reset is none");
                    }
                    return fillMissing(
                            client,
                            partitions,
                            committed,
                            "earliest".equalsIgnoreCase(reset)
                                    ? OffsetSpec.earliest()
                                    : OffsetSpec.latest());
                }
        }
    }

    private Map<TopicPartition, Long> fillMissing(
            AdminClient client,
            Set<TopicPartition> partitions,
            Map<TopicPartition, Long> known,
            OffsetSpec fallback)
            throws Exception {
        Set<TopicPartition> missing = new HashSet<>(partitions);
        missing.removeAll(known.keySet());
        Map<TopicPartition, Long> out = new HashMap<>(known);
        if (!missing.isEmpty()) {
            out.putAll(offsets(client, missing, fallback));
        }
        return out;
    }

    private Map<TopicPartition, Long> offsets(
            AdminClient client, Set<TopicPartition> partitions, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (TopicPartition tp : partitions) {
            request.put(tp, spec);
        }
        ListOffsetsOptions options = new ListOffsetsOptions();
        options.timeoutMs(intTimeout());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                await(client.listOffsets(request, options).all(), "list offsets");
        Map<TopicPartition, Long> out = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e :
                result.entrySet()) {
            // A timestamp after the last record has no offset (-1): fillMissing takes the end.
            if (e.getValue() != null && e.getValue().offset() >= 0) {
                out.put(e.getKey(), e.getValue().offset());
            }
        }
        return out;
    }

    private Map<TopicPartition, Long> groupOffsets(
            AdminClient client, Set<TopicPartition> partitions) throws Exception {
        ListConsumerGroupOffsetsOptions options =
                new ListConsumerGroupOffsetsOptions().topicPartitions(new ArrayList<>(partitions));
        options.timeoutMs(intTimeout());
        Map<TopicPartition, OffsetAndMetadata> committed =
                await(
                        client.listConsumerGroupOffsets(config.getConsumerGroup(), options)
                                .partitionsToOffsetAndMetadata(),
                        "list consumer group offsets");
        Map<TopicPartition, Long> out = new HashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
            if (e.getValue() != null && partitions.contains(e.getKey())) {
                out.put(e.getKey(), e.getValue().offset());
            }
        }
        return out;
    }

    private ListTopicsOptions listTopics() {
        ListTopicsOptions o = new ListTopicsOptions();
        o.timeoutMs(intTimeout());
        return o;
    }

    private DescribeTopicsOptions describeTopics() {
        DescribeTopicsOptions o = new DescribeTopicsOptions();
        o.timeoutMs(intTimeout());
        return o;
    }

    private int intTimeout() {
        return (int) Math.min(Integer.MAX_VALUE, timeoutMs);
    }

    private <V> V await(org.apache.kafka.common.KafkaFuture<V> future, String what)
            throws Exception {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(timeoutMessage(what), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw new IllegalStateException(timeoutMessage(what), e.getCause());
            }
            throw e;
        }
    }

    private String timeoutMessage(String what) {
        return "Kafka at "
                + Config.BOOTSTRAP_SERVERS.key()
                + "="
                + config.getBootstrap()
                + " did not answer '"
                + what
                + "' within "
                + ManagedKafkaOptions.DISCOVERY_TIMEOUT_MS.key()
                + "="
                + timeoutMs;
    }

    private AdminClient admin() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("partition discovery is closed");
            }
            if (admin == null) {
                Properties props = new Properties();
                props.putAll(config.getProperties());
                props.setProperty(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.getBootstrap());
                props.setProperty(
                        AdminClientConfig.CLIENT_ID_CONFIG,
                        "seatunnel-managed-enumerator-admin-" + config.getConsumerGroup());
                props.setProperty(
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        String.valueOf(intTimeout()));
                props.setProperty(
                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(intTimeout()));
                // Consumer-only keys in kafka.config would only make the admin client warn.
                props.remove(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
                props.remove(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
                try {
                    admin = AdminClient.create(props);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            "cannot create a Kafka client for "
                                    + Config.BOOTSTRAP_SERVERS.key()
                                    + "="
                                    + config.getBootstrap()
                                    + ": "
                                    + rootMessage(e),
                            e);
                }
            }
            return admin;
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    @Override
    public void close() {
        AdminClient a;
        synchronized (lock) {
            closed = true;
            a = admin;
            admin = null;
        }
        if (a != null) {
            a.close(java.time.Duration.ofMillis(Math.min(timeoutMs, 5_000)));
        }
    }
}
