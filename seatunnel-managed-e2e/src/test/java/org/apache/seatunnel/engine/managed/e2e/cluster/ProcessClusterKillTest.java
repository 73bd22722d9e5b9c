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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kill -9} of one member of a 3-member cluster of separate processes while a streaming job
 * runs with checkpoints every second into SeaTunnel's LocalFile sink with transactions (an
 * aggregated committer: its commits survive the killed process), on Lane A and on Lane B.
 *
 * <p>Not part of {@code ./mvnw verify}: run it with {@code -Dcluster.kill=true} (and {@code
 * -Dcluster.kill.runs=N}, default 1, per lane and victim). Each run starts a fresh cluster, waits
 * for committed rows, kills the member hosting the enumerator (or, in the other runs, one hosting
 * only a reader), measures recovery (kill → committed rows grow by more than two checkpoints' worth
 * again), cancels the job and checks every committed (split, seq) once with no gap. A summary table
 * is printed at the end.
 */
@Tag("process-cluster-kill")
@EnabledIfSystemProperty(named = "cluster.kill", matches = "true")
class ProcessClusterKillTest {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessClusterKillTest.class);
    private static final int MEMBERS = 3;
    // Below Linux's ephemeral port range (32768-60999), so no outbound connection holds them.
    private static final int BASE_PORT = 28700;
    private static final int ROWS_PER_SECOND_PER_READER = 200;
    private static final int PARALLELISM = 2;
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(180);
    private static final String SECTION =
            "    managed-source:\n"
                    + "      enabled: true\n"
                    + "      allowed-jobs: [ kill-lane-a ]\n"
                    + "      allowed-connectors: [ ManagedFake ]\n";

    /** One run's outcome. */
    record Outcome(
            String lane,
            String victim,
            boolean victimWasMaster,
            int run,
            long recoveryMillis,
            long rows,
            long duplicates,
            long gaps) {}

    @Test
    // Each run is bounded by its own waits (start, first rows, recovery, cancel); runs add up.
    @Timeout(value = 60, unit = TimeUnit.MINUTES)
    void killOneMemberOnLaneAAndLaneB() throws Exception {
        int runs = Integer.getInteger("cluster.kill.runs", 1);
        List<Outcome> outcomes = new ArrayList<>();
        int port = BASE_PORT;
        for (String lane : List.of("A", "B")) {
            for (String victim : List.of("enumerator", "reader")) {
                for (int run = 1; run <= runs; run++) {
                    outcomes.add(runOnce(lane, victim, run, port));
                    port += 10;
                }
            }
        }
        StringBuilder table =
                new StringBuilder(
                        "\nlane victim     master run recovery_ms committed duplicates gaps\n");
        for (Outcome o : outcomes) {
            table.append(
                    String.format(
                            "%-4s %-10s %-6s %3d %11d %9d %10d %4d%n",
                            o.lane(),
                            o.victim(),
                            o.victimWasMaster(),
                            o.run(),
                            o.recoveryMillis(),
                            o.rows(),
                            o.duplicates(),
                            o.gaps()));
        }
        LOG.info("kill -9 summary:{}", table);
        System.out.println("kill -9 summary:" + table);
        for (Outcome o : outcomes) {
            assertEquals(0, o.duplicates(), "duplicates in " + o);
            assertEquals(0, o.gaps(), "gaps in " + o);
        }
    }

    private Outcome runOnce(String lane, String victim, int run, int basePort) throws Exception {
        String name = "kill-" + lane.toLowerCase() + "-" + victim + "-" + run;
        Path out = Files.createTempDirectory("kill-out-");
        Path tmp = Files.createTempDirectory("kill-tmp-");
        try (SeaTunnelProcessCluster cluster =
                SeaTunnelProcessCluster.start(name, MEMBERS, basePort, SECTION)) {
            ClusterRest rest = new ClusterRest(cluster.restPort(1));
            ObjectNode job = ClusterRest.JSON.createObjectNode();
            job.putObject("env")
                    .put("job.name", "kill-lane-" + lane.toLowerCase())
                    .put("job.mode", "STREAMING")
                    .put("parallelism", PARALLELISM)
                    .put("checkpoint.interval", 1000)
                    .put("job.retry.interval.seconds", 1);
            job.putArray("source")
                    .addObject()
                    .put("plugin_name", "Managed")
                    .put("connector", "ManagedFake")
                    .put("split.count", 4)
                    .put("bounded", false)
                    .put("rows.per.second", ROWS_PER_SECOND_PER_READER);
            job.putArray("sink")
                    .addObject()
                    .put("plugin_name", "LocalFile")
                    .put("path", out.toString())
                    .put("tmp_path", tmp.toString())
                    .put("file_format_type", "text")
                    .put("field_delimiter", ",")
                    .put("is_enable_transaction", true);
            long jobId = rest.submit(job);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> LocalFileRows.committed(out) > 2L * ROWS_PER_SECOND_PER_READER);

            int target = victimMember(cluster, jobId, victim);
            boolean master = cluster.memberLog(target).contains("become a new active master");
            long atKill = LocalFileRows.committed(out);
            long t0 = System.nanoTime();
            cluster.kill9(target);
            LOG.info(
                    "{}: killed member m{} (master: {}) at {} committed rows",
                    name,
                    target,
                    master,
                    atKill);
            long threshold = atKill + 2L * PARALLELISM * ROWS_PER_SECOND_PER_READER;
            await().atMost(RECOVERY_BOUND)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> LocalFileRows.committed(out) > threshold);
            long recoveryMillis = (System.nanoTime() - t0) / 1_000_000;

            int survivor = target == 1 ? 2 : 1;
            ClusterRest alive = new ClusterRest(cluster.restPort(survivor));
            alive.stop(jobId, false);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () ->
                                    alive.jobInfo(jobId)
                                            .path("jobStatus")
                                            .asText()
                                            .matches("CANCELED|FAILED|FINISHED"));
            long[] check = LocalFileRows.check(out);
            return new Outcome(
                    lane, victim, master, run, recoveryMillis, check[0], check[1], check[2]);
        }
    }

    /** The member whose log shows the enumerator task of the job, or one with only a reader. */
    private static int victimMember(SeaTunnelProcessCluster cluster, long jobId, String victim)
            throws IOException {
        Pattern enumerator =
                Pattern.compile(
                        "BlockingWorker-TaskGroupLocation\\{jobId="
                                + jobId
                                + ",[^}]*\\}\\] SourceSplitEnumeratorTask - starting");
        int enumeratorMember = -1;
        for (int m = 1; m <= MEMBERS; m++) {
            if (enumerator.matcher(cluster.memberLog(m)).find()) {
                enumeratorMember = m;
            }
        }
        assertTrue(enumeratorMember > 0, "no member runs the enumerator of job " + jobId);
        if (victim.equals("enumerator")) {
            return enumeratorMember;
        }
        // The enumerator logs each reader's task group as it registers; the member that deployed
        // that group hosts the reader.
        Matcher registered =
                Pattern.compile(
                                "received reader register, readerID: TaskLocation\\{taskGroupLocation="
                                        + "TaskGroupLocation\\{jobId="
                                        + jobId
                                        + ", pipelineId=(\\d+), taskGroupId=(\\d+)\\}")
                        .matcher(cluster.memberLog(enumeratorMember));
        List<Integer> readerMembers = new ArrayList<>();
        while (registered.find()) {
            String deployed =
                    "deploying TaskGroup TaskGroupLocation{jobId="
                            + jobId
                            + ", pipelineId="
                            + registered.group(1)
                            + ", taskGroupId="
                            + registered.group(2)
                            + "} success";
            for (int m = 1; m <= MEMBERS; m++) {
                if (cluster.memberLog(m).contains(deployed) && !readerMembers.contains(m)) {
                    readerMembers.add(m);
                }
            }
        }
        assertTrue(!readerMembers.isEmpty(), "no member runs a reader of job " + jobId);
        for (int m : readerMembers) {
            if (m != enumeratorMember) {
                return m;
            }
        }
        LOG.warn("Every reader shares the enumerator's member; killing that one");
        return readerMembers.get(0);
    }
}
