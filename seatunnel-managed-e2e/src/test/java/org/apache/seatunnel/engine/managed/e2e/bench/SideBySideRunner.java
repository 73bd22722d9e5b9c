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

package org.apache.seatunnel.engine.managed.e2e.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeProbe;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeTestingSourceFactory;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.GateRows;
import org.apache.seatunnel.managed.bench.report.LatencyPlot;
import org.apache.seatunnel.managed.bench.report.SteadyCpu;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * Runs the same managed FakeSource job on Lane A and Lane B in one embedded Zeta 2.3.8 engine in
 * one run, prints a comparison table and writes it as {@code target/side-by-side.json} with the
 * barrier-wait and idle-reader latency distributions of both lanes plotted in {@code
 * target/side-by-side.svg}. Not a test: figures depend on the machine; run it on a quiet one. Lane
 * B is the same connector through the Managed source with the job not allowlisted, i.e. the
 * connector's own legacy path.
 *
 * <p>Usage: {@code SideBySideRunner [quick] [backpressure|throughput|latency]} — quick shortens
 * every phase for a smoke run; backpressure runs only the throttled-sink and all-cores-busy
 * scenarios, throughput only the p=1 throughput pairs, latency only the paced-row latency. {@code
 * -Dbench.option.<key>=<value>} runs Lane A with that setting (see {@link #installLaneA}).
 */
public final class SideBySideRunner {
    private static final String[] LANES = {"Lane B (stock path)", "Lane A (managed)"};

    private final EmbeddedZeta zeta;
    private final boolean quick;
    private int runs;

    private SideBySideRunner(EmbeddedZeta zeta, boolean quick) {
        this.zeta = zeta;
        this.quick = quick;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("quick");
        installLaneA();
        BarrierLockWaits.startFlightRecorder();
        try (EmbeddedZeta zeta =
                EmbeddedZeta.builder(
                                "side-by-side-" + ProcessHandle.current().pid(),
                                // -Dside-by-side.port: another run on the same machine.
                                Integer.getInteger("side-by-side.port", 23400))
                        .checkpointIntervalMillis(1000)
                        .start()) {
            if (Arrays.asList(args).contains("backpressure")) {
                runBackpressureOnly(zeta, quick);
            } else if (Arrays.asList(args).contains("throughput")) {
                new SideBySideRunner(zeta, quick).runThroughputOnly();
            } else if (Arrays.asList(args).contains("storm-gate")) {
                // Only the split-storm rows of the gate table.
                GateRows storms = new GateRows();
                SplitStormScenarios.gate(zeta, storms, quick);
                storms.print("STIP-31 exit criteria, split storms (gate table)");
            } else if (Arrays.asList(args).contains("storm")) {
                SplitStormScenarios.runOnly(zeta, quick);
            } else if (Arrays.asList(args).contains("discovery")) {
                DiscoveryScenario.runOnly(zeta, quick);
            } else if (Arrays.asList(args).contains("soak")) {
                SoakScenario.runOnly(zeta);
            } else if (Arrays.asList(args).contains("latency")) {
                new SideBySideRunner(zeta, quick).runLatencyOnly();
            } else {
                new SideBySideRunner(zeta, quick).run();
            }
        }
        System.exit(0);
    }

    /**
     * Enables Lane A for the runners' Lane A job ({@code side-a}) and the ManagedFake connectors,
     * and starts the flight recorder, before a runner starts its engine. {@code
     * -Dbench.option.<key>=<value>} sets any other key of the managed-source section, e.g. {@code
     * -Dbench.option.reader.poll-linger=20ms}.
     */
    static void installLaneA() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList("side-a"));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(
                        ManagedFakeSource.IDENTIFIER, ManagedFakeTestingSourceFactory.IDENTIFIER));
        String prefix = "bench.option.";
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(prefix)) {
                cfg.put(name.substring(prefix.length()), System.getProperty(name));
            }
        }
        LaneASettings.install(cfg);
        BarrierLockWaits.startFlightRecorder();
    }

    /** {@code SideBySideRunner [quick] backpressure}: only the backpressure scenarios. */
    private static void runBackpressureOnly(EmbeddedZeta zeta, boolean quick) throws Exception {
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"figure", LANES[0], LANES[1]});
        BenchReport report = new BenchReport("Managed FakeSource under backpressure, B vs A");
        ArrayNode lanes = report.json().putArray("lanes");
        ObjectNode[] laneJson = {lanes.addObject(), lanes.addObject()};
        for (int l = 0; l < 2; l++) {
            laneJson[l].put("lane", LANES[l]);
        }
        new BackpressureScenarios(zeta, quick).run(table, report, laneJson);
        print(table);
        for (Path p : report.write(Paths.get("target"), "side-by-side-backpressure")) {
            System.out.println("written " + p.toAbsolutePath());
        }
    }

    /**
     * {@code SideBySideRunner throughput}: only the p=1 throughput pair, {@code -Dtp.reps} times
     * (default 5) with {@code -Dtp.rows} rows (default 4,000,000), lanes alternating; prints each
     * run and the medians.
     */
    private void runThroughputOnly() throws Exception {
        long rows = Long.getLong("tp.rows", 4_000_000L);
        int reps = Integer.getInteger("tp.reps", 5);
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"figure", LANES[0], LANES[1]});
        throughputPairs(table, rows, reps, true);
        print(table);
    }

    /**
     * {@code SideBySideRunner latency}: how late a paced row is emitted (row due → emitted p50/p99)
     * and the process CPU, with 20, 200 and 2,000 rows/s per reader, lanes alternating; with {@code
     * -Dbench.option.reader.poll-linger} it shows what a linger adds to Lane A; {@code
     * -Dlatency.rates} and {@code -Dlatency.seconds} change the rates and the window, {@code
     * -Dscale.threads=true} prints where each window's CPU went by thread.
     */
    private void runLatencyOnly() throws Exception {
        long seconds = Long.getLong("latency.seconds", quick ? 4 : 10);
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"figure", LANES[0], LANES[1]});
        // -Dlatency.rates=20,20 runs one rate twice (the first pair warms the JIT up).
        for (String r : System.getProperty("latency.rates", "20,200,2000").split(",")) {
            int rate = Integer.parseInt(r.trim());
            String[] delays = new String[2];
            String[] cpu = new String[2];
            for (int lane = 0; lane < 2; lane++) {
                ManagedFakeProbe.reset();
                double[] c = streaming(lane == 1, "rows.per.second = " + rate, seconds);
                delays[lane] = pcts2(ManagedFakeProbe.emitDelays());
                cpu[lane] = fmt("%.1f %% (JIT %.1f %%)", c[0], c[1]);
            }
            table.add(
                    row(
                            rate + " rows/s per reader: row due -> emitted p50/p99",
                            delays[0],
                            delays[1]));
            table.add(
                    row(rate + " rows/s per reader: process CPU (% of one core)", cpu[0], cpu[1]));
        }
        print(table);
    }

    /**
     * Runs the p=1 throughput pair {@code reps} times, lanes alternating, adds the medians to
     * {@code table} and returns {rows/s, CPU-s per M rows} per lane and repetition.
     */
    private double[][][] throughputPairs(List<String[]> table, long rows, int reps, boolean log)
            throws Exception {
        double[][] rps = new double[2][reps];
        double[][] cpu = new double[2][reps];
        // An unmeasured pair first: this is the first job of a run, and the engine's and each
        // lane's code is still being compiled; "less the JIT's" removes the compiler's threads but
        // not the interpreted and lower-tier code the first pairs run meanwhile.
        for (int lane = 0; lane < 2; lane++) {
            throughput(lane == 1, rows);
        }
        for (int r = 0; r < reps; r++) {
            // Lanes alternate which goes first: the second job of a pair inherits the first's
            // garbage and compiled code.
            for (int i = 0; i < 2; i++) {
                int lane = r % 2 == 0 ? i : 1 - i;
                double[] m = throughput(lane == 1, rows);
                rps[lane][r] = m[0];
                cpu[lane][r] = m[1];
                if (log) {
                    System.out.printf(
                            "run %d %s: %,.0f rows/s, %.2f CPU-s per M rows%n",
                            r, LANES[lane], m[0], m[1]);
                }
            }
        }
        table.add(
                row(
                        "rows/s, p=1 (median of " + reps + ")",
                        fmt("%,.0f", median(rps[0])),
                        fmt("%,.0f", median(rps[1]))));
        table.add(
                row(
                        "CPU-s per M rows (process, less the JIT compiler's)",
                        fmt("%.2f", median(cpu[0])),
                        fmt("%.2f", median(cpu[1]))));
        // Run r of each lane ran back to back, so a pair shares the machine's state of the moment;
        // the ratios per pair vary less than either lane's figures across pairs.
        double[] rpsRatio = new double[reps];
        double[] cpuRatio = new double[reps];
        for (int r = 0; r < reps; r++) {
            rpsRatio[r] = rps[1][r] / rps[0][r];
            cpuRatio[r] = cpu[1][r] / cpu[0][r];
        }
        table.add(
                row(
                        "Lane A / Lane B per pair: rows/s, CPU per row (median; min-max)",
                        "",
                        fmt(
                                "%.2f (%.2f-%.2f); %.2f (%.2f-%.2f)",
                                median(rpsRatio),
                                min(rpsRatio),
                                max(rpsRatio),
                                median(cpuRatio),
                                min(cpuRatio),
                                max(cpuRatio))));
        return new double[][][] {rps, cpu};
    }

    private void run() throws Exception {
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"figure", LANES[0], LANES[1]});
        BenchReport report =
                new BenchReport("Managed FakeSource, Lane B vs Lane A, one embedded Zeta 2.3.8");
        ObjectNode json = report.json();
        json.put("quick", quick);
        ArrayNode lanesJson = json.putArray("lanes");
        ObjectNode[] laneJson = {lanesJson.addObject(), lanesJson.addObject()};
        for (int l = 0; l < 2; l++) {
            laneJson[l].put("lane", LANES[l]);
        }
        GateTable gates = GateTable.GATES;
        gates.start(zeta);

        // 1. Throughput and CPU per row: bounded, p=1, 64 rows per legacy pollNext / turn.
        // Five pairs of 4 M rows: with three of 2 M the medians swung by a third between runs.
        // A quick run takes the median of three pairs of 1 M rows: it judged one pair of 400,000
        // rows (under a second per job) before, and the first pairs after the warm-up pair still
        // ran partly compiled code (five such pairs on one build: A / B from 0.92 to 1.38 x, the
        // first the lowest).
        long rows = quick ? 1_000_000 : 4_000_000;
        int reps = quick ? 3 : 5;
        double[][][] tp = throughputPairs(table, rows, reps, false);
        double[][] rps = tp[0];
        double[][] cpu = tp[1];
        for (int l = 0; l < 2; l++) {
            laneJson[l].put("rowsPerRun", rows);
            putAll(laneJson[l].putArray("rowsPerSecond"), rps[l]);
            putAll(laneJson[l].putArray("cpuSecondsPerMillionRows"), cpu[l]);
        }
        String p1 = "Fake p=1, saturated";
        gates.ratio(
                p1, GateTable.Criterion.THROUGHPUT, median(rps[0]), median(rps[1]), "%,.0f rows/s");
        gates.ratio(
                p1, GateTable.Criterion.CPU, median(cpu[0]), median(cpu[1]), "%.2f CPU-s/M rows");
        // What a user runs today: SeaTunnel 2.3.8's own FakeSource (connector-fake), same rows.
        double[][] stock = new double[2][reps];
        for (int r = 0; r < reps; r++) {
            double[] m = stockFakeThroughput(rows);
            stock[0][r] = m[0];
            stock[1][r] = m[1];
        }
        table.add(
                row(
                        "SeaTunnel's own FakeSource (connector-fake 2.3.8), p=1: rows/s; CPU-s per M rows",
                        fmt("%,.0f; %.2f", median(stock[0]), median(stock[1])),
                        ""));
        json.putObject("stockFakeSource")
                .put("rowsPerSecond", median(stock[0]))
                .put("cpuSecondsPerMillionRows", median(stock[1]));
        gates.baseline(
                "SeaTunnel FakeSource vs managed FakeSource on Lane B, p=1",
                fmt("%,.0f rows/s, %.2f CPU-s/M", median(stock[0]), median(stock[1])),
                fmt("%,.0f rows/s, %.2f CPU-s/M", median(rps[0]), median(cpu[0])));

        // 2. Checkpoint duration and barrier wait with slow data of 0, 200 ms and 1 s (jittered).
        long seconds = quick ? 6 : 20;
        ObjectNode[] slowData = {
            laneJson[0].putObject("slowData"), laneJson[1].putObject("slowData")
        };
        for (int slow : new int[] {0, 200, 1000}) {
            long[][] waits = new long[2][];
            long[][] durations = new long[2][];
            for (int lane = 0; lane < 2; lane++) {
                streaming(lane == 1, "slow.data.millis = " + slow, seconds);
                waits[lane] = ManagedFakeProbe.barrierWaits();
                durations[lane] = ManagedFakeProbe.checkpointDurations();
            }
            table.add(
                    row(
                            "barrier wait p50/p99/max, slow data " + slow + " ms",
                            pcts(waits[0]),
                            pcts(waits[1])));
            table.add(
                    row(
                            "checkpoint duration p50/p99, slow data " + slow + " ms",
                            pcts2(durations[0]),
                            pcts2(durations[1])));
            gates.checkpointP99(
                    "Fake p=1, slow data " + slow + " ms (checkpoint as the source sees it)",
                    durations[0].length == 0 ? Double.NaN : pct(durations[0], 99) / 1e6,
                    durations[1].length == 0 ? Double.NaN : pct(durations[1], 99) / 1e6);
            for (int l = 0; l < 2; l++) {
                ObjectNode slowJson = slowData[l].putObject(slow + "ms");
                slowJson.set("barrierWait", BenchReport.distribution(waits[l], true));
                slowJson.set("checkpointDuration", BenchReport.distribution(durations[l], true));
            }
            report.panel(
                    "barrier wait, slow data " + slow + " ms",
                    List.of(
                            new LatencyPlot.Series(LANES[0], waits[0]),
                            new LatencyPlot.Series(LANES[1], waits[1])));
        }

        // 3. Idle reader: a row becomes due every 50 ms; how late is it emitted?
        // A few percent of one core over a window: a JIT compilation or a collection of what
        // earlier scenarios left moves it by half. So an unmeasured pass per lane first (the
        // pacing path compiles), a collected heap before each window (streaming), at least 10 s
        // per window, and the median of three windows per lane (four in a full run), the lanes'
        // order swapped each time: a single window moved the ratio between 1.01 and 1.26 x for
        // the same build, a tenth of a percent of one core either way.
        String idleJob = "rows.per.second = 20";
        long idleSeconds = Math.max(10, seconds);
        for (int lane = 0; lane < 2; lane++) {
            streaming(lane == 1, idleJob, Math.max(3, idleSeconds / 3));
        }
        int idleReps = quick ? 3 : 4;
        List<List<Long>> idleDelays = List.of(new ArrayList<>(), new ArrayList<>());
        double[][] idleCpus = new double[2][idleReps];
        double[][] idleJit = new double[2][idleReps];
        for (int r = 0; r < idleReps; r++) {
            for (int i = 0; i < 2; i++) {
                int lane = r % 2 == 0 ? i : 1 - i;
                ManagedFakeProbe.reset();
                double[] c = streaming(lane == 1, idleJob, idleSeconds);
                idleCpus[lane][r] = c[0];
                idleJit[lane][r] = c[1];
                for (long d : ManagedFakeProbe.emitDelays()) {
                    idleDelays.get(lane).add(d);
                }
            }
        }
        long[][] delays = new long[2][];
        double[] idleCpu = new double[2];
        double[] idleJitMedian = new double[2];
        double[] idleSteady = new double[2];
        for (int lane = 0; lane < 2; lane++) {
            delays[lane] =
                    idleDelays.get(lane).stream().mapToLong(Long::longValue).sorted().toArray();
            idleCpu[lane] = median(idleCpus[lane]);
            idleJitMedian[lane] = median(idleJit[lane]);
            double[] steady = new double[idleReps];
            for (int r = 0; r < idleReps; r++) {
                steady[r] = idleCpus[lane][r] - idleJit[lane][r];
            }
            idleSteady[lane] = median(steady);
        }
        table.add(
                row("idle reader: row due -> emitted p50/p99", pcts2(delays[0]), pcts2(delays[1])));
        table.add(
                row(
                        "process CPU (of which JIT), streaming 20 rows/s (% of one core)",
                        fmt("%.1f %% (%.1f %%)", idleCpu[0], idleJitMedian[0]),
                        fmt("%.1f %% (%.1f %%)", idleCpu[1], idleJitMedian[1])));
        gates.ratio(
                "Fake p=1, 20 rows/s",
                GateTable.Criterion.CPU,
                idleSteady[0],
                idleSteady[1],
                "%.1f %%");
        gates.idleLatency(
                "Fake p=1, 20 rows/s", pct(delays[0], 99) / 1e6, pct(delays[1], 99) / 1e6);
        for (int l = 0; l < 2; l++) {
            laneJson[l].set("idleRowDueToEmitted", BenchReport.distribution(delays[l], true));
            laneJson[l].put("streaming20RowsPerSecondCpuPercent", idleCpu[l]);
            laneJson[l].put("streaming20RowsPerSecondJitCpuPercent", idleJitMedian[l]);
        }
        report.panel(
                "idle reader (20 rows/s): row due -> emitted",
                List.of(
                        new LatencyPlot.Series(LANES[0], delays[0]),
                        new LatencyPlot.Series(LANES[1], delays[1])));

        // 4. Backpressure (throttled sink) and loaded-machine scenarios, in their own class.
        new BackpressureScenarios(zeta, quick).run(table, report, laneJson);

        // 5. Scale: checkpoint time at p=16 and p=64, CPU with 16 idle and slow-data readers.
        new ScaleScenarios(zeta, quick).run(table, laneJson);

        // 6. Split storms (last: they leave the engine tens of finished jobs' state).
        SplitStormScenarios.gate(zeta, gates, quick);

        print(table);
        gates.finish(zeta);
        gates.print();
        gates.write(json);
        Path[] written = report.write(Paths.get("target"), "side-by-side");
        for (Path p : written) {
            System.out.println("written " + p.toAbsolutePath());
        }
    }

    private String job(boolean laneA, String mode, String sourceExtra, String sinkRunId) {
        return "env {\n  job.mode = \""
                + mode
                + "\"\n  parallelism = 1\n  checkpoint.interval = "
                + Long.getLong("side-by-side.checkpoint-interval", 1000)
                + "\n}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFakeTesting\"\n    job-name = \""
                + (laneA ? "side-a" : "side-b")
                + "\"\n"
                + sourceExtra
                + "  }\n}\n"
                + "sink {\n  ManagedCount {\n    run.id = \""
                + sinkRunId
                + "\"\n  }\n}\n";
    }

    /** Returns {rows/s, CPU-s per million rows}; CPU less the JIT compiler's (SteadyCpu). */
    private double[] throughput(boolean laneA, long rows) throws Exception {
        String runId = "tp-" + (++runs);
        int splits = 4;
        String src =
                "    split.count = "
                        + splits
                        + "\n    rows.per.split = "
                        + rows / splits
                        + "\n    bounded = true\n";
        RuntimeStats.reset();
        Map<String, Long> threads0 =
                ScaleScenarios.THREADS_BREAKDOWN ? ScaleScenarios.threadCpu() : null;
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job(laneA, "BATCH", src, runId));
        JobResult r = zeta.completion(jobId).get(10, TimeUnit.MINUTES);
        long wall = System.nanoTime() - t0;
        long cpuNanos = SteadyCpu.now().steadySince(cpu0);
        if (threads0 != null) {
            ScaleScenarios.printThreadCpu(LANES[laneA ? 1 : 0] + ", throughput", threads0);
        }
        check(r, CountingSink.count(runId) == rows, "throughput run lost or duplicated rows");
        if (laneA && RuntimeStats.readersOpened() == 0) {
            throw new IllegalStateException("Lane A run did not use the managed runtime");
        }
        return new double[] {rows / (wall / 1e9), (cpuNanos / 1e9) / (rows / 1e6)};
    }

    /**
     * SeaTunnel's own FakeSource on the same p=1 bounded job, all rows in one split: its reader
     * sleeps 1 s after every {@code pollNext} (connector-fake 2.3.8), so the figure is taken from
     * the submit to the last row at the sink, leaving out the sleeps after it. Returns {rows/s,
     * CPU-s per million rows, the JIT compiler's excluded} over that interval.
     */
    private double[] stockFakeThroughput(long rows) throws Exception {
        String runId = "stock-" + (++runs);
        String job =
                "env {\n  job.mode = \"BATCH\"\n  parallelism = 1\n  checkpoint.interval = 1000\n}\n"
                        + "source {\n  FakeSource {\n    row.num = "
                        + rows
                        + "\n    split.num = 1\n"
                        + "    schema = { fields { id = \"bigint\", name = \"string\" } }\n  }\n}\n"
                        + "sink {\n  ManagedCount {\n    run.id = \""
                        + runId
                        + "\"\n  }\n}\n";
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job);
        long bound = t0 + TimeUnit.MINUTES.toNanos(10);
        while (CountingSink.count(runId) < rows && System.nanoTime() - bound < 0) {
            waitFor(Duration.ofMillis(5));
        }
        long wall = System.nanoTime() - t0;
        long cpuNanos = SteadyCpu.now().steadySince(cpu0);
        JobResult r = zeta.completion(jobId).get(10, TimeUnit.MINUTES);
        check(r, CountingSink.count(runId) == rows, "stock FakeSource run lost or duplicated rows");
        return new double[] {rows / (wall / 1e9), (cpuNanos / 1e9) / (rows / 1e6)};
    }

    /**
     * Runs an unbounded job for a while, cancels it, returns the process CPU % meanwhile and the
     * JIT compiler's part of it.
     */
    private double[] streaming(boolean laneA, String extra, long seconds) throws Exception {
        String runId = "st-" + (++runs);
        String src =
                "    split.count = 2\n    bounded = false\n    slow.data.jitter = true\n    "
                        + extra
                        + "\n";
        RuntimeStats.reset();
        // Start each from a collected heap: garbage of the previous job is not this one's CPU.
        System.gc();
        long jobId = zeta.submit(job(laneA, "STREAMING", src, runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, Duration.ofSeconds(60));
        // Let the job settle before measuring.
        waitFor(Duration.ofSeconds(2));
        ManagedFakeProbe.enable();
        Map<String, Long> threads0 =
                ScaleScenarios.THREADS_BREAKDOWN ? ScaleScenarios.threadCpu() : null;
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        waitFor(Duration.ofSeconds(seconds));
        SteadyCpu cpu1 = SteadyCpu.now();
        long wall = System.nanoTime() - t0;
        ManagedFakeProbe.disable();
        if (threads0 != null) {
            ScaleScenarios.printThreadCpu(LANES[laneA ? 1 : 0] + ", p=1, " + extra, threads0);
        }
        cancelAndAwaitEnd(zeta, jobId);
        return new double[] {
            100.0 * cpu1.processSince(cpu0) / wall, 100.0 * cpu1.compilerSince(cpu0) / wall
        };
    }

    /**
     * Cancels a measured job and waits until its tasks have stopped: the master takes a cancel at
     * once, but the job's tasks wind down after that, and a next run started meanwhile would share
     * the cores with them. Prints how long that took when it was long enough to matter.
     */
    static void cancelAndAwaitEnd(EmbeddedZeta zeta, long jobId) throws Exception {
        long t0 = System.nanoTime();
        zeta.cancelAndAwaitEnd(jobId, Duration.ofSeconds(120));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        if (ms >= 500) {
            System.out.printf("job %d ended %,d ms after its cancel%n", jobId, ms);
        }
    }

    /** A bounded wait on a monitor nobody notifies: the runner's pacing, not a test's sleep. */
    static void waitFor(Duration d) throws InterruptedException {
        Object o = new Object();
        long end = System.nanoTime() + d.toNanos();
        synchronized (o) {
            for (long left = d.toMillis(); left > 0; left = (end - System.nanoTime()) / 1_000_000) {
                o.wait(left);
            }
        }
    }

    private static void check(JobResult r, boolean ok, String what) {
        if (r.getStatus() != JobStatus.FINISHED || !ok) {
            throw new IllegalStateException(what + ": " + r.getStatus() + " " + r.getError());
        }
    }

    static String pcts(long[] ns) {
        if (ns.length == 0) {
            return "no barriers";
        }
        return fmt(
                "%s / %s / %s ms (n=%d)",
                ms(pct(ns, 50)), ms(pct(ns, 99)), ms(ns[ns.length - 1]), ns.length);
    }

    static String pcts2(long[] ns) {
        if (ns.length == 0) {
            return "n/a";
        }
        return fmt("%s / %s ms (n=%d)", ms(pct(ns, 50)), ms(pct(ns, 99)), ns.length);
    }

    static String ms(long ns) {
        return fmt(ns < 10_000_000 ? "%.2f" : "%.0f", ns / 1e6);
    }

    static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static void putAll(ArrayNode array, double[] values) {
        for (double v : values) {
            array.add(v);
        }
    }

    /**
     * The median; of an even count the mean of the middle two (of a full run's two repetitions it
     * used to be the larger, which let one noisy window decide a lane's figure).
     */
    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        int mid = c.length / 2;
        return c.length % 2 == 1 ? c[mid] : (c[mid - 1] + c[mid]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }

    private static String[] row(String... cells) {
        return cells;
    }

    static void print(List<String[]> table) {
        // As many columns as the widest row: the storm table has eleven.
        int columns = 0;
        for (String[] r : table) {
            columns = Math.max(columns, r.length);
        }
        int[] w = new int[columns];
        for (String[] r : table) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        System.out.println();
        for (int k = 0; k < table.size(); k++) {
            String[] r = table.get(k);
            StringBuilder line = new StringBuilder("|");
            for (int i = 0; i < columns; i++) {
                String cell = i < r.length ? r[i] : "";
                line.append(' ').append(cell).append(" ".repeat(w[i] - cell.length())).append(" |");
            }
            System.out.println(line);
            if (k == 0) {
                StringBuilder rule = new StringBuilder("|");
                for (int i = 0; i < columns; i++) {
                    rule.append("-".repeat(w[i] + 2)).append('|');
                }
                System.out.println(rule);
            }
        }
    }
}
