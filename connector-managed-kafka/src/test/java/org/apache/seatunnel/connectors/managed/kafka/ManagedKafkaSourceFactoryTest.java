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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.StartMode;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.ConsumerMetadata;
import org.junit.jupiter.api.Test;

/** Planning-time option checks of {@link ManagedKafkaSourceFactory}. */
class ManagedKafkaSourceFactoryTest {

    private static Map<String, Object> valid() {
        Map<String, Object> m = new HashMap<>();
        m.put("bootstrap.servers", "127.0.0.1:9092");
        m.put("topic", "orders");
        return m;
    }

    private static String failure(Map<String, Object> options) {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new ManagedKafkaSourceFactory()
                                        .create(ReadonlyConfig.fromMap(options)));
        return e.getMessage();
    }

    @Test
    void anUnknownOptionFailsNamingIt() {
        Map<String, Object> m = valid();
        m.put("bootstrap.server", "127.0.0.1:9092");
        String message = failure(m);
        assertTrue(message.contains("[bootstrap.server]"), message);
    }

    @Test
    void aMissingBootstrapServersOptionFailsNamingIt() {
        Map<String, Object> m = valid();
        m.remove("bootstrap.servers");
        assertTrue(failure(m).contains("bootstrap.servers"));
    }

    @Test
    void topicAndTableListTogetherFailNamingThem() {
        Map<String, Object> m = valid();
        m.put("table_list", Collections.singletonList(Collections.singletonMap("topic", "x")));
        String message = failure(m);
        assertTrue(message.contains("topic") && message.contains("table_list"), message);
    }

    @Test
    void specificOffsetsWithoutOffsetsFailNamingTheMissingOption() {
        Map<String, Object> m = valid();
        m.put("start_mode", "specific_offsets");
        assertTrue(failure(m).contains("start_mode.offsets"));
    }

    @Test
    void anInvalidValueFailsNamingTheOption() {
        Map<String, Object> m = valid();
        m.put("poll.timeout", 0);
        assertTrue(failure(m).contains("poll.timeout"));
        Map<String, Object> n = valid();
        n.put("managed.discovery.timeout-ms", 10);
        assertTrue(failure(n).contains("managed.discovery.timeout-ms"));
        Map<String, Object> f = valid();
        f.put("format", "xml");
        String message = failure(f);
        assertTrue(message.contains("format") || message.contains("xml"), message);
    }

    @Test
    void theStockSourcesOptionsAreAcceptedAndTheSplitReaderNeverAutoCommits() {
        Map<String, Object> m = valid();
        m.put("consumer.group", "g");
        m.put("commit_on_checkpoint", true);
        m.put("start_mode", "latest");
        m.put("format", "text");
        m.put("field_delimiter", "|");
        m.put("format_error_handle_way", "skip");
        m.put("partition-discovery.interval-millis", 1000);
        m.put("kafka.config", Collections.singletonMap("max.poll.records", "100"));
        Map<String, Object> schema = new HashMap<>();
        Map<String, Object> fields = new HashMap<>();
        fields.put("id", "bigint");
        fields.put("name", "string");
        schema.put("fields", fields);
        m.put("schema", schema);
        m.put("plugin_name", "Kafka");
        m.put("result_table_name", "t");
        m.put("parallelism", 2);
        m.put("reader.fetch-queue.max-records", 1000);
        ManagedKafkaSource source =
                new ManagedKafkaSourceFactory().create(ReadonlyConfig.fromMap(m));
        assertEquals(
                2, source.getProducedCatalogTables().get(0).getSeaTunnelRowType().getTotalFields());
        // The split reader's consumer takes enable.auto.commit from commit_on_checkpoint.
        assertFalse(source.fetchConfig().isCommitOnCheckpoint());
        for (ConsumerMetadata md : source.fetchConfig().getMapMetadata().values()) {
            assertEquals(StartMode.SPECIFIC_OFFSETS, md.getStartMode());
        }
    }
}
