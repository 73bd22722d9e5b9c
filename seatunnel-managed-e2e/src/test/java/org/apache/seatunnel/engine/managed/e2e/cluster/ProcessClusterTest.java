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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.common.config.Common;
import org.apache.seatunnel.engine.client.SeaTunnelClient;
import org.apache.seatunnel.engine.client.job.ClientJobProxy;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.zeta.ops.ManagedJobsCommand;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lane A on a SeaTunnel cluster of separate member processes, installed from the plugin
 * distribution, with jobs submitted through the REST API and through SeaTunnel's Java client.
 *
 * <p>The lane is read from the job's metrics: only a Lane A reader registers {@code
 * ManagedSourcePollTurns} in its task's metrics context. Rows are counted by the engine's own
 * {@code SourceReceivedCount}/{@code SinkWriteCount} in REST {@code job-info}.
 */
@Tag("process-cluster")
class ProcessClusterTest {
    private static final String CLUSTER = "managed-process-it";
    // Below Linux's ephemeral port range (32768-60999), so no outbound connection holds them.
    private static final int BASE_PORT = 28650;
    private static final int MEMBERS = 2;
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final long ROWS = 4 * 250;
    private static final String SECTION =
            "    managed-source:\n"
                    + "      enabled: true\n"
                    + "      allowed-jobs: [ cluster-rest, cluster-client ]\n"
                    + "      allowed-connectors: [ ManagedFake ]\n";

    private static SeaTunnelProcessCluster cluster;
    private static ClusterRest rest;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = SeaTunnelProcessCluster.start(CLUSTER, MEMBERS, BASE_PORT, SECTION);
        rest = new ClusterRest(cluster.restPort(1));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void clientSettingsOff() {
        LaneASettings.clear();
    }

    static ObjectNode job(String name) {
        ObjectNode job = ClusterRest.JSON.createObjectNode();
        job.putObject("env")
                .put("job.name", name)
                .put("job.mode", "BATCH")
                .put("parallelism", 2)
                .put("checkpoint.interval", 2000);
        job.putArray("source")
                .addObject()
                .put("plugin_name", "Managed")
                .put("connector", "ManagedFake")
                .put("split.count", 4)
                .put("rows.per.split", 250)
                .put("bounded", true)
                .put("rows.per.second", 5000);
        job.putArray("sink").addObject().put("plugin_name", "Console").put("log.print.data", false);
        return job;
    }

    private static JsonNode awaitFinished(long jobId) {
        JsonNode info = rest.awaitEnd(jobId, BOUND);
        assertEquals("FINISHED", info.path("jobStatus").asText(), info.toString());
        return info;
    }

    /** Sum of a metric over all tasks in SeaTunnel's job-metrics JSON (client getJobMetrics). */
    static long sum(String jobMetricsJson, String metric) throws IOException {
        JsonNode node = ClusterRest.JSON.readTree(jobMetricsJson).path(metric);
        long total = 0;
        if (node.isArray()) {
            for (JsonNode m : node) {
                total += m.path("value").asLong();
            }
        } else if (!node.isMissingNode()) {
            total = node.asLong();
        }
        return total;
    }

    private static String clientJobMetrics(long jobId) {
        try (SeaTunnelClient client = new SeaTunnelClient(cluster.clientConfig())) {
            return client.getJobMetrics(jobId);
        }
    }

    @Test
    void aRestSubmittedJobRunsOnLaneAByItsEnvJobNameAndReportsThroughRest() throws IOException {
        long jobId = rest.submit(job("cluster-rest"));
        JsonNode info = awaitFinished(jobId);
        JsonNode metrics = info.path("metrics");
        assertEquals(ROWS, metrics.path("SourceReceivedCount").asLong(), info.toString());
        assertEquals(ROWS, metrics.path("SinkWriteCount").asLong(), info.toString());
        assertEquals("cluster-rest", info.path("jobName").asText());
        assertTrue(rest.runningJobs().isArray(), "running-jobs answers a JSON array");

        String jobMetrics = clientJobMetrics(jobId);
        assertTrue(
                sum(jobMetrics, "ManagedSourcePollTurns") > 0,
                "Lane A reader metrics in the job's metrics: " + jobMetrics);
        assertEquals(ROWS, sum(jobMetrics, "ManagedSourcePollRecords"), jobMetrics);
        assertEquals(
                4,
                sum(jobMetrics, "ManagedSourceAssignmentsCreated"),
                "coordinator metrics of the enumerator task: " + jobMetrics);

        long sent = 0;
        for (int m = 1; m <= MEMBERS; m++) {
            sent +=
                    scrapedMetric(
                            new ClusterRest(cluster.restPort(m)).prometheusMetrics(),
                            "ManagedSourceCommandsSent_total");
        }
        assertTrue(sent > 0, "member transport totals on the telemetry endpoint");
    }

