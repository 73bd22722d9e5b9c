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
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.GateRows;
import org.apache.seatunnel.managed.bench.report.SteadyCpu;
import org.apache.seatunnel.managed.bench.report.XyPlot;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * Split storms per lane: bounded ManagedFake jobs of one-row splits, for every number of splits and
 * parallelism asked for, with checkpoints off (a BATCH job without {@code checkpoint.interval}) or
 * on. For each run: wall time from submit to FINISHED, splits per second, process CPU, the engine's
 * checkpoint trigger → completed, and optionally the live heap. A run counts as FINISHED only if
 * the sink saw the row ids 0..n-1 once each (NOT_EXACTLY_ONCE otherwise). Written as {@code
 * target/side-by-side-storm.json} with splits/s against parallelism plotted in {@code .svg}.
 *
 * <p>Properties: {@code -Dstorm.splits=10000,100000,1000000}, {@code
 * -Dstorm.parallelism=1,16,64,128,512}, {@code -Dstorm.checkpoints=off,on}, {@code
 * -Dstorm.checkpoint-interval-ms=2000}, {@code -Dstorm.lanes=B,A}, {@code
 * -Dstorm.timeout-seconds=900} (a run that takes longer is cancelled and reported TIMEOUT), {@code
 * -Dstorm.heap=true} (a sampler forces a GC every second and keeps the largest heap in use after
 * it, less the heap in use before the job: the job's live heap, at the price of slower runs),
 * {@code -Dstorm.repeat=3} (runs per lane and point, lanes in alternating order; the table shows
 * the median with its range, the JSON every run), {@code -Dstorm.warmup-splits} (default: the
 * largest of {@code storm.splits}), {@code -Dstorm.warmup-parallelism} (default: the largest of
 * {@code storm.parallelism}) and {@code -Dstorm.warmup-runs=2} (unmeasured runs per lane and
 * checkpoint mode first, printed as {@code warm-up} rows; 0: none), {@code -Dscale.threads=true}
 * (CPU per thread group of each run), {@code -Dstorm.trace=true} (each run's rows at the sink and
 * the process CPU every 100 ms, and when each engine checkpoint was triggered and completed).
 *
 * <p>Threading: the runner's main thread; the heap sampler is one daemon thread per run.
 */
final class SplitStormScenarios {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    // -Dstorm.trace=true: each run's rows at the sink every 100 ms and its engine checkpoints.
    private static final boolean TRACE = Boolean.getBoolean("storm.trace");
    private static final long TRACE_STEP_MILLIS = 100;

    private final EmbeddedZeta zeta;
    private final long[] splits;
    private final long[] parallelism;
    private final List<String> checkpoints;
    private final List<String> lanes;
    private final long intervalMillis;
    private final long timeoutSeconds;
    private final boolean heap;
    private final int repeat;
    private final long warmupSplits;
    private final int warmupParallelism;
    private final int warmupRuns;
    private int runs;

    private SplitStormScenarios(EmbeddedZeta zeta, boolean quick) {
        this.zeta = zeta;
        this.splits = longs("storm.splits", quick ? "10000,100000" : "10000,100000,1000000");
        this.parallelism = longs("storm.parallelism", quick ? "1,16" : "1,16,64,128,512");
        this.checkpoints = List.of(System.getProperty("storm.checkpoints", "off,on").split(","));
        this.lanes = List.of(System.getProperty("storm.lanes", "B,A").split(","));
        this.intervalMillis = Long.getLong("storm.checkpoint-interval-ms", 2000);
        this.timeoutSeconds = Long.getLong("storm.timeout-seconds", 900);
        this.heap = Boolean.getBoolean("storm.heap");
        this.repeat = Math.max(1, Integer.getInteger("storm.repeat", quick ? 1 : 3));
        // Warm-up runs as large as the largest measured job: a smaller one ends before its first
        // periodic checkpoint, so the measured runs paid for compiling the checkpoint path (and
        // Lane A, whose path to a reader is longer, paid more: 2.9-3.3 s of JIT compiler CPU in
        // each of the first 1,000,000-split runs after a 200,000-split warm-up, Lane B 0.8-1.8 s).
        this.warmupSplits =
                Long.getLong("storm.warmup-splits", Arrays.stream(splits).max().orElse(0));
        // At the largest measured parallelism: after warm-ups at p=2, the p=64 runs still spent
        // 0.3-4.9 CPU-s each in the JIT compiler (the engine's paths for 128 tasks, and each
        // lane's paths for many readers), on the two cores the job reads on.
        this.warmupParallelism =
                Integer.getInteger(
                        "storm.warmup-parallelism",
                        (int) Arrays.stream(parallelism).max().orElse(2));
        this.warmupRuns = Math.max(0, Integer.getInteger("storm.warmup-runs", 2));
    }

    /**
     * The split-storm points of the gate table: bounded jobs of 1,000,000 one-row splits (at p=16
     * in a quick run, at p=16 and p=64 in a full one) with a checkpoint every 2 s, three runs per
     * lane in alternating order after two unmeasured runs of each lane at the largest point. Judged
     * on the median run's splits/s, the median CPU per million splits less the JIT's, the
     * checkpoint p99 over all of a lane's runs, and every run of both lanes exactly once (the
     * warm-ups counted at the point they ran at). A quick run judges the full run's first point,
     * not a smaller one: a 100,000-split job lasts under a second, mostly deployment, and judged
     * that instead of assignment.
     */
    static void gate(EmbeddedZeta zeta, GateRows gates, boolean quick) throws Exception {
        SplitStormScenarios s = new SplitStormScenarios(zeta, quick);
        long n = 1_000_000;
        int[] ps = quick ? new int[] {16} : new int[] {16, 64};
        int reps = 3;
        int warmups = 2;
        // Warm-up runs are runs too: one that lost or duplicated a row fails the exactly-once row.
        int[] warmupBad = new int[2];
        for (int i = 0; i < warmups; i++) {
            for (int lane = 0; lane < 2; lane++) {
                if (!s.run(lane == 1, n, ps[ps.length - 1], true).status.equals("FINISHED")) {
                    warmupBad[lane]++;
                }
            }
        }
        for (int p : ps) {
            List<List<Run>> byLane = List.of(new ArrayList<>(), new ArrayList<>());
            for (int r = 0; r < reps; r++) {
                for (int k = 0; k < 2; k++) {
                    int lane = r % 2 == 0 ? k : 1 - k;
                    System.gc();
                    Run run = s.run(lane == 1, n, p, true);
                    System.out.println("gate storm | " + String.join(" | ", run.row(null)));
                    byLane.get(lane).add(run);
                }
            }
            String point =
                    String.format(
                            Locale.ROOT,
                            "Split storm, %,d one-row splits, p=%d, a checkpoint every %d s",
                            n,
                            p,
                            s.intervalMillis / 1000);
            double[][] perSecond = new double[2][];
            double[][] cpuPerMillion = new double[2][];
            double[] checkpointP99 = new double[2];
            int[] bad = new int[2];
            for (int l = 0; l < 2; l++) {
                List<Run> finished = new ArrayList<>();
                List<Long> checkpoints = new ArrayList<>();
                for (Run r : byLane.get(l)) {
                    if (r.status.equals("FINISHED")) {
                        finished.add(r);
                    } else {
                        bad[l]++;
                    }
                    for (long c : r.checkpointNanos) {
                        checkpoints.add(c);
                    }
                }
                perSecond[l] = finished.stream().mapToDouble(Run::splitsPerSecond).toArray();
                cpuPerMillion[l] =
                        finished.stream()
                                .mapToDouble(r -> r.steadyCpuNanos / 1e9 / (r.splits / 1e6))
                                .toArray();
                checkpointP99[l] =
                        GateRows.p99Millis(
                                checkpoints.stream().mapToLong(Long::longValue).sorted().toArray());
            }
            gates.saturated(point, perSecond, cpuPerMillion, "splits");
            gates.checkpointP99(point, checkpointP99[0], checkpointP99[1]);
            // The warm-ups ran at the largest point: they count there.
            boolean withWarmups = p == ps[ps.length - 1];
            int runs = reps + (withWarmups ? warmups : 0);
            gates.exactlyOnce(
                    point,
                    runs,
                    bad[0] + (withWarmups ? warmupBad[0] : 0),
                    bad[1] + (withWarmups ? warmupBad[1] : 0));
        }
    }

    /** {@code SideBySideRunner [quick] storm}: only the split storms. */
    static void runOnly(EmbeddedZeta zeta, boolean quick) throws Exception {
        new SplitStormScenarios(zeta, quick).run();
    }

    private static long[] longs(String property, String defaults) {
        String[] parts = System.getProperty(property, defaults).split(",");
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            v[i] = Long.parseLong(parts[i].trim());
        }
        return v;
    }

    private void run() throws Exception {
        BenchReport report =
                new BenchReport(
                        "Split storms: one-row splits, Lane B vs Lane A, one embedded Zeta");
        ObjectNode json = report.json();
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("maxHeapMiB", Runtime.getRuntime().maxMemory() >> 20);
        json.put("checkpointIntervalMs", intervalMillis);
        json.put("repetitions", repeat);
        ArrayNode results = json.putArray("runs");
        warmUp();
        List<String[]> table = new ArrayList<>();
        table.add(
                new String[] {
                    "splits",
                    "p",
                    "checkpoints",
                    "lane",
                    "status",
                    "wall",
                    "splits/s",
                    "CPU s",
                    "live heap",
                    "checkpoint p50 / max"
                });
        for (String cp : checkpoints) {
            boolean on = "on".equals(cp.trim());
            for (long n : splits) {
                // Lanes alternate at every point, so neither lane always runs on a warmer JVM.
                List<List<double[]>> points = new ArrayList<>();
                for (int l = 0; l < lanes.size(); l++) {
                    points.add(new ArrayList<>());
                }
                for (long p : parallelism) {
                    List<List<Run>> byLane = new ArrayList<>();
                    for (int l = 0; l < lanes.size(); l++) {
                        byLane.add(new ArrayList<>());
                    }
                    for (int r = 0; r < repeat; r++) {
                        // Every other repetition runs the lanes in the opposite order.
                        for (int k = 0; k < lanes.size(); k++) {
                            int l = r % 2 == 0 ? k : lanes.size() - 1 - k;
                            System.gc();
                            Run run = run("A".equals(lanes.get(l).trim()), n, (int) p, on);
                            ObjectNode o = results.addObject();
                            run.write(o);
                            o.put("repetition", r);
                            System.out.println(String.join(" | ", run.row(null)));
                            byLane.get(l).add(run);
                        }
                    }
                    for (int l = 0; l < lanes.size(); l++) {
                        Run median = median(byLane.get(l));
                        table.add(median.row(byLane.get(l)));
                        if (median.status.equals("FINISHED")) {
                            points.get(l).add(new double[] {p, median.splitsPerSecond()});
                        }
                    }
                }
                List<XyPlot.Series> series = new ArrayList<>();
                for (int l = 0; l < lanes.size(); l++) {
                    series.add(
                            new XyPlot.Series(
                                    laneName("A".equals(lanes.get(l).trim())),
                                    points.get(l).stream().mapToDouble(d -> d[0]).toArray(),
                                    points.get(l).stream().mapToDouble(d -> d[1]).toArray()));
                }
                report.linePanel(
                        new XyPlot.Panel(
                                String.format(
                                        Locale.ROOT,
                                        "%,d splits, checkpoints %s",
                                        n,
                                        on ? "every " + intervalMillis + " ms" : "off"),
                                "parallelism",
                                "splits/s",
                                true,
                                series));
            }
        }
        SideBySideRunner.print(table);
        for (Path p : report.write(Paths.get("target"), "side-by-side-storm")) {
            System.out.println("written " + p.toAbsolutePath());
        }
    }

    /**
     * The run of median wall time, or the first that did not finish: one failed repetition makes
     * the point a failure.
     */
    private static Run median(List<Run> runs) {
        for (Run r : runs) {
            if (!r.status.equals("FINISHED")) {
                return r;
            }
        }
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort((a, b) -> Long.compare(a.wallNanos, b.wallNanos));
        return sorted.get(sorted.size() / 2);
    }

    /** Unmeasured runs of every lane, so the first measured point does not pay for the JIT. */
    private void warmUp() throws Exception {
        if (warmupSplits <= 0) {
            return;
        }
        for (int i = 0; i < warmupRuns; i++) {
            for (String cp : checkpoints) {
                for (String lane : lanes) {
                    Run r =
                            run(
                                    "A".equals(lane.trim()),
                                    warmupSplits,
                                    warmupParallelism,
                                    "on".equals(cp.trim()));
                    System.out.println("warm-up | " + String.join(" | ", r.row(null)));
                }
            }
        }
    }

    private static String laneName(boolean laneA) {
        return laneA ? "Lane A (managed)" : "Lane B (stock path)";
    }

    private String job(boolean laneA, long n, int p, boolean checkpointsOn, String runId) {
        return "env {\n  job.mode = \"BATCH\"\n  parallelism = "
                + p
                + "\n"
                + (checkpointsOn ? "  checkpoint.interval = " + intervalMillis + "\n" : "")
                + "}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \""
                + (laneA ? "side-a" : "side-b")
                + "\"\n    split.count = "
                + n
                + "\n    rows.per.split = 1\n    bounded = true\n  }\n}\n"
                + "sink {\n  ManagedCount {\n    run.id = \""
                + runId
                + "\"\n    distinct.ids = true\n  }\n}\n";
    }

    private Run run(boolean laneA, long n, int p, boolean checkpointsOn) throws Exception {
        String runId = "storm-" + (++runs);
        RuntimeStats.reset();
        HeapSampler sampler = heap ? HeapSampler.start() : null;
        Map<String, Long> threads0 =
                ScaleScenarios.THREADS_BREAKDOWN ? ScaleScenarios.threadCpu() : null;
        long cpu0 = OS.getProcessCpuTime();
        SteadyCpu steady0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job(laneA, n, p, checkpointsOn, runId));
        EngineCheckpointTimes times =
                checkpointsOn ? EngineCheckpointTimes.start(zeta, jobId) : null;
        CompletableFuture<JobResult> done = zeta.completion(jobId);
        String status;
        String error = null;
        List<Long> series = new ArrayList<>();
        List<Long> cpuSeries = new ArrayList<>();
        try {
            JobResult r =
                    TRACE
                            ? awaitSampling(done, runId, series, cpuSeries)
                            : done.get(timeoutSeconds, TimeUnit.SECONDS);
            status = r.getStatus().name();
            error = r.getError();
        } catch (TimeoutException e) {
            status = "TIMEOUT";
            SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        }
        long wall = System.nanoTime() - t0;
        long cpu = OS.getProcessCpuTime() - cpu0;
        long steadyCpu = SteadyCpu.now().steadySince(steady0);
        if (threads0 != null) {
            ScaleScenarios.printThreadCpu(laneName(laneA) + ", " + n + " splits, p=" + p, threads0);
        }
        long[] cps = times == null ? new long[0] : times.stop();
        // -Dstorm.trace=true: rows at the sink every 100 ms and when each checkpoint ran,
        // against the run's wall time.
        if (TRACE) {
            System.out.printf(
                    Locale.ROOT,
                    "  %s, %d splits, p=%d: FINISHED at +%d ms; thousand rows per 100 ms from the"
                            + " submit: %s%n",
                    laneName(laneA),
                    n,
                    p,
                    TimeUnit.NANOSECONDS.toMillis(wall),
                    perInterval(series, 1000));
            // Cores busy per 100 ms (process CPU, all threads): where both are low, the job waits.
            System.out.printf(
                    Locale.ROOT,
                    "    process CPU per 100 ms, in hundredths of a core: %s%n",
                    perInterval(cpuSeries, TimeUnit.MILLISECONDS.toNanos(TRACE_STEP_MILLIS) / 100));
            for (String line : times == null ? List.<String>of() : times.timeline()) {
                System.out.println("    " + line);
            }
        }
        long liveHeap = sampler == null ? -1 : sampler.stop();
        long rows = CountingSink.count(runId);
        if (status.equals(JobStatus.FINISHED.name()) && rows != n) {
            status = "WRONG_COUNT";
            error = rows + " rows for " + n + " splits";
        } else if (status.equals(JobStatus.FINISHED.name())
                && !CountingSink.idsExactlyOnce(runId, n)) {
            // n rows can still hide a duplicate beside a loss: the ids must be 0..n-1, once each.
            status = "NOT_EXACTLY_ONCE";
            error = "row ids are not 0.." + (n - 1) + " once each";
        }
        CountingSink.clearIds(runId);
        if (laneA && RuntimeStats.readersOpened() == 0) {
            status = "NOT_LANE_A";
        }
        return new Run(
                laneA, n, p, checkpointsOn, status, error, wall, cpu, steadyCpu, liveHeap, cps);
    }

    /**
     * Waits for the job's end, reading the sink's row count every 100 ms into {@code series} and
     * the process CPU time (ns) into {@code cpuSeries}.
     */
    private JobResult awaitSampling(
            CompletableFuture<JobResult> done,
            String runId,
            List<Long> series,
            List<Long> cpuSeries)
            throws Exception {
        long cpu0 = OS.getProcessCpuTime();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (; ; ) {
            try {
                return done.get(TRACE_STEP_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                series.add(CountingSink.count(runId));
                cpuSeries.add(OS.getProcessCpuTime() - cpu0);
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
        }
    }

    /** The increments of a cumulative {@code series}, each in units of {@code unit}, rounded. */
    private static String perInterval(List<Long> series, long unit) {
        StringBuilder b = new StringBuilder();
        long last = 0;
        for (long c : series) {
            b.append(b.length() == 0 ? "" : " ").append((c - last + unit / 2) / unit);
            last = c;
        }
        return b.toString();
    }

    /** The figures of one run. */
    private static final class Run {
        final boolean laneA;
        final long splits;
        final int parallelism;
        final boolean checkpoints;
        final String status;
        final String error;
        final long wallNanos;
        final long cpuNanos;
        // Process CPU less the JIT compiler threads' (SteadyCpu), what the gate judges.
        final long steadyCpuNanos;
        final long liveHeapBytes;
        final long[] checkpointNanos;

        Run(
                boolean laneA,
                long splits,
                int parallelism,
                boolean checkpoints,
                String status,
                String error,
                long wallNanos,
                long cpuNanos,
                long steadyCpuNanos,
                long liveHeapBytes,
                long[] checkpointNanos) {
            this.laneA = laneA;
            this.splits = splits;
            this.parallelism = parallelism;
            this.checkpoints = checkpoints;
            this.status = status;
            this.error = error;
            this.wallNanos = wallNanos;
            this.cpuNanos = cpuNanos;
            this.steadyCpuNanos = steadyCpuNanos;
            this.liveHeapBytes = liveHeapBytes;
            this.checkpointNanos = checkpointNanos;
        }

        double splitsPerSecond() {
            return splits / (wallNanos / 1e9);
        }

        void write(ObjectNode r) {
            r.put("lane", laneName(laneA));
            r.put("splits", splits);
            r.put("parallelism", parallelism);
            r.put("checkpoints", checkpoints);
            r.put("status", status);
            if (error != null) {
                r.put("error", error);
            }
            r.put("wallMs", wallNanos / 1e6);
            r.put("splitsPerSecond", splitsPerSecond());
            r.put("cpuSeconds", cpuNanos / 1e9);
            r.put("steadyCpuSeconds", steadyCpuNanos / 1e9);
            if (liveHeapBytes >= 0) {
                r.put("liveHeapMiB", liveHeapBytes / (double) (1 << 20));
            }
            r.set("checkpointDuration", BenchReport.distribution(checkpointNanos, false));
        }

        /** The table row; with its repetitions, the wall time's range follows the median's. */
        String[] row(List<Run> repetitions) {
            String wall = String.format(Locale.ROOT, "%.2f s", wallNanos / 1e9);
            if (repetitions != null && repetitions.size() > 1) {
                long lo = Long.MAX_VALUE;
                long hi = 0;
                for (Run r : repetitions) {
                    lo = Math.min(lo, r.wallNanos);
                    hi = Math.max(hi, r.wallNanos);
                }
                wall += String.format(Locale.ROOT, " (%.2f-%.2f)", lo / 1e9, hi / 1e9);
            }
            return new String[] {
                String.format(Locale.ROOT, "%,d", splits),
                String.valueOf(parallelism),
                checkpoints ? "on" : "off",
                laneA ? "A" : "B",
                status,
                wall,
                String.format(Locale.ROOT, "%,.0f", splitsPerSecond()),
                String.format(Locale.ROOT, "%.1f", cpuNanos / 1e9),
                liveHeapBytes < 0
                        ? "-"
                        : String.format(Locale.ROOT, "%.0f MiB", liveHeapBytes / 1048576.0),
                checkpointNanos.length == 0
                        ? "-"
                        : SideBySideRunner.ms(SideBySideRunner.pct(checkpointNanos, 50))
                                + " / "
                                + SideBySideRunner.ms(checkpointNanos[checkpointNanos.length - 1])
                                + " ms (n="
                                + checkpointNanos.length
                                + ")"
            };
        }
    }

    /**
     * Forces a GC every second and keeps the largest heap in use right after one, less what was in
     * use after a GC before the job started.
     */
    private static final class HeapSampler {
        private final long baseline;
        private final Object pace = new Object();
        private volatile boolean running = true;
        private volatile long peak;
        private Thread thread;

        private HeapSampler(long baseline) {
            this.baseline = baseline;
        }

        static HeapSampler start() {
            System.gc();
            HeapSampler s = new HeapSampler(MEMORY.getHeapMemoryUsage().getUsed());
            s.thread = new Thread(s::loop, "storm-heap-sampler");
            s.thread.setDaemon(true);
            s.thread.start();
            return s;
        }

        private void loop() {
            while (running) {
                System.gc();
                peak = Math.max(peak, MEMORY.getHeapMemoryUsage().getUsed());
                synchronized (pace) {
                    try {
                        pace.wait(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        long stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(10_000);
            return Math.max(0, peak - baseline);
        }
    }
}
