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

package org.apache.seatunnel.managed.kafkabroker;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Creates a topic on a test broker and fills each partition with the values {@code topic/p/i}, for
 * tests whose own class path has no Kafka client (the process-cluster tests).
 *
 * <p>Usage: {@code KafkaTestTopicMain <bootstrap> <topic> <partitions> <perPartition>}. Waits up to
 * 60 s for the broker to answer; prints {@code produced N} and exits 0, or exits 1 with the reason.
 *
 * <p>Threading: the main thread only.
 */
public final class KafkaTestTopicMain {
    private static final long READY_BOUND_MS = 60_000;

    private KafkaTestTopicMain() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        int partitions = Integer.parseInt(args[2]);
        int perPartition = Integer.parseInt(args[3]);
        Properties admin = new Properties();
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (AdminClient client = AdminClient.create(admin)) {
            awaitBroker(client);
            client.createTopics(
                            Collections.singletonList(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Properties producer = new Properties();
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        long produced = 0;
        try (KafkaProducer<byte[], byte[]> p =
                new KafkaProducer<>(
                        producer, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int partition = 0; partition < partitions; partition++) {
                for (int i = 0; i < perPartition; i++) {
                    byte[] value =
                            (topic + "/" + partition + "/" + i).getBytes(StandardCharsets.UTF_8);
                    p.send(new ProducerRecord<>(topic, partition, null, value));
                    produced++;
                }
            }
            p.flush();
        }
        System.out.println("produced " + produced);
    }

    /** The broker's first start can take seconds; each try is bounded, and so is the whole wait. */
    private static void awaitBroker(AdminClient client) throws InterruptedException {
        long deadline = System.currentTimeMillis() + READY_BOUND_MS;
        while (true) {
            try {
                if (!client.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                if (System.currentTimeMillis() > deadline) {
                    System.err.println("broker not ready within 60 s: " + e);
                    System.exit(1);
                }
            }
            if (System.currentTimeMillis() > deadline) {
                System.err.println("broker has no nodes after 60 s");
                System.exit(1);
            }
        }
    }
}
