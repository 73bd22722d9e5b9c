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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.client.SeaTunnelClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ManagedKafka deployed from the plugin archive as an operator deploys it (the stock home's
 * connector-kafka 2.3.8 in connectors/, the archive unpacked over it, its mapping lines appended),
 * on two member processes, submitted over REST against a Kafka broker on 127.0.0.1: the job reads
 * every record exactly once on Lane A.
 */
@Tag("process-cluster")
class ProcessClusterKafkaTest {
    private static final String CLUSTER = "managed-process-kafka";
    private static final int BASE_PORT = 28750;
    private static final int MEMBERS = 2;
    private static final Duration BOUND = Duration.ofSeconds(120);
    private static final int PARTITIONS = 4;
    private static final int PER_PARTITION = 500;
    private static final String JOB = "cluster-kafka";
    private static final String SECTION =
            "    managed-source:\n"
                    + "      enabled: true\n"
                    + "      allowed-jobs: [ "
                    + JOB
                    + " ]\n"
                    + "      allowed-connectors: [ ManagedKafka ]\n";

    private static KafkaBrokerProcess broker;
    private static SeaTunnelProcessCluster cluster;
    private static ClusterRest rest;

    @BeforeAll
    static void start() throws IOException {
        broker = KafkaBrokerProcess.start();
        cluster = SeaTunnelProcessCluster.start(CLUSTER, MEMBERS, BASE_PORT, SECTION);
        rest = new ClusterRest(cluster.restPort(1));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    private static ObjectNode kafkaJob(String topic, Path out, Path tmp) {
        ObjectNode job = ClusterRest.JSON.createObjectNode();
        job.putObject("env")
                .put("job.name", JOB)
                .put("job.mode", "BATCH")
                .put("parallelism", 2)
                .put("checkpoint.interval", 2000);
        job.putArray("source")
                .addObject()
                .put("plugin_name", "Managed")
                .put("connector", "ManagedKafka")
                .put("bootstrap.servers", broker.bootstrap())
                .put("topic", topic)
                .put("start_mode", "earliest")
                .put("consumer.group", JOB)
                .put("poll.timeout", 200);
        job.putArray("sink")
                .addObject()
                .put("plugin_name", "LocalFile")
                .put("path", out.toString())
                .put("tmp_path", tmp.toString())
                .put("file_format_type", "text")
                .put("is_enable_transaction", true);
        return job;
    }

    @Test
    void aRestSubmittedManagedKafkaJobReadsEveryRecordExactlyOnceOnLaneA() throws Exception {
        String topic = "orders";
        List<String> expected = broker.fill(topic, PARTITIONS, PER_PARTITION);
        Path out = Files.createTempDirectory("cluster-kafka-out");
        Path tmp = Files.createTempDirectory("cluster-kafka-tmp");

        long jobId = rest.submit(kafkaJob(topic, out, tmp));
        JsonNode info = rest.awaitEnd(jobId, BOUND);
        assertEquals("FINISHED", info.path("jobStatus").asText(), info.toString());

        List<String> written = lines(out);
        Collections.sort(expected);
        assertEquals(expected.size(), written.size(), "rows at the sink");
        assertEquals(expected, written, "every record once, nothing else");

        String jobMetrics;
        try (SeaTunnelClient client = new SeaTunnelClient(cluster.clientConfig())) {
            jobMetrics = client.getJobMetrics(jobId);
        }
        assertEquals(
                expected.size(),
                ProcessClusterTest.sum(jobMetrics, "ManagedSourcePollRecords"),
                "read by Lane A readers: " + jobMetrics);
        assertEquals(1, ProcessClusterTest.sum(jobMetrics, "ManagedSourceLaneA"), jobMetrics);
    }

    @Test
    void aManagedJobNamingAConnectorNotInstalledIsRefusedAndTheLogSaysWhichAndWhere()
            throws Exception {
        ObjectNode job =
                kafkaJob("none", Files.createTempDirectory("o"), Files.createTempDirectory("t"));
        ((ObjectNode) job.get("source").get(0)).put("connector", "ManagedNotInstalled");
        IOException refused = assertThrows(IOException.class, () -> rest.submit(job));
        assertTrue(refused.getMessage().contains("'Managed'"), refused.getMessage());
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () ->
                                cluster.memberLog(1)
                                        .contains(
                                                "connector 'ManagedNotInstalled' is not installed"
                                                        + " for this job"));
        String log = cluster.memberLog(1);
        String line =
                log.substring(log.indexOf("connector 'ManagedNotInstalled' is not installed"));
        line = line.substring(0, line.indexOf('\n'));
        assertTrue(line.contains("ManagedKafka") && line.contains("ManagedFake"), line);
    }

    /** The committed rows: every line of every file the sink moved into {@code out}. */
    private static List<String> lines(Path out) throws IOException {
        List<String> rows = new ArrayList<>();
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                for (String line : Files.readAllLines(f)) {
                    if (!line.isEmpty()) {
                        rows.add(line);
                    }
                }
            }
        }
        Collections.sort(rows);
        return rows;
    }
}
