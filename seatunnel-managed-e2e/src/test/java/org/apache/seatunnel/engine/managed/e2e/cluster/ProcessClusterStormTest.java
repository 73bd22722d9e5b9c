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
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.client.SeaTunnelClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A split storm on separate member processes (not part of {@code verify}; {@code
 * -Dcluster.storm=true}): 2 members installed from the plugin distribution, a bounded ManagedFake
 * job of one-row splits into SeaTunnel's LocalFile sink with transactions, on each lane in turn,
 * with checkpoints off and on. Wall time from the REST submit to FINISHED; the files must hold the
 * splits 0..n-1 once each. Properties: {@code -Dcluster.storm.splits} (1,000,000), {@code
 * -Dcluster.storm.parallelism} (2), {@code -Dcluster.storm.repeat} (1, lanes in alternating order),
 * {@code -Dcluster.storm.warmup-splits} (200,000: unmeasured runs per lane and checkpoint mode
 * first; 0: none), {@code -Dcluster.storm.warmup-runs} (1: how many such runs per lane and mode,
 * lanes alternating), {@code -Dcluster.storm.checkpoint-modes} ({@code off,on}: which modes run),
 * {@code -Dcluster.storm.timeline} (false: true prints each measured run's rows per half second
 * next to its checkpoints, {@link StormTimeline}); the members' heap is the environment's {@code
 * MEMBER_XMX} (cluster.sh: 512m).
 */
