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

package org.apache.seatunnel.engine.managed.e2e.cluster;

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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A single-node Kafka 3.9 test broker on 127.0.0.1 in a child JVM, and topics filled by a second
 * child JVM: this module's class path has no Kafka client (SeaTunnel's connector-kafka jar carries
 * unshaded libraries that must stay off the engine's class path). Both use the class path {@code
 * tools/kafka-test-broker} wrote; surefire names it in {@code kafka.broker.classpath.file}.
 *
 * <p>Threading: test thread only.
 */
final class KafkaBrokerProcess implements AutoCloseable {
    private static final Duration BOUND = Duration.ofSeconds(120);

    private final Path dir;
    private final int port;
    private final Path log;
    private final Process process;

    private KafkaBrokerProcess(Path dir, int port, Path log, Process process) {
        this.dir = dir;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    static KafkaBrokerProcess start() throws IOException {
        Path dir = Files.createTempDirectory("cluster-kafka-broker");
        int port = freePort();
        Path log = Paths.get("target", "cluster-kafka-broker-" + port + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process p =
                new ProcessBuilder(
                                java(
                                        "org.apache.seatunnel.managed.kafkabroker.KafkaTestBrokerMain",
                                        dir.toString(),
                                        String.valueOf(port),
                                        String.valueOf(freePort())))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        return new KafkaBrokerProcess(dir, port, log, p);
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /**
     * Creates {@code topic} and fills each partition with {@code perPartition} values {@code
     * topic/p/i} (waiting for the broker to answer first); returns the values.
     */
    List<String> fill(String topic, int partitions, int perPartition) throws Exception {
        Path out = Files.createTempFile("kafka-fill", ".log");
        Process p =
                new ProcessBuilder(
                                java(
                                        "org.apache.seatunnel.managed.kafkabroker.KafkaTestTopicMain",
                                        bootstrap(),
                                        topic,
                                        String.valueOf(partitions),
                                        String.valueOf(perPartition)))
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
        await().atMost(BOUND).until(() -> !p.isAlive() || !process.isAlive());
        String printed = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
        if (p.isAlive() || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(
                    "filling " + topic + " failed: " + printed + " (broker log " + log + ")");
        }
        List<String> values = new ArrayList<>();
        for (int partition = 0; partition < partitions; partition++) {
            for (int i = 0; i < perPartition; i++) {
                values.add(topic + "/" + partition + "/" + i);
            }
        }
        return values;
    }

    private static List<String> java(String main, String... args) throws IOException {
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
        List<String> cmd =
                new ArrayList<>(
                        Arrays.asList(
                                Paths.get(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-Xmx256m",
                                "-XX:+UseSerialGC",
                                "-XX:TieredStopAtLevel=1",
                                "-cp",
                                cp,
                                main));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .map(Path::toFile)
                    .forEach(File::delete);
        }
    }
}