    /** Sum of one metric's samples in a Prometheus text scrape. */
    static long scrapedMetric(String scrape, String name) {
        long total = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                String value = line.substring(line.lastIndexOf(' ') + 1);
                total += (long) Double.parseDouble(value);
            }
        }
        return total;
    }

    @Test
    void aClientSubmittedJobFollowsTheClustersSettingsNeverTheClients() throws Exception {
        // The client's JVM says "Lane A off"; the members say "on for cluster-client".
        LaneASettings.install(false, List.of(), List.of());
        Common.setSeaTunnelHome(SeaTunnelProcessCluster.home().toString());
        Path conf = Files.createTempFile("cluster-client", ".conf");
        Files.write(
                conf,
                ("env { job.name = \"cluster-client\", job.mode = \"BATCH\", parallelism = 2 }\n"
                                + "source { Managed { connector = \"ManagedFake\", split.count = 4,"
                                + " rows.per.split = 250, bounded = true, rows.per.second = 5000 } }\n"
                                + "sink { Console { log.print.data = false } }\n")
                        .getBytes(StandardCharsets.UTF_8));
        JobConfig jobConfig = new JobConfig();
        try (SeaTunnelClient client = new SeaTunnelClient(cluster.clientConfig())) {
            ClientJobProxy proxy =
                    client.createExecutionContext(conf.toString(), jobConfig, new SeaTunnelConfig())
                            .execute();
            JobResult result = proxy.waitForJobCompleteV2();
            assertEquals(JobStatus.FINISHED, result.getStatus(), result.getError());
            String jobMetrics = client.getJobMetrics(proxy.getJobId());
            assertTrue(
                    sum(jobMetrics, "ManagedSourcePollTurns") > 0,
                    "planned on the cluster's Lane A, not the client's Lane B: " + jobMetrics);
            assertEquals(ROWS, sum(jobMetrics, "SourceReceivedCount"), jobMetrics);
        } finally {
            Files.deleteIfExists(conf);
        }
    }

    @Test
    void theKillSwitchInTheMembersYamlAppliesToTheNextJobWithoutARestart() throws Exception {
        long[] pids = new long[MEMBERS + 1];
        String[] original = new String[MEMBERS + 1];
        for (int m = 1; m <= MEMBERS; m++) {
            pids[m] = cluster.pid(m);
            original[m] = Files.readString(cluster.seatunnelYaml(m));
            Files.writeString(
                    cluster.seatunnelYaml(m),
                    original[m].replace("      enabled: true", "      enabled: false"));
        }
        try {
            long jobId = rest.submit(job("cluster-rest"));
            JsonNode info = awaitFinished(jobId);
            assertEquals(ROWS, info.path("metrics").path("SourceReceivedCount").asLong());
            String jobMetrics = clientJobMetrics(jobId);
            assertEquals(
                    0,
                    sum(jobMetrics, "ManagedSourcePollTurns"),
                    "Lane B after the kill switch: " + jobMetrics);
            for (int m = 1; m <= MEMBERS; m++) {
                assertEquals(pids[m], cluster.pid(m), "member " + m + " was not restarted");
                assertTrue(cluster.alive(m));
            }
            assertFalse(jobMetrics.contains("ManagedSourcePollTurns"));
        } finally {
            for (int m = 1; m <= MEMBERS; m++) {
                Files.writeString(cluster.seatunnelYaml(m), original[m]);
            }
        }
    }

    static ObjectNode streamingJob(String name) {
        ObjectNode job = job(name);
        ((ObjectNode) job.get("env")).put("job.mode", "STREAMING").put("checkpoint.interval", 1000);
        ((ObjectNode) job.get("source").get(0)).put("bounded", false).put("rows.per.second", 200);
        return job;
    }

    private static void awaitStatus(long jobId, String status) {
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> rest.jobInfo(jobId).path("jobStatus").asText().equals(status));
    }

    /**
     * A job reads SAVEPOINT_DONE before the master has cleaned it up, and until then 2.3.8 answers
     * a resubmission of the same id with success but ignores it ("currently running; no need to
     * submit again"): a restore is submitted once the job left the running jobs.
     */
    private static void awaitLeftRunningJobs(long jobId) {
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> !rest.runningJobs().toString().contains(Long.toString(jobId)));
    }

    private static void awaitLaneARows(long jobId) {
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(300))
                .until(() -> sum(clientJobMetrics(jobId), "ManagedSourcePollRecords") > 0);
    }

    @Test
    void theOperatorCommandListsRunningJobsWithTheirLaneAndReason() throws Exception {
        long laneA = rest.submit(streamingJob("cluster-rest"));
        long laneB = rest.submit(streamingJob("not-allowlisted"));
        try {
            AtomicReference<List<ManagedJobsCommand.Row>> rows = new AtomicReference<>();
            await().atMost(BOUND)
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> {
                                rows.set(ManagedJobsCommand.list(cluster.clientConfig(), false));
                                return row(rows.get(), laneA) != null
                                        && !row(rows.get(), laneA).lane.equals("-")
                                        && row(rows.get(), laneB) != null
                                        && !row(rows.get(), laneB).lane.equals("-");
                            });
            ManagedJobsCommand.Row a = row(rows.get(), laneA);
            ManagedJobsCommand.Row b = row(rows.get(), laneB);
            assertEquals("cluster-rest", a.name);
            assertEquals("RUNNING", a.status);
            assertEquals("A", a.lane, rows.get().toString());
            assertEquals("ELIGIBLE", a.reason);
            assertEquals("B", b.lane, rows.get().toString());
            assertEquals("JOB_NOT_ALLOWED", b.reason);
        } finally {
            rest.stop(laneA, false);
            rest.stop(laneB, false);
            awaitStatus(laneA, "CANCELED");
            awaitStatus(laneB, "CANCELED");
        }
    }

    private static ManagedJobsCommand.Row row(List<ManagedJobsCommand.Row> rows, long jobId) {
        for (ManagedJobsCommand.Row r : rows) {
            if (r.jobId == jobId) {
                return r;
            }
        }
        return null;
    }

    @Test
    void aRestStreamingJobStopsWithASavepointResumesOnLaneAAndCancels() throws IOException {
        ObjectNode job = streamingJob("cluster-rest");
        long jobId = rest.submit(job);
        awaitLaneARows(jobId);
        rest.stop(jobId, true);
        awaitStatus(jobId, "SAVEPOINT_DONE");
        awaitLeftRunningJobs(jobId);

        assertEquals(jobId, rest.submit(job, "?jobId=" + jobId + "&isStartWithSavePoint=true"));
        awaitStatus(jobId, "RUNNING");
        awaitLaneARows(jobId);
        rest.stop(jobId, false);
        awaitStatus(jobId, "CANCELED");
    }

    @Test
    void aClientStreamingJobTakesASavepointRestoresAndCancels() throws Exception {
        Common.setSeaTunnelHome(SeaTunnelProcessCluster.home().toString());
        Path conf = Files.createTempFile("cluster-client-streaming", ".conf");
        Files.write(
                conf,
                ("env { job.name = \"cluster-client\", job.mode = \"STREAMING\", parallelism = 2,"
                                + " checkpoint.interval = 1000 }\n"
                                + "source { Managed { connector = \"ManagedFake\", split.count = 4,"
                                + " bounded = false, rows.per.second = 200 } }\n"
                                + "sink { Console { log.print.data = false } }\n")
                        .getBytes(StandardCharsets.UTF_8));
        try (SeaTunnelClient client = new SeaTunnelClient(cluster.clientConfig())) {
            ClientJobProxy proxy =
                    client.createExecutionContext(
                                    conf.toString(), new JobConfig(), new SeaTunnelConfig())
                            .execute();
            long jobId = proxy.getJobId();
            awaitLaneARows(jobId);
            client.savePointJob(jobId);
            awaitStatus(jobId, "SAVEPOINT_DONE");
            awaitLeftRunningJobs(jobId);

            client.restoreExecutionContext(
                            conf.toString(), new JobConfig(), new SeaTunnelConfig(), jobId)
                    .execute();
            awaitStatus(jobId, "RUNNING");
            awaitLaneARows(jobId);
            client.cancelJob(jobId);
            awaitStatus(jobId, "CANCELED");
        } finally {
            Files.deleteIfExists(conf);
        }
    }
}
