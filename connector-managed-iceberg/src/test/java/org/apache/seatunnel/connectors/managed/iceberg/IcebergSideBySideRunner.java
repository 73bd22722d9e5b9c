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

package org.apache.seatunnel.connectors.managed.iceberg;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.GateRows;
import org.apache.seatunnel.managed.bench.report.LatencyPlot;
import org.apache.seatunnel.managed.bench.report.SteadyCpu;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.EngineCheckpointSampler;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.ManagedJob;

/**
 * Not a test: SeaTunnel's stock {@code Iceberg} source (Lane B) against {@code ManagedIceberg} on
 * Lane A, in one embedded engine over Hadoop-catalog tables on the local disk, p=2. Prints a table,
 * writes {@code target/iceberg-side-by-side.json} and a plot ({@code .svg}):
 *
 * <ul>
 *   <li>a large bounded scan: rows/s and process CPU-seconds per million rows less the JIT
 *       compiler's, lanes alternating;
 *   <li>a streaming job while the runner appends a 10-row commit every 200 ms: append (commit
 *       returned) to sink latency, and the engine's checkpoint durations;
 *   <li>the same with a slow catalog ({@link SlowHadoopCatalog}: every table refresh 3 s longer):
 *       the checkpoint durations while discoveries are slow, and which threads made the slow calls.
 * </ul>
 *
 * Run with {@code tools/run-iceberg-side-by-side.sh [quick]}.
 */
public final class IcebergSideBySideRunner {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final String[] LANES = {"B stock Iceberg", "A ManagedIceberg"};
    private static final String JOB = "iceberg-bench";

    /** Not allowlisted: ManagedIceberg on Lane B, which tells the connector from the lane. */
    private static final String JOB_LANE_B = "iceberg-bench-b";

    private static final int PARALLELISM = 2;

    /** {@code -Diceberg.threads=true}: where each scan's CPU went, by thread role. */
    private static final boolean THREADS = Boolean.getBoolean("iceberg.threads");

    /**
     * {@code -Diceberg.scan-only=true}: the bounded scans only, each lane's median and runs printed
     * on one line, no streaming phase, table or report (diagnostics).
     */
    private static final boolean SCAN_ONLY = Boolean.getBoolean("iceberg.scan-only");

    private static final long CHECKPOINT_MS = 1000;
    private static final long SLOW_MS = 3000;
    private static final String CELL = "%-44s";
    private static final String COL = "%-30s";

    /** What one lane's streaming phase measured; durations in nanoseconds, sorted. */
    private static final class Streaming {
        long[] appendToSink = new long[0];
        long[] checkpoints = new long[0];
        long rowsSeen;
        long rowsAppended;
        String slowCallers = "";
        int slowCalls;
    }

    private IcebergSideBySideRunner() {}

