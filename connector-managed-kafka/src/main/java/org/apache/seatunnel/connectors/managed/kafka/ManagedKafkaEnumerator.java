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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assigns Kafka partitions to readers: discovers them on the coordinator scheduler's worker pool
 * (once at start, then every {@code partition-discovery.interval-millis} for an unbounded job),
 * gives each split to a fixed owner once that reader registered, and tells the readers of a bounded
 * job that no more splits come once the first discovery is assigned. It starts no thread: discovery
 * is {@link ManagedEnumeratorContext#scheduler()} work.
 *
 * <p>Threading: on Lane A every callback and every discovery result runs on the coordinator loop.
 * On Lane B the engine's callbacks arrive on several threads and results on the context's scheduler
 * thread, so all state is guarded by {@code lock}; the context is only called under it.
 *
 * <p>The first discovery failing (unknown topic, unreachable bootstrap servers) fails the job with
 * the cause naming the option; a later periodic discovery failing is logged and retried at the next
 * interval.
 */
public final class ManagedKafkaEnumerator
        implements SourceSplitEnumerator<KafkaSourceSplit, KafkaEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(ManagedKafkaEnumerator.class);
    private static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("kafka-partition-discovery");
    private static final AsyncTaskKey PERIODIC = AsyncTaskKey.of("kafka-partition-discovery-tick");

    private final ManagedEnumeratorContext<KafkaSourceSplit> context;
    // Lane B: the engine handed its own context; there is no coordinator to fail.
    private final boolean stockEngine;
    private final KafkaPartitionDiscovery discovery;
    private final boolean bounded;
    private final long intervalMs;
    private final long timeoutMs;

    private final Object lock = new Object();
    // guarded by lock
    private final Set<TopicPartition> assigned = new HashSet<>();
    private final Map<TopicPartition, KafkaSourceSplit> pending = new LinkedHashMap<>();
    private final Set<Integer> registered = new HashSet<>();
    private boolean firstDiscoveryDone;
    private boolean closed;

    ManagedKafkaEnumerator(
            SourceSplitEnumerator.Context<KafkaSourceSplit> context,
            KafkaPartitionDiscovery discovery,
            boolean bounded,
            long intervalMs,
            long timeoutMs,
            KafkaEnumeratorState restored) {
        this.stockEngine = !(context instanceof ManagedEnumeratorContext);
        this.context = ManagedEnumeratorContext.of(context);
        this.discovery = discovery;
        this.bounded = bounded;
        this.intervalMs = intervalMs;
        this.timeoutMs = timeoutMs;
        if (restored != null) {
            assigned.addAll(restored.assigned());
            for (KafkaSourceSplit s : restored.pending()) {
                pending.put(s.getTopicPartition(), s);
            }
        }
    }

    /** Owner of a partition: stable for a given parallelism, spreads a topic's partitions. */
    static int owner(TopicPartition tp, int parallelism) {
        int n = Math.max(1, parallelism);
        int start = ((tp.topic().hashCode() * 31) & Integer.MAX_VALUE) % n;
        return (start + tp.partition()) % n;
    }

    @Override
    public void open() {}

    /**
     * Starts the first discovery and returns at once (the engine needs {@code run} to return). On
     * Lane B, where no coordinator can be failed later, the first discovery runs here instead, as
     * the stock enumerator's does, so that its failure fails the job.
     */
    @Override
    public void run() throws Exception {
        LOG.info(
                "Kafka partition discovery runs {}",
                stockEngine ? "in run() (Lane B)" : "on the coordinator scheduler (Lane A)");
        if (stockEngine) {
            Set<TopicPartition> known;
            synchronized (lock) {
                known = new HashSet<>(assigned);
                known.addAll(pending.keySet());
            }
            onDiscovered(true, discovery.discover(known), null);
        }
        synchronized (lock) {
            if (!stockEngine) {
                discover(true);
            }
            if (!bounded && intervalMs > 0) {
                context.scheduler()
                        .scheduleInCoordinatorThread(
                                PERIODIC, Duration.ofMillis(intervalMs), this::periodicDiscovery);
            }
        }
    }

    private void periodicDiscovery() {
        synchronized (lock) {
            if (!closed) {
                discover(false);
            }
        }
    }

    /** Under lock. */
    private void discover(boolean first) {
        Set<TopicPartition> known = new HashSet<>(assigned);
        known.addAll(pending.keySet());
        AsyncTaskOptions options =
                AsyncTaskOptions.builder()
                        .timeout(Duration.ofMillis(timeoutMs * 2 + 1_000))
                        .failurePolicy(
                                first
                                        ? AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR
                                        : AsyncTaskOptions.FailurePolicy.DELIVER_TO_HANDLER)
                        .build();
        context.scheduler()
                .callAsync(
                        DISCOVER,
                        () -> discovery.discover(known),
                        (splits, error) -> onDiscovered(first, splits, error),
                        options);
    }

    private void onDiscovered(boolean first, List<KafkaSourceSplit> splits, Throwable error) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            if (error != null) {
                if (first) {
                    // FAIL_COORDINATOR has failed the job already.
                    LOG.error("First Kafka partition discovery failed", error);
                } else {
                    LOG.warn("Kafka partition discovery failed; retrying next interval", error);
                }
                return;
            }
            int added = 0;
            for (KafkaSourceSplit s : splits) {
                if (!assigned.contains(s.getTopicPartition())
                        && !pending.containsKey(s.getTopicPartition())) {
                    pending.put(s.getTopicPartition(), s);
                    added++;
                }
            }
            if (added > 0 || first) {
                LOG.info(
                        "Kafka partition discovery found {} new partition(s); {} assigned before",
                        added,
                        assigned.size());
            }
            firstDiscoveryDone = true;
            for (int subtask : new ArrayList<>(registered)) {
                assignPendingTo(subtask);
                if (bounded) {
                    context.signalNoMoreSplits(subtask);
                }
            }
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        synchronized (lock) {
            registered.add(subtaskId);
            if (firstDiscoveryDone) {
                assignPendingTo(subtaskId);
                if (bounded) {
                    context.signalNoMoreSplits(subtaskId);
                }
            }
        }
    }

    /** Splits of a failed reader (or restored reader state) go to their owner again. */
    @Override
    public void addSplitsBack(List<KafkaSourceSplit> splits, int subtaskId) {
        synchronized (lock) {
            for (KafkaSourceSplit s : splits) {
                assigned.remove(s.getTopicPartition());
                pending.put(s.getTopicPartition(), s);
            }
            if (registered.contains(subtaskId)) {
                assignPendingTo(subtaskId);
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        // Splits are pushed on registration and discovery.
    }

    @Override
    public KafkaEnumeratorState snapshotState(long checkpointId) {
        synchronized (lock) {
            return new KafkaEnumeratorState(
                    new ArrayList<>(assigned), new ArrayList<>(pending.values()));
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        try {
            context.close();
        } finally {
            discovery.close();
        }
    }

    /** Under lock. Removes the splits first and puts them back if the delivery fails. */
    private void assignPendingTo(int subtaskId) {
        int parallelism = context.currentParallelism();
        List<KafkaSourceSplit> mine = new ArrayList<>();
        for (Iterator<KafkaSourceSplit> it = pending.values().iterator(); it.hasNext(); ) {
            KafkaSourceSplit s = it.next();
            if (owner(s.getTopicPartition(), parallelism) == subtaskId) {
                mine.add(s);
                it.remove();
            }
        }
        if (mine.isEmpty()) {
            return;
        }
        try {
            context.assignSplit(subtaskId, mine);
        } catch (RuntimeException e) {
            for (KafkaSourceSplit s : mine) {
                pending.put(s.getTopicPartition(), s);
            }
            throw e;
        }
        for (KafkaSourceSplit s : mine) {
            assigned.add(s.getTopicPartition());
        }
    }
}
