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
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a reader's offsets to Kafka's consumer group after a checkpoint completed, on a thread of
 * its own with a consumer used for nothing else (auto-commit off), so neither the reader loop nor
 * the fetch thread ever waits for the group coordinator.
 *
 * <p>Threading: {@link #commit} and {@link #close} may be called from any thread; the commit thread
 * (started on the first commit) alone touches the consumer. Offers never block: the slot holds one
 * request and a newer one replaces it (its offsets are the later checkpoint's, so the older one is
 * redundant), which bounds the backlog at one.
 */
final class KafkaOffsetCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaOffsetCommitter.class);

    /** An idle commit thread re-checks its state this often even without a signal. */
    private static final long IDLE_WAIT_MS = 1_000;

    private final KafkaSourceConfig config;
    private final int subtask;
    private final long timeoutMs;
    private final long closeTimeoutNanos;
    private final Counter commits;
    private final Counter failures;
    private final Counter superseded;

    private final Object lock = new Object();
    // guarded by lock
    private Map<TopicPartition, OffsetAndMetadata> next;
    private long nextCheckpoint;
    private Thread thread;
    private boolean closed;

    KafkaOffsetCommitter(
            KafkaSourceConfig config,
            int subtask,
            long timeoutMs,
            long closeTimeoutNanos,
            Counter commits,
            Counter failures,
            Counter superseded) {
        this.config = config;
        this.subtask = subtask;
        this.timeoutMs = timeoutMs;
        this.closeTimeoutNanos = closeTimeoutNanos;
        this.commits = commits;
        this.failures = failures;
        this.superseded = superseded;
    }

    /** Hands the offsets of completed checkpoint {@code checkpointId} to the commit thread. */
    void commit(long checkpointId, Map<TopicPartition, OffsetAndMetadata> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        synchronized (lock) {
            if (closed) {
                return;
            }
            if (next != null) {
                superseded.inc();
                Map<TopicPartition, OffsetAndMetadata> merged = new HashMap<>(next);
                merged.putAll(offsets);
                next = merged;
            } else {
                next = new HashMap<>(offsets);
            }
            nextCheckpoint = checkpointId;
            if (thread == null) {
                thread = new Thread(this::run, "managed-kafka-committer-" + subtask);
                thread.setDaemon(true);
                thread.setContextClassLoader(KafkaOffsetCommitter.class.getClassLoader());
                thread.start();
            }
            lock.notifyAll();
        }
    }

    private void run() {
        try (KafkaConsumer<byte[], byte[]> consumer = newConsumer()) {
            for (; ; ) {
                Map<TopicPartition, OffsetAndMetadata> offsets;
                long checkpoint;
                synchronized (lock) {
                    while (next == null && !closed) {
                        lock.wait(IDLE_WAIT_MS);
                    }
                    if (next == null) {
                        return;
                    }
                    offsets = next;
                    checkpoint = nextCheckpoint;
                    next = null;
                }
                try {
                    consumer.commitSync(offsets, Duration.ofMillis(timeoutMs));
                    commits.inc();
                    LOG.debug(
                            "Committed {} partition offsets of checkpoint {}",
                            offsets.size(),
                            checkpoint);
                } catch (RuntimeException e) {
                    failures.inc();
                    LOG.warn(
                            "Committing Kafka offsets of checkpoint {} failed; the next completed"
                                    + " checkpoint commits newer ones",
                            checkpoint,
                            e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.inc();
            LOG.warn("The Kafka offset committer of subtask {} stopped", subtask, e);
        } finally {
            synchronized (lock) {
                // A thread that died (e.g. the consumer could not be created) is started anew by
                // the next commit.
                if (thread == Thread.currentThread()) {
                    thread = null;
                }
            }
        }
    }

    private KafkaConsumer<byte[], byte[]> newConsumer() {
        Properties props = new Properties();
        config.getProperties()
                .forEach((k, v) -> props.setProperty(String.valueOf(k), String.valueOf(v)));
        props.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.getBootstrap());
        props.setProperty(ConsumerConfig.GROUP_ID_CONFIG, config.getConsumerGroup());
        props.setProperty(
                ConsumerConfig.CLIENT_ID_CONFIG, "seatunnel-managed-committer-" + subtask);
        props.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.setProperty(
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName());
        props.setProperty(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(props);
    }

    /**
     * Stops the thread after the pending commit (if any) ran — the offsets of the last completed
     * checkpoint reach Kafka also when the job ends right after it (a savepoint) — waiting up to
     * the close timeout, then interrupting it. Later commits are ignored.
     */
    void close() {
        Thread t;
        synchronized (lock) {
            closed = true;
            t = thread;
            lock.notifyAll();
        }
        if (t == null) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.timedJoin(t, closeTimeoutNanos);
            if (t.isAlive()) {
                t.interrupt();
                TimeUnit.NANOSECONDS.timedJoin(t, closeTimeoutNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