    public static void main(String[] args) throws Exception {
        boolean quick = args.length > 0 && args[0].equals("quick");
        int commits = quick ? 50 : 100;
        int files = 10;
        int rowsPerFile = quick ? 2_000 : 4_000;
        int reps = quick ? 3 : 5;
        int streamSeconds = quick ? 10 : 30;
        Path warehouse = Files.createTempDirectory("iceberg-side-by-side");
        LaneASettings.install(
                true, Arrays.asList(JOB), Arrays.asList(ManagedIcebergSourceFactory.IDENTIFIER));
        // -Diceberg.runtime-settings=k=v,k=v: more of the managed-source section (diagnostics).
        if (!System.getProperty("iceberg.runtime-settings", "").isEmpty()) {
            Map<String, Object> section = new HashMap<>(LaneASettings.current());
            for (String kv : System.getProperty("iceberg.runtime-settings").split(",")) {
                String[] p = kv.split("=", 2);
                section.put(p[0], p[1]);
            }
            LaneASettings.install(section);
        }
        try (EmbeddedZeta zeta = EmbeddedZeta.builder("iceberg-side-by-side", 22680).start();
                IcebergTestTable scan = IcebergTestTable.create(warehouse, "scan")) {
            for (int c = 0; c < commits; c++) {
                scan.append(files, rowsPerFile);
            }
            long total = scan.keys().size();
            double[][] rps = new double[3][reps];
            double[][] cpu = new double[3][reps];
            int run = 0;
            // Unmeasured passes per lane first: class loading and the JIT. With one, a quick
            // run's three measured scans per lane still fell run by run (the stock source 2.59,
            // 1.77, 1.45 CPU-s/M), so the median was a scan still warming up, in whichever lane
            // the rotation had run later. -Diceberg.warmup-passes (2).
            int warmUps = Integer.getInteger("iceberg.warmup-passes", 2);
            for (int w = 0; w < warmUps; w++) {
                for (int lane = 0; lane < 3; lane++) {
                    bounded(zeta, scan, lane, total, "warm-" + run++);
                }
            }
            for (int r = 0; r < reps; r++) {
                for (int i = 0; i < 3; i++) {
                    int lane = (i + r) % 3;
                    double[] m = bounded(zeta, scan, lane, total, "scan-" + run++);
                    rps[lane][r] = m[0];
                    cpu[lane][r] = m[1];
                }
            }
            if (SCAN_ONLY) {
                for (int lane = 0; lane < 3; lane++) {
                    System.out.printf(
                            Locale.ROOT,
                            "scan, %s: median %,.0f rows/s, %.3f CPU-s/M; runs %s rows/s, %s"
                                    + " CPU-s/M%n",
                            lane == 2 ? "ManagedIceberg on Lane B" : LANES[lane],
                            BenchReport.median(rps[lane]),
                            BenchReport.median(cpu[lane]),
                            Arrays.toString(rps[lane]),
                            Arrays.toString(cpu[lane]));
                }
                return;
            }
            Streaming[] plain = new Streaming[2];
            Streaming[] slow = new Streaming[2];
            for (int lane = 0; lane < 2; lane++) {
                plain[lane] = streaming(zeta, warehouse, lane, streamSeconds, false);
                slow[lane] = streaming(zeta, warehouse, lane, streamSeconds, true);
            }
            StringBuilder table = new StringBuilder();
            row(table, "figure (median of " + reps + " for the scan)", LANES[0], LANES[1]);
            row(
                    table,
                    String.format(Locale.ROOT, "rows/s, bounded scan of %,d rows, p=2", total),
                    String.format(Locale.ROOT, "%,.0f", BenchReport.median(rps[0])),
                    String.format(Locale.ROOT, "%,.0f", BenchReport.median(rps[1])));
            row(
                    table,
                    "CPU-s per million rows (less the JIT's), same scan",
                    String.format(Locale.ROOT, "%.2f", BenchReport.median(cpu[0])),
                    String.format(Locale.ROOT, "%.2f", BenchReport.median(cpu[1])));
            row(
                    table,
                    "  same scan, ManagedIceberg on Lane B",
                    String.format(
                            Locale.ROOT,
                            "%,.0f rows/s, %.2f CPU-s/M",
                            BenchReport.median(rps[2]),
                            BenchReport.median(cpu[2])),
                    "");
            row(
                    table,
                    "append -> sink p50/p99 ms",
                    BenchReport.p50p99(plain[0].appendToSink),
                    BenchReport.p50p99(plain[1].appendToSink));
            row(
                    table,
                    "rows seen / appended",
                    plain[0].rowsSeen + " / " + plain[0].rowsAppended,
                    plain[1].rowsSeen + " / " + plain[1].rowsAppended);
            row(
                    table,
                    "checkpoint duration p50/p99 ms",
                    BenchReport.p50p99(plain[0].checkpoints),
                    BenchReport.p50p99(plain[1].checkpoints));
            row(
                    table,
                    "slow catalog (+" + SLOW_MS + " ms): checkpoint p50/p99 ms",
                    BenchReport.p50p99(slow[0].checkpoints),
                    BenchReport.p50p99(slow[1].checkpoints));
            row(
                    table,
                    "slow catalog: append -> sink p50/p99 ms",
                    BenchReport.p50p99(slow[0].appendToSink),
                    BenchReport.p50p99(slow[1].appendToSink));
            row(table, "slow catalog: slow calls", "" + slow[0].slowCalls, "" + slow[1].slowCalls);
            row(
                    table,
                    "slow catalog: threads that made them",
                    slow[0].slowCallers,
                    slow[1].slowCallers);
            System.out.print(table);
            GateRows gates = new GateRows();
            String scanPoint =
                    String.format(Locale.ROOT, "Iceberg p=2, bounded scan of %,d rows", total);
            gates.saturated(scanPoint, rps, cpu, "rows");
            gates.checkpointP99(
                    "Iceberg p=2, discovery of a 10-row commit every 200 ms (checkpoint)",
                    GateRows.p99Millis(plain[0].checkpoints),
                    GateRows.p99Millis(plain[1].checkpoints));
            gates.checkpointP99(
                    "Iceberg p=2, discovery with every table refresh "
                            + SLOW_MS
                            + " ms slower (checkpoint)",
                    GateRows.p99Millis(slow[0].checkpoints),
                    GateRows.p99Millis(slow[1].checkpoints));
            gates.print("STIP-31 exit criteria, Iceberg (gate table)");

            BenchReport report =
                    new BenchReport(
                            "Iceberg: stock Iceberg (Lane B) vs ManagedIceberg (Lane A), one"
                                    + " embedded Zeta 2.3.8, Hadoop catalog on the local disk");
            ObjectNode json = report.json();
            json.put("quick", quick);
            gates.write(json);
            json.put("parallelism", PARALLELISM);
            json.put("scanRows", total);
            json.put("scanFiles", (long) commits * files);
            json.put("reps", reps);
            json.put("streamSeconds", streamSeconds);
            json.put("slowCatalogMillis", SLOW_MS);
            ObjectNode managedB = json.putObject("managedIcebergOnLaneB");
            BenchReport.addAll(managedB.putArray("scanRowsPerSecond"), rps[2]);
            BenchReport.addAll(managedB.putArray("scanCpuSecondsPerMillionRows"), cpu[2]);
            ArrayNode lanes = json.putArray("lanes");
            for (int l = 0; l < 2; l++) {
                ObjectNode lane = lanes.addObject();
                lane.put("lane", LANES[l]);
                BenchReport.addAll(lane.putArray("scanRowsPerSecond"), rps[l]);
                BenchReport.addAll(lane.putArray("scanCpuSecondsPerMillionRows"), cpu[l]);
                lane.set("appendToSink", BenchReport.distribution(plain[l].appendToSink, true));
                lane.put("rowsSeen", plain[l].rowsSeen);
                lane.put("rowsAppended", plain[l].rowsAppended);
                lane.set(
                        "checkpointDuration", BenchReport.distribution(plain[l].checkpoints, true));
                lane.set(
                        "slowCatalogCheckpointDuration",
                        BenchReport.distribution(slow[l].checkpoints, true));
                lane.set(
                        "slowCatalogAppendToSink",
                        BenchReport.distribution(slow[l].appendToSink, true));
                lane.put("slowCatalogCalls", slow[l].slowCalls);
                lane.put("slowCatalogCallers", slow[l].slowCallers);
            }
            report.panel(
                    "append -> sink (a 10-row commit every 200 ms)",
                    List.of(
                            new LatencyPlot.Series(LANES[0], plain[0].appendToSink),
                            new LatencyPlot.Series(LANES[1], plain[1].appendToSink)));
            report.panel(
                    "checkpoint duration (engine trigger -> completed)",
                    List.of(
                            new LatencyPlot.Series(LANES[0], plain[0].checkpoints),
                            new LatencyPlot.Series(LANES[1], plain[1].checkpoints)));
            report.panel(
                    "checkpoint duration with a slow catalog (+" + SLOW_MS + " ms per refresh)",
                    List.of(
                            new LatencyPlot.Series(LANES[0], slow[0].checkpoints),
                            new LatencyPlot.Series(LANES[1], slow[1].checkpoints)));
            for (Path out : report.write(Paths.get("target"), "iceberg-side-by-side")) {
                System.out.println("written " + out.toAbsolutePath());
            }
        } finally {
            LaneASettings.clear();
        }
        System.exit(0);
    }

