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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.adapter.ConnectorCommonReaderAdapter;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaPartitionSplitReader;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaRecordEmitter;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceConfig;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplitState;

/**
 * The Kafka reader on the managed reader base: the stock {@link KafkaPartitionSplitReader} fetches
 * on the base's fetch thread, the stock {@link KafkaRecordEmitter} deserializes and advances the
 * split's offset on the reader loop, and the offsets a checkpoint holds are committed to Kafka once
 * that checkpoint completed — never earlier, and never by the consumer's auto-commit.
 *
 * <p>Threading: as {@link ConnectorCommonReaderAdapter}. The offsets waiting for their checkpoint
 * are guarded by this object's monitor, since on Lane B the snapshot (checkpoint thread) and the
 * completion (operation thread) arrive on different threads; the commit itself runs on the {@link
 * KafkaOffsetCommitter}'s thread.
 */
public final class ManagedKafkaReader
        extends ConnectorCommonReaderAdapter<
                ConsumerRecord<byte[], byte[]>,
                SeaTunnelRow,
                KafkaSourceSplit,
                KafkaSourceSplitState> {
    static final String OFFSET_COMMITS = "ManagedKafkaOffsetCommits";
    static final String OFFSET_COMMIT_FAILURES = "ManagedKafkaOffsetCommitFailures";
    static final String OFFSET_COMMITS_SUPERSEDED = "ManagedKafkaOffsetCommitsSuperseded";
    static final String PENDING_COMMITS_DROPPED = "ManagedKafkaPendingCommitsDropped";
    static final String RECORDS_SKIPPED = "ManagedKafkaRecordsSkipped";

    private final boolean commitOnCheckpoint;
    private final int maxPendingCheckpoints;
    private final KafkaOffsetCommitter committer;
    private final Counter pendingDropped;

    // guarded by this
    private final TreeMap<Long, Map<TopicPartition, OffsetAndMetadata>> pendingCommits =
            new TreeMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> finishedOffsets = new HashMap<>();

    ManagedKafkaReader(
            SourceReader.Context context,
            ManagedReaderConfig config,
            KafkaSourceConfig fetchConfig,
            KafkaSourceConfig userConfig,
            ManagedKafkaOptions.Values managed) {
        super(
                context,
                config,
                () ->
                        new WakeupSafeSplitReader(
                                new KafkaPartitionSplitReader(fetchConfig, context)),
                new SkippingRecordEmitter(
                        new KafkaRecordEmitter(
                                fetchConfig.getMapMetadata(),
                                fetchConfig.getMessageFormatErrorHandleWay()),
                        userConfig.getMessageFormatErrorHandleWay(),
                        counter(context.getMetricsContext(), RECORDS_SKIPPED)),
                ManagedKafkaReader::estimatedBytes);
        MetricsContext metrics = context.getMetricsContext();
        this.commitOnCheckpoint = userConfig.isCommitOnCheckpoint();
        this.maxPendingCheckpoints = managed.maxPendingCheckpoints;
        this.pendingDropped = counter(metrics, PENDING_COMMITS_DROPPED);
        this.committer =
                new KafkaOffsetCommitter(
                        fetchConfig,
                        context.getIndexOfSubtask(),
                        managed.commitTimeoutMs,
                        config.closeTimeoutNanos(),
                        counter(metrics, OFFSET_COMMITS),
                        counter(metrics, OFFSET_COMMIT_FAILURES),
                        counter(metrics, OFFSET_COMMITS_SUPERSEDED));
    }

    private static long estimatedBytes(ConsumerRecord<byte[], byte[]> r) {
        return 32L + Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
    }

    private static Counter counter(MetricsContext metrics, String name) {
        return metrics == null ? new ThreadSafeCounter(name) : metrics.counter(name);
    }

    @Override
    protected KafkaSourceSplitState initialState(KafkaSourceSplit split) {
        return new KafkaSourceSplitState(split);
    }

    @Override
    protected KafkaSourceSplit toSplit(String splitId, KafkaSourceSplitState state) {
        return state.toKafkaSourceSplit();
    }

    @Override
    protected void onSplitsFinished(Map<String, KafkaSourceSplitState> finished) {
        synchronized (this) {
            for (KafkaSourceSplitState s : finished.values()) {
                if (s.getCurrentOffset() >= 0) {
                    finishedOffsets.put(
                            s.getTopicPartition(), new OffsetAndMetadata(s.getCurrentOffset()));
                }
            }
        }
    }

    /** The split positions; with commit-on-checkpoint, also remembers them as this id's offsets. */
    @Override
    public List<KafkaSourceSplit> snapshotState(long checkpointId) {
        List<KafkaSourceSplit> splits = super.snapshotState(checkpointId);
        if (!commitOnCheckpoint) {
            return splits;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (KafkaSourceSplit s : splits) {
            if (s.getStartOffset() >= 0) {
                offsets.put(s.getTopicPartition(), new OffsetAndMetadata(s.getStartOffset()));
            }
        }
        synchronized (this) {
            offsets.putAll(finishedOffsets);
            pendingCommits.put(checkpointId, offsets);
            while (pendingCommits.size() > maxPendingCheckpoints) {
                pendingCommits.pollFirstEntry();
                pendingDropped.inc();
            }
        }
        return splits;
    }

    /**
     * Commits the offsets of the completed checkpoint's snapshot (and forgets older snapshots). A
     * repeated or unknown id (after a restore the engine notifies the restored checkpoint again)
     * commits nothing.
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (!commitOnCheckpoint) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets;
        synchronized (this) {
            offsets = pendingCommits.get(checkpointId);
            if (offsets == null) {
                return;
            }
            pendingCommits.headMap(checkpointId, true).clear();
        }
        committer.commit(checkpointId, offsets);
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            committer.close();
        }
    }
}
