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

import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveringSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * Assigns Kafka partitions to readers: discovers them on the coordinator scheduler's worker pool
 * (once at start, then every {@code partition-discovery.interval-millis} for an unbounded job),
 * gives each split to a fixed owner, and tells the readers of a bounded job that no more splits
 * come once the first discovery's are out. The discovery cursor is the set of partitions known so
 * far (handed out or pending), so a restore discovers only partitions created since.
 *
 * <p>Threading: as {@link DiscoveringSplitEnumerator}, which serialises every callback and result
 * on both lanes; {@link #discover} runs on the worker pool and uses only its argument and the
 * thread-safe {@link KafkaPartitionDiscovery}.
 *
 * <p>The first discovery failing (unknown topic, unreachable bootstrap servers) fails the job with
 * the cause naming the option; a later periodic discovery failing is logged and retried at the next
 * interval, without limit, as a broker outage must not end a streaming job.
 */
public final class ManagedKafkaEnumerator
        extends DiscoveringSplitEnumerator<KafkaSourceSplit, Set<TopicPartition>> {
    private final KafkaPartitionDiscovery discovery;
    private final boolean bounded;

    ManagedKafkaEnumerator(
            SourceSplitEnumerator.Context<KafkaSourceSplit> context,
            KafkaPartitionDiscovery discovery,
            boolean bounded,
            long intervalMs,
            long timeoutMs,
            DiscoveryState<KafkaSourceSplit, Set<TopicPartition>> restored) {
        super(
                context,
                restored != null
                        ? restored
                        : DiscoveryState.initial(Collections.<TopicPartition>emptySet()),
                DiscoveryConfig.builder()
                        .interval(
                                bounded || intervalMs <= 0
                                        ? DiscoveryConfig.AT_START_ONLY
                                        : intervalMs)
                        // The admin calls of one discovery each have the timeout.
                        .timeout(Duration.ofMillis(timeoutMs * 2 + 1_000))
                        .maxConsecutiveFailures(1_000_000)
                        .build());
        this.discovery = discovery;
        this.bounded = bounded;
    }

    /** Owner of a partition: stable for a given parallelism, spreads a topic's partitions. */
    static int owner(TopicPartition tp, int parallelism) {
        int n = Math.max(1, parallelism);
        int start = ((tp.topic().hashCode() * 31) & Integer.MAX_VALUE) % n;
        return (start + tp.partition()) % n;
    }

    @Override
    protected int owner(KafkaSourceSplit split, int parallelism) {
        return owner(split.getTopicPartition(), parallelism);
    }

    /** A bounded job discovers once: its splits end at the offsets the start saw. */
    @Override
    protected DiscoveryResult<KafkaSourceSplit, Set<TopicPartition>> discover(
            Set<TopicPartition> known, int budget) throws Exception {
        List<KafkaSourceSplit> found = discovery.discover(known);
        Set<TopicPartition> next = new HashSet<>(known);
        for (KafkaSourceSplit s : found) {
            next.add(s.getTopicPartition());
        }
        Set<TopicPartition> cursor = Collections.unmodifiableSet(next);
        return bounded ? DiscoveryResult.last(found, cursor) : DiscoveryResult.more(found, cursor);
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            discovery.close();
        }
    }
}
