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

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A single-node KRaft Kafka 3.9 broker on 127.0.0.1 in a child JVM (its class path is the one
 * {@code tools/kafka-test-broker} wrote), plus the admin and producer calls tests need, made with
 * the kafka-clients 3.2.0 inside {@code connector-kafka}. One per test class; {@link #stop} and
 * {@link #restart} keep ports and data.
 *
 * <p>Threading: test thread only.
 */
final class KafkaTestBroker implements AutoCloseable {
    private static final Duration START_BOUND = Duration.ofSeconds(60);

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Path log;
    private Process process;
    private AdminClient admin;
    private KafkaProducer<byte[], byte[]> producer;

    private KafkaTestBroker(Path dir, int port, int controllerPort) {
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.log = Paths.get("target", "kafka-broker-" + port + ".log");
    }

    static KafkaTestBroker start() throws IOException {
        KafkaTestBroker b =
                new KafkaTestBroker(
                        Files.createTempDirectory("managed-kafka-broker"), freePort(), freePort());
        b.launch();
        return b;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void launch() throws IOException {
        String cpFile = System.getProperty("kafka.broker.classpath.file");
        String classes = System.getProperty("kafka.broker.classes");
        if (cpFile == null || classes == null) {
            throw new IllegalStateException(
                    "kafka.broker.classpath.file / kafka.broker.classes are not set (surefire"
                            + " sets them; build tools/kafka-test-broker first)");
        }
        String cp =
                classes
                        + File.pathSeparator
                        + new String(Files.readAllBytes(Paths.get(cpFile)), StandardCharsets.UTF_8)
                                .trim();
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        Collections.addAll(
                cmd,
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                cp,
                "org.apache.seatunnel.managed.kafkabroker.KafkaTestBrokerMain",
                dir.toString(),
                String.valueOf(port),
                String.valueOf(controllerPort));
        Files.createDirectories(log.toAbsolutePath().getParent());
        process =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        awaitReady();
    }

    private void awaitReady() {
        long t0 = System.nanoTime();
        await().atMost(START_BOUND)
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(
                        () -> {
                            if (!process.isAlive()) {
                                throw new IllegalStateException(
                                        "the broker exited; see " + log.toAbsolutePath());
                            }
                            return !admin().describeCluster()
                                    .nodes()
                                    .get(5, TimeUnit.SECONDS)
                                    .isEmpty();
                        });
        System.out.printf(
                "[KafkaTestBroker] ready at %s in %d ms%n",
                bootstrap(), (System.nanoTime() - t0) / 1_000_000);
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    AdminClient admin() {
        if (admin == null) {
            Properties p = new Properties();
            p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
            p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
            admin = AdminClient.create(p);
        }
        return admin;
    }

    /**
     * Creates {@code topic}; returns once every partition has a leader (see {@link
     * #addPartitions}).
     */
    void createTopic(String topic, int partitions) throws Exception {
        admin().createTopics(Collections.singletonList(new NewTopic(topic, partitions, (short) 1)))
                .all()
                .get(30, TimeUnit.SECONDS);
        awaitLeaders(topic, partitions);
    }

    /**
     * Grows {@code topic} to {@code totalPartitions}; returns once every partition has a leader.
     */
    void addPartitions(String topic, int totalPartitions) throws Exception {
        admin().createPartitions(
                        Collections.singletonMap(topic, NewPartitions.increaseTo(totalPartitions)))
                .all()
                .get(30, TimeUnit.SECONDS);
        awaitLeaders(topic, totalPartitions);
    }

    /**
     * Waits until every partition of {@code topic} has a leader, then replaces the cached producer:
     * a producer that saw a partition before its leader was elected can hold that partition's
     * records until the delivery timeout (120 s, seen with new topics and new partitions).
     */
    private void awaitLeaders(String topic, int partitions) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(50))
                .ignoreExceptions()
                .until(
                        () -> {
                            org.apache.kafka.clients.admin.TopicDescription d =
                                    admin().describeTopics(Collections.singletonList(topic))
                                            .allTopicNames()
                                            .get(30, TimeUnit.SECONDS)
                                            .get(topic);
                            return d.partitions().size() == partitions
                                    && d.partitions().stream()
                                            .allMatch(
                                                    pi ->
                                                            pi.leader() != null
                                                                    && !pi.leader().isEmpty());
                        });
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }

    /** Sends {@code values} to {@code partition} and waits until the broker acknowledged all. */
    void produce(String topic, int partition, List<String> values) throws Exception {
        KafkaProducer<byte[], byte[]> p = producer();
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        for (String v : values) {
            acks.add(
                    p.send(
                            new ProducerRecord<>(
                                    topic, partition, null, v.getBytes(StandardCharsets.UTF_8))));
        }
        p.flush();
        for (java.util.concurrent.Future<?> f : acks) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Properties p = new Properties();
            p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
            p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
            // kafka-clients 3.2's idempotent producer, whose first batch to a partition a new
            // leader refused (NOT_LEADER_OR_FOLLOWER), then gets OUT_OF_ORDER_SEQUENCE_NUMBER on
            // every retry until the 120 s delivery timeout (seen here). Plain retries, one request
            // in flight: ordered, and a refused batch was not written, so no duplicate.
            p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
            p.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
            p.setProperty(
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName());
            p.setProperty(
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(p);
        }
        return producer;
    }

    /** The consumer group's committed offset per partition of {@code topic} (absent: none). */
    Map<Integer, Long> committed(String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> all =
                admin().listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get(10, TimeUnit.SECONDS);
        Map<Integer, Long> out = new HashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : all.entrySet()) {
            if (e.getKey().topic().equals(topic) && e.getValue() != null) {
                out.put(e.getKey().partition(), e.getValue().offset());
            }
        }
        return out;
    }

    /** The end offset of every partition of {@code topic}. */
    Map<Integer, Long> endOffsets(String topic, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> req = new HashMap<>();
        for (int i = 0; i < partitions; i++) {
            req.put(new TopicPartition(topic, i), OffsetSpec.latest());
        }
        Map<Integer, Long> out = new HashMap<>();
        admin().listOffsets(req)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    /** Stops the broker process (its data stays). */
    void stop() throws InterruptedException {
        closeClients();
        if (process != null) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            process = null;
        }
    }

    /** Starts the broker again on the same ports with the same data. */
    void restart() throws IOException {
        launch();
    }

    private void closeClients() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            stop();
        } finally {
            deleteRecursively(dir);
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(p)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .map(Path::toFile)
                    .forEach(File::delete);
        }
    }
}
