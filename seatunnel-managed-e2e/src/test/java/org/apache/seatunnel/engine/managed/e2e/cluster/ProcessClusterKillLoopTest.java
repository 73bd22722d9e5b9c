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

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kill -9 chaos on separate member processes (not part of {@code verify}; {@code
 * -Dcluster.kill-loop=true}): per lane, one streaming ManagedFake job (2 readers, 200 rows/s each,
 * a checkpoint every second) into SeaTunnel's LocalFile sink with transactions runs on 3 members
 * while a loop kills a random member (the master too) at a random moment, waits until the committed
 * rows have grown by two checkpoints' worth (recovery: kill until rows flow again, an upper bound),
 * restarts the member ({@code cluster.sh restart}) and goes on. At the end the job is cancelled and
 * the committed files must hold every (split, seq) once with no gap below each split's maximum.
 *
 * <p>Properties: {@code cluster.kill-loop.kills} (30 per lane), {@code cluster.kill-loop.lanes}
 * (A,B), {@code cluster.kill-loop.seed}; {@code -Dcluster.max_no_heartbeat_seconds=60
 * -Dcluster.heartbeat_interval_seconds=5} runs with Hazelcast's own dead-member detection instead
 * of cluster.sh's 10 s.
 */
@Tag("process-cluster-kill")
@EnabledIfSystemProperty(named = "cluster.kill-loop", matches = "true")
class ProcessClusterKillLoopTest {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessClusterKillLoopTest.class);
    private static final int MEMBERS = 3;
    private static final int BASE_PORT = 28800;
    private static final int ROWS_PER_SECOND_PER_READER = 200;
    private static final int PARALLELISM = 2;
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(240);

    @Test
    @Timeout(value = 6, unit = TimeUnit.HOURS)
    void killRandomMembersOverAndOverOnEachLane() throws Exception {
        int kills = Integer.getInteger("cluster.kill-loop.kills", 30);
        long seed = Long.getLong("cluster.kill-loop.seed", System.nanoTime());
        List<String> lanes =
                Arrays.asList(System.getProperty("cluster.kill-loop.lanes", "A,B").split(","));
        System.out.println("[ProcessClusterKillLoopTest] seed " + seed);
        Random rnd = new Random(seed);
        List<String> summary = new ArrayList<>();
        for (String lane : lanes) {
            summary.add(loop(lane.trim(), kills, rnd));
        }
        System.out.println(
                "[ProcessClusterKillLoopTest] seed "
                        + seed
                        + ", dead member after "
                        + System.getProperty("cluster.max_no_heartbeat_seconds", "10")
                        + " s\n"
                        + String.join("\n", summary));
    }

    private String loop(String lane, int kills, Random rnd) throws Exception {
        String name = "kill-loop-" + lane.toLowerCase(Locale.ROOT);
        String section =
                "    managed-source:\n"
                        + "      enabled: true\n"
                        + "      allowed-jobs: [ kill-loop-a ]\n"
                        + "      allowed-connectors: [ ManagedFake ]\n";
        Path out = Files.createTempDirectory("kill-loop-out-");
        Path tmp = Files.createTempDirectory("kill-loop-tmp-");
        long[] recovery = new long[kills];
        int masterKills = 0;
        long[] check;
        try (SeaTunnelProcessCluster cluster =
                SeaTunnelProcessCluster.start(name, MEMBERS, BASE_PORT, section)) {
            ObjectNode job = ClusterRest.JSON.createObjectNode();
            job.putObject("env")
                    .put("job.name", "kill-loop-" + lane.toLowerCase(Locale.ROOT))
                    .put("job.mode", "STREAMING")
                    .put("parallelism", PARALLELISM)
                    .put("checkpoint.interval", 1000)
                    .put("job.retry.interval.seconds", 1)
                    // Zeta fails a job after job.retry.times (3) pipeline restores; every kill
                    // here may cost one or two.
                    .put("job.retry.times", 10 * kills);
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
            long jobId = new ClusterRest(cluster.restPort(1)).submit(job);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> LocalFileRows.committed(out) > 2L * ROWS_PER_SECOND_PER_READER);
            for (int k = 0; k < kills; k++) {
                // The random moment of the kill: up to 8 s into whatever the job is doing.
                Thread.sleep(200 + rnd.nextInt(8000));
                int victim = 1 + rnd.nextInt(MEMBERS);
                if (cluster.memberLog(victim).contains("become a new active master")) {
                    masterKills++;
                }
                long atKill = LocalFileRows.committed(out);
                long t0 = System.nanoTime();
                cluster.kill9(victim);
                long threshold = atKill + 2L * PARALLELISM * ROWS_PER_SECOND_PER_READER;
                await().atMost(RECOVERY_BOUND)
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> LocalFileRows.committed(out) > threshold);
                recovery[k] = (System.nanoTime() - t0) / 1_000_000;
                LOG.info(
                        "{}: kill {} of m{}: rows flow again after {} ms",
                        name,
                        k + 1,
                        victim,
                        recovery[k]);
                cluster.restart(victim);
            }
            int survivor = 1;
            ClusterRest rest = new ClusterRest(cluster.restPort(survivor));
            rest.stop(jobId, false);
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () ->
                                    rest.jobInfo(jobId)
                                            .path("jobStatus")
                                            .asText()
                                            .matches("CANCELED|FAILED|FINISHED"));
            check = LocalFileRows.check(out);
        }
        long[] sorted = recovery.clone();
        Arrays.sort(sorted);
        String line =
                String.format(
                        Locale.ROOT,
                        "lane %s: %d kills (%d of the master), recovery p50 %d ms, p99 %d ms, max %d"
                                + " ms; %d rows committed, %d duplicates, %d gaps",
                        lane,
                        kills,
                        masterKills,
                        sorted[sorted.length / 2],
                        sorted[
                                (int)
                                        Math.min(
                                                sorted.length - 1,
                                                Math.ceil(sorted.length * 0.99) - 1)],
                        sorted[sorted.length - 1],
                        check[0],
                        check[1],
                        check[2]);
        System.out.println("[ProcessClusterKillLoopTest] " + line);
        assertEquals(0, check[1], "duplicates on lane " + lane);
        assertEquals(0, check[2], "gaps on lane " + lane);
        return line;
    }
}