@Tag("process-cluster-storm")
@EnabledIfSystemProperty(named = "cluster.storm", matches = "true")
class ProcessClusterStormTest {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessClusterStormTest.class);
    private static final int MEMBERS = 2;
    // Below Linux's ephemeral port range (32768-60999), so no outbound connection holds them.
    private static final int BASE_PORT = 28900;
    private static final Duration JOB_BOUND = Duration.ofMinutes(15);
    // What a Lane A run's own metrics say about where its time went (summed over its tasks).
    private static final List<String> LANE_A_METRICS =
            List.of(
                    "ManagedSourceCoordinatorSnapshotWaitNanos",
                    "ManagedSourceCutDeferrals",
                    "ManagedSourceSplitWindowWaits",
                    "ManagedSourceAssignmentCreditWaits",
                    "ManagedSourceBarrierHandoffWaitNanos",
                    "ManagedSourceOutputBlockedNanos");
    private static final String SECTION =
            "    managed-source:\n"
                    + "      enabled: true\n"
                    + "      allowed-jobs: [ storm-lane-a ]\n"
                    + "      allowed-connectors: [ ManagedFake ]\n";

    @Test
    @Timeout(value = 120, unit = TimeUnit.MINUTES)
    void oneRowSplitsFinishExactlyOnceOnBothLanes() throws Exception {
        int splits = Integer.getInteger("cluster.storm.splits", 1_000_000);
        int parallelism = Integer.getInteger("cluster.storm.parallelism", 2);
        int repeat = Integer.getInteger("cluster.storm.repeat", 1);
        List<String> rows = new ArrayList<>();
        // -Dcluster.storm.options="a: 1;b: 2": more managed-source settings, to compare them.
        StringBuilder section = new StringBuilder(SECTION);
        for (String o : System.getProperty("cluster.storm.options", "").split(";")) {
            if (!o.trim().isEmpty()) {
                section.append("      ").append(o.trim()).append('\n');
            }
        }
        try (SeaTunnelProcessCluster cluster =
                SeaTunnelProcessCluster.start("storm", MEMBERS, BASE_PORT, section.toString())) {
            ClusterRest rest = new ClusterRest(cluster.restPort(1));
            // Fresh member JVMs: unmeasured runs per lane first, so neither pays for the JIT. A
            // lane runs more of its own code the first few jobs on a member than later: more runs
            // show when the comparison reaches the members' steady state.
            int warmup = Integer.getInteger("cluster.storm.warmup-splits", 200_000);
            int warmupRuns = Integer.getInteger("cluster.storm.warmup-runs", 1);
            // Both checkpoint modes: a checkpoint's path is code a job without one never runs.
            for (int w = 0; warmup > 0 && w < warmupRuns; w++) {
                for (boolean checkpoints : new boolean[] {false, true}) {
                    for (String lane : List.of("B", "A")) {
                        Run run =
                                runOnce(
                                        cluster,
                                        rest,
                                        lane,
                                        warmup,
                                        parallelism,
                                        checkpoints,
                                        false);
                        System.out.printf(
                                Locale.ROOT,
                                "[ProcessClusterStormTest] warm-up %d, lane %s, checkpoints %s:"
                                        + " %,d splits in %.2f s; %s%n",
                                w + 1,
                                lane,
                                checkpoints ? "every 2 s" : "off",
                                warmup,
                                run.millis / 1000.0,
                                run.trace());
                    }
                }
            }
            for (boolean checkpoints : measuredModes()) {
                for (int r = 0; r < repeat; r++) {
                    for (String lane : r % 2 == 0 ? List.of("B", "A") : List.of("A", "B")) {
                        Run run =
                                runOnce(
                                        cluster,
                                        rest,
                                        lane,
                                        splits,
                                        parallelism,
                                        checkpoints,
                                        Boolean.getBoolean("cluster.storm.timeline"));
                        long millis = run.millis;
                        String row =
                                String.format(
                                        Locale.ROOT,
                                        "%,d splits | p=%d | checkpoints %s | lane %s | FINISHED"
                                                + " in %.2f s (%,.0f splits/s), exactly once;"
                                                + " %s",
                                        splits,
                                        parallelism,
                                        checkpoints ? "every 2 s" : "off",
                                        lane,
                                        millis / 1000.0,
                                        splits * 1000.0 / millis,
                                        run.trace());
                        LOG.info(row);
                        System.out.println("[ProcessClusterStormTest] " + row);
                        if (!run.timeline.isEmpty()) {
                            System.out.print(run.timeline);
                        }
                        rows.add(row);
                    }
                }
            }
        }
        System.out.println("[ProcessClusterStormTest] summary\n" + String.join("\n", rows));
    }

    private static List<Boolean> measuredModes() {
        List<Boolean> modes = new ArrayList<>();
        for (String m : System.getProperty("cluster.storm.checkpoint-modes", "off,on").split(",")) {
            switch (m.trim()) {
                case "off":
                    modes.add(false);
                    break;
                case "on":
                    modes.add(true);
                    break;
                default:
                    throw new IllegalArgumentException(
                            "cluster.storm.checkpoint-modes: off and/or on, not " + m);
            }
        }
        return modes;
    }

    /**
     * One job's wall time, the engine checkpoints its members logged while it ran and, on Lane A,
     * its own {@link #LANE_A_METRICS}.
     */
    private static final class Run {
        final long millis;
        final CheckpointLogTrace checkpoints;
        final String laneAMetrics;
        final String timeline;

        Run(long millis, CheckpointLogTrace checkpoints, String laneAMetrics, String timeline) {
            this.millis = millis;
            this.checkpoints = checkpoints;
            this.laneAMetrics = laneAMetrics;
            this.timeline = timeline;
        }

        String trace() {
            return "engine checkpoints: "
                    + checkpoints.summary()
                    + (laneAMetrics.isEmpty() ? "" : "; " + laneAMetrics);
        }
    }

    private static String laneAMetrics(SeaTunnelProcessCluster cluster, long jobId)
            throws IOException {
        String json;
        try (SeaTunnelClient client = new SeaTunnelClient(cluster.clientConfig())) {
            json = client.getJobMetrics(jobId);
        }
        StringBuilder out = new StringBuilder();
        for (String name : LANE_A_METRICS) {
            long v = ProcessClusterTest.sum(json, name);
            if (out.length() > 0) {
                out.append(", ");
            }
            if (name.endsWith("Nanos")) {
                out.append(name, "ManagedSource".length(), name.length() - "Nanos".length())
                        .append(' ')
                        .append(v / 1_000_000)
                        .append(" ms");
            } else {
                out.append(name.substring("ManagedSource".length())).append(' ').append(v);
            }
        }
        return out.toString();
    }

    private Run runOnce(
            SeaTunnelProcessCluster cluster,
            ClusterRest rest,
            String lane,
            int splits,
            int parallelism,
            boolean checkpoints,
            boolean timeline)
            throws Exception {
        Path out = Files.createTempDirectory("storm-out-");
        Path tmp = Files.createTempDirectory("storm-tmp-");
        ObjectNode job = ClusterRest.JSON.createObjectNode();
        ObjectNode env =
                job.putObject("env")
                        .put("job.name", "storm-lane-" + lane.toLowerCase(Locale.ROOT))
                        .put("job.mode", "BATCH")
                        .put("parallelism", parallelism);
        if (checkpoints) {
            env.put("checkpoint.interval", 2000);
        }
        job.putArray("source")
                .addObject()
                .put("plugin_name", "Managed")
                .put("connector", "ManagedFake")
                .put("split.count", splits)
                .put("rows.per.split", 1)
                .put("bounded", true);
        job.putArray("sink")
                .addObject()
                .put("plugin_name", "LocalFile")
                .put("path", out.toString())
                .put("tmp_path", tmp.toString())
                .put("file_format_type", "text")
                .put("field_delimiter", ",")
                .put("is_enable_transaction", true);
        int[] logStart = new int[MEMBERS + 1];
        for (int m = 1; m <= MEMBERS; m++) {
            logStart[m] = cluster.memberLog(m).length();
        }
        StormTimeline sampled = timeline ? StormTimeline.start(out, tmp) : null;
        long submitTimeOfDay = LocalTime.now().toNanoOfDay() / 1_000_000;
        long t0 = System.nanoTime();
        long jobId = rest.submit(job);
        AtomicReference<String> status = new AtomicReference<>("");
        // Polls the member's REST endpoint: the wall time is within one poll of the end.
        await().atMost(JOB_BOUND)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            status.set(rest.jobInfo(jobId).path("jobStatus").asText());
                            return status.get().matches("FINISHED|FAILED|CANCELED");
                        });
        long millis = (System.nanoTime() - t0) / 1_000_000;
        if (sampled != null) {
            sampled.stop();
        }
        assertEquals("FINISHED", status.get(), "lane " + lane + " job " + jobId);
        assertEquals(0, missingOrRepeated(out, splits), "lane " + lane + ": exactly once");
        // The job's checkpoint coordinator runs on the master; the other member logs none.
        StringBuilder logs = new StringBuilder();
        for (int m = 1; m <= MEMBERS; m++) {
            logs.append(cluster.memberLog(m).substring(logStart[m]));
        }
        CheckpointLogTrace trace = CheckpointLogTrace.parse(logs.toString());
        return new Run(
                millis,
                trace,
                lane.equals("A") ? laneAMetrics(cluster, jobId) : "",
                sampled == null ? "" : sampled.render(splits, submitTimeOfDay, trace.events()));
    }

    /** Splits 0..n-1 each written once: the count of those missing plus those written again. */
    private static long missingOrRepeated(Path out, int splits) throws IOException {
        BitSet seen = new BitSet(splits);
        long repeated = 0;
        long rows = 0;
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        // id,split,seq,...: one row per split, so the split number is the key.
                        int a = line.indexOf(',');
                        int b = line.indexOf(',', a + 1);
                        int split = Integer.parseInt(line.substring(a + 1, b));
                        rows++;
                        if (seen.get(split)) {
                            repeated++;
                        }
                        seen.set(split);
                    }
                }
            }
        }
        LOG.info("{} rows in {}", rows, out);
        return (splits - seen.cardinality()) + repeated + (seen.length() > splits ? 1 : 0);
    }
}
