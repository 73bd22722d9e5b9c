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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.Meter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.common.metrics.ThreadSafeQPSMeter;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;
import org.junit.jupiter.api.Test;

/**
 * The reader's offsets-per-checkpoint map and its commits, without a broker (bootstrap points at a
 * closed port, so a commit fails after {@code managed.commit.timeout-ms}).
 */
class ManagedKafkaReaderTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);

    private static ManagedKafkaReader reader(Ctx ctx, boolean commitOnCheckpoint) {
        Map<String, Object> m = new HashMap<>();
        m.put("bootstrap.servers", "127.0.0.1:1");
        m.put("topic", "orders");
        m.put("commit_on_checkpoint", commitOnCheckpoint);
        m.put("managed.commit.max-pending-checkpoints", 3);
        m.put("managed.commit.timeout-ms", 200);
        ManagedKafkaSource source =
                new ManagedKafkaSourceFactory().create(ReadonlyConfig.fromMap(m));
        return (ManagedKafkaReader) source.createReader(ctx);
    }

    private static boolean committerAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("managed-kafka-committer-") && t.isAlive());
    }

    @Test
    void snapshotsWaitingForTheirCheckpointAreBoundedAndOnlyACompletedOneIsCommitted()
            throws Exception {
        Ctx ctx = new Ctx();
        ManagedKafkaReader reader = reader(ctx, true);
        try {
            reader.addSplits(
                    Collections.singletonList(
                            new KafkaSourceSplit(TablePath.of("orders"), TP, 5, Long.MAX_VALUE)));
            for (long id = 1; id <= 5; id++) {
                assertEquals(5, reader.snapshotState(id).get(0).getStartOffset());
            }
            // Max 3 pending: checkpoints 1 and 2 were dropped.
            assertEquals(2, ctx.metric(ManagedKafkaReader.PENDING_COMMITS_DROPPED));
            reader.notifyCheckpointComplete(2);
            assertFalse(committerAlive(), "a dropped checkpoint commits nothing");
            reader.notifyCheckpointComplete(4);
            // The commit goes to a closed port and fails within managed.commit.timeout-ms.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> ctx.metric(ManagedKafkaReader.OFFSET_COMMIT_FAILURES) == 1);
            assertEquals(0, ctx.metric(ManagedKafkaReader.OFFSET_COMMITS));
        } finally {
            reader.close();
        }
        assertFalse(committerAlive(), "close stops the committer");
    }

    @Test
    void withoutCommitOnCheckpointNothingIsCommitted() throws Exception {
        Ctx ctx = new Ctx();
        ManagedKafkaReader reader = reader(ctx, false);
        try {
            reader.addSplits(
                    Collections.singletonList(
                            new KafkaSourceSplit(TablePath.of("orders"), TP, 5, Long.MAX_VALUE)));
            reader.snapshotState(1);
            reader.notifyCheckpointComplete(1);
            assertFalse(committerAlive());
        } finally {
            reader.close();
        }
    }

    /** A reader context recording its counters. */
    static final class Ctx implements SourceReader.Context {
        final Map<String, Counter> counters = new ConcurrentHashMap<>();

        long metric(String name) {
            Counter c = counters.get(name);
            return c == null ? 0 : c.getCount();
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.UNBOUNDED;
        }

        @Override
        public void signalNoMoreElement() {}

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToEnumerator(SourceEvent event) {}

        @Override
        public MetricsContext getMetricsContext() {
            return new MetricsContext() {
                @Override
                public Counter counter(String name) {
                    return counter(name, new ThreadSafeCounter(name));
                }

                @Override
                public <C extends Counter> C counter(String name, C counter) {
                    counters.put(name, counter);
                    return counter;
                }

                @Override
                public Meter meter(String name) {
                    return new ThreadSafeQPSMeter(name);
                }

                @Override
                public <M extends Meter> M meter(String name, M meter) {
                    return meter;
                }
            };
        }

        @Override
        public EventListener getEventListener() {
            return event -> {};
        }
    }
}