    /**
     * The job over {@code options} on {@code lane} (0 stock, 1 ManagedIceberg on Lane A, 2
     * ManagedIceberg not allowlisted, so on Lane B), into the bench sink of {@code runId}.
     */
    private static String job(
            int lane, Map<String, Object> options, boolean streaming, String runId) {
        ManagedJob job =
                ManagedJob.source(ManagedIcebergSourceFactory.IDENTIFIER)
                        .name(lane == 2 ? JOB_LANE_B : JOB)
                        .parallelism(PARALLELISM)
                        .env("checkpoint.interval", CHECKPOINT_MS);
        for (Map.Entry<String, Object> e : options.entrySet()) {
            job.option(e.getKey(), e.getValue());
        }
        String hocon =
                lane == 0
                        ? IcebergJobs.stock(job, runId, CHECKPOINT_MS, streaming)
                        : job.toHocon(runId);
        if (streaming && lane != 0) {
            hocon = hocon.replace("job.mode = \"BATCH\"", "job.mode = \"STREAMING\"");
        }
        StringBuilder out = new StringBuilder();
        for (String line : hocon.split("\n", -1)) {
            if (line.trim().startsWith("key.field = ")) {
                continue;
            }
            out.append(line.replace("TestkitCollect {", IcebergBenchSinkFactory.IDENTIFIER + " {"))
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * rows/s and process CPU-seconds per million rows, less the JIT compiler's, of one bounded scan
     * of {@code t}.
     */
    private static double[] bounded(
            EmbeddedZeta zeta, IcebergTestTable t, int lane, long total, String runId)
            throws Exception {
        ThreadCpuByRole.Sample threads0 = THREADS ? ThreadCpuByRole.sample() : null;
        // Less the JIT compiler threads' CPU, as the Fake runner judges it (SteadyCpu).
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job(lane, t.options(), false, runId));
        JobStatus status = zeta.awaitTerminal(jobId, Duration.ofMinutes(10));
        long wall = System.nanoTime() - t0;
        long cpuNanos = SteadyCpu.now().steadySince(cpu0);
        if (THREADS) {
            ThreadCpuByRole.print(
                    "scan " + runId + ", " + (lane == 2 ? "ManagedIceberg on Lane B" : LANES[lane]),
                    threads0);
        }
        long rows = IcebergBenchSinkFactory.rows(runId).get();
        if (THREADS) {
            long[] span = IcebergBenchSinkFactory.span(runId);
            System.out.printf(
                    Locale.ROOT,
                    "scan %s: first row at %d ms, last at ~%d ms, job ended at %d ms%n",
                    runId,
                    (span[0] - t0) / 1_000_000,
                    (span[1] - t0) / 1_000_000,
                    wall / 1_000_000);
        }
        if (status != JobStatus.FINISHED || rows != total) {
            throw new IllegalStateException(
                    "lane " + lane + ": " + status + " with " + rows + " of " + total + " rows");
        }
        return new double[] {rows / (wall / 1e9), (cpuNanos / 1e9) / (rows / 1e6)};
    }

    /**
     * A streaming job on a fresh table while a 10-row commit is appended every 200 ms for {@code
     * seconds}: append-to-sink latencies and checkpoint durations; with {@code slowCatalog} every
     * table refresh of the job's catalog takes {@link #SLOW_MS} longer meanwhile.
     */
    private static Streaming streaming(
            EmbeddedZeta zeta, Path warehouse, int lane, int seconds, boolean slowCatalog)
            throws Exception {
        String name = "stream_" + lane + (slowCatalog ? "_slow" : "");
        String runId = name + "-run";
        Streaming out = new Streaming();
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, name)) {
            t.append(1, 10);
            Map<String, Object> options =
                    slowCatalog ? t.options(SlowHadoopCatalog.class.getName()) : t.options();
            options.put("stream_scan_strategy", "FROM_EARLIEST_SNAPSHOT");
            IcebergBenchSinkFactory.recordArrivals(runId);
            long jobId = zeta.submit(job(lane, options, true, runId));
            // Warm-up: the first commit is through once the readers run.
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> IcebergBenchSinkFactory.rows(runId).get() >= 10);
            SlowHadoopCatalog.SLOW_CALLS.set(0);
            SlowHadoopCatalog.SLOW_CALLERS.clear();
            if (slowCatalog) {
                SlowHadoopCatalog.delayMillis = SLOW_MS;
            }
            int first = t.batches();
            Map<Integer, Long> committedAt = new HashMap<>();
            EngineCheckpointSampler checkpoints =
                    new EngineCheckpointSampler(System.currentTimeMillis());
            long period = TimeUnit.MILLISECONDS.toNanos(200);
            long next = System.nanoTime();
            for (int i = 0; i < seconds * 5; i++) {
                LockSupport.parkNanos(next - System.nanoTime());
                int batch = t.batches();
                t.append(1, 10);
                committedAt.put(batch, System.nanoTime());
                next += period;
                checkpoints.sample(zeta, jobId);
            }
            out.slowCalls = SlowHadoopCatalog.SLOW_CALLS.get();
            out.slowCallers = String.join(", ", new TreeSet<>(SlowHadoopCatalog.SLOW_CALLERS));
            // Let what is in flight arrive, with the catalog fast again.
            SlowHadoopCatalog.delayMillis = 0;
            out.rowsAppended = t.keys().size();
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> IcebergBenchSinkFactory.rows(runId).get() >= out.rowsAppended);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // Reported as rows seen.
            }
            out.rowsSeen = IcebergBenchSinkFactory.rows(runId).get();
            out.checkpoints = checkpoints.durations();
            List<Long> lat = new ArrayList<>();
            for (long[] a : IcebergBenchSinkFactory.arrivals(runId)) {
                Long at = committedAt.get((int) a[0]);
                if (a[0] >= first && at != null) {
                    lat.add(a[1] - at);
                }
            }
            out.appendToSink = lat.stream().mapToLong(Long::longValue).sorted().toArray();
            zeta.cancel(jobId, Duration.ofSeconds(60));
        } finally {
            SlowHadoopCatalog.delayMillis = 0;
        }
        return out;
    }

    private static void row(StringBuilder sb, String name, String b, String a) {
        sb.append(String.format(Locale.ROOT, CELL + " | " + COL + " | " + COL + "%n", name, b, a));
    }
}
