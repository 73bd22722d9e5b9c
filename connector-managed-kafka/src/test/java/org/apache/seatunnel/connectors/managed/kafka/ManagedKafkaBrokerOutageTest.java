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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RowAccounting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Slow (about 30 s): the broker stops for 10 s while a Lane A streaming job runs; the job keeps
 * running and, once the broker is back, reads on with nothing lost or duplicated. Runs with {@code
 * -Dkafka.slow=true}.
 */
@EnabledIfSystemProperty(named = "kafka.slow", matches = "true")
class ManagedKafkaBrokerOutageTest {
    private static final int PARTITIONS = 8;
    private static final Duration BOUND = Duration.ofSeconds(90);

    @Test
    void aBrokerStoppedForTenSecondsMidJobLosesNothing() throws Exception {
        String topic = "outage";
        String runId = "kafka-outage";
        try (KafkaTestBroker broker = KafkaTestBroker.start();
                EmbeddedZeta zeta = EmbeddedZeta.builder("managed-kafka-outage", 22630).start()) {
            broker.createTopic(topic, PARTITIONS);
            List<String> expected = fill(broker, topic, 0, 100);
            LaneASettings.install(
                    true,
                    Arrays.asList("kafka-outage"),
                    Arrays.asList(ManagedKafkaSourceFactory.IDENTIFIER));
            CollectedRows rows = CollectedRows.of(runId);
            String hocon =
                    "env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n"
                            + "  checkpoint.interval = 1000\n}\nsource {\n  Managed {\n"
                            + "    connector = \"ManagedKafka\"\n    job-name = \"kafka-outage\"\n"
                            + "    bootstrap.servers = \""
                            + broker.bootstrap()
                            + "\"\n    topic = \""
                            + topic
                            + "\"\n    start_mode = \"earliest\"\n    consumer.group = \"g-outage\"\n"
                            + "    poll.timeout = 200\n  }\n}\nsink {\n  TestkitCollect {\n"
                            + "    run.id = \""
                            + runId
                            + "\"\n    key.field = \"\"\n  }\n}\n";
            long jobId = zeta.submit(hocon);
            await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
            broker.stop();
            // The outage itself: the job must stay up throughout.
            await().during(Duration.ofSeconds(10))
                    .atMost(Duration.ofSeconds(12))
                    .until(() -> zeta.status(jobId) == JobStatus.RUNNING);
            broker.restart();
            expected.addAll(fill(broker, topic, 100, 100));
            await().atMost(BOUND).until(() -> rows.committed().size() >= expected.size());
            zeta.cancel(jobId, BOUND);
            assertEquals(JobStatus.CANCELED, zeta.awaitTerminal(jobId, BOUND));
            RowAccounting.assertExactlyOnce(expected, rows.committed());
            CollectedRows.clear(runId);
        } finally {
            LaneASettings.clear();
        }
    }

    private static List<String> fill(KafkaTestBroker broker, String topic, int from, int n)
            throws Exception {
        List<String> keys = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> values = new ArrayList<>();
            for (int i = from; i < from + n; i++) {
                values.add(topic + "/" + p + "/" + i);
                keys.add(ManagedKafkaOnEngineTest.key(topic + "/" + p + "/" + i));
            }
            broker.produce(topic, p, values);
        }
        return keys;
    }
}
