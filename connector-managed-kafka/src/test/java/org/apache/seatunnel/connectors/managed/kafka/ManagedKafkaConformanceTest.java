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
import org.apache.kafka.common.TopicPartition;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;
import org.apache.seatunnel.managed.testkit.conformance.ManagedReaderConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The managed Kafka reader passes every rule of the conformance suite, reading fixture splits of a
 * real broker's topic (3 partitions, bounded by end offsets, one starting mid-partition).
 */
class ManagedKafkaConformanceTest
        extends ManagedReaderConformanceSuite<SeaTunnelRow, KafkaSourceSplit> {
    private static final String TOPIC = "conformance";
    private static final int[] RECORDS = {700, 300, 1000};
    private static KafkaTestBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, RECORDS.length);
        for (int p = 0; p < RECORDS.length; p++) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < RECORDS[p]; i++) {
                values.add(TOPIC + "/" + p + "/" + i);
            }
            broker.produce(TOPIC, p, values);
        }
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Override
    protected SeaTunnelSource<SeaTunnelRow, KafkaSourceSplit, ?> createSource() {
        Map<String, Object> options = new HashMap<>();
        options.put("bootstrap.servers", broker.bootstrap());
        options.put("topic", TOPIC);
        options.put("start_mode", "earliest");
        options.put("poll.timeout", 100);
        options.put("consumer.group", "conformance");
        return new ManagedKafkaSourceFactory().create(ReadonlyConfig.fromMap(options));
    }

    @Override
    protected List<KafkaSourceSplit> fixtureSplits() {
        List<KafkaSourceSplit> splits = new ArrayList<>();
        TablePath path = TablePath.of(TOPIC);
        splits.add(new KafkaSourceSplit(path, new TopicPartition(TOPIC, 0), 0, RECORDS[0]));
        splits.add(new KafkaSourceSplit(path, new TopicPartition(TOPIC, 1), 0, RECORDS[1]));
        splits.add(new KafkaSourceSplit(path, new TopicPartition(TOPIC, 2), 50, RECORDS[2]));
        return splits;
    }
}
