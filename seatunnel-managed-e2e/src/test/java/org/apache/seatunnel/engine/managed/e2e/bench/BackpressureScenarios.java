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

import static org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner.fmt;
import static org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner.median;
import static org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner.pcts;
import static org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner.pcts2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeProbe;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.engine.managed.e2e.ThrottledSink;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.LatencyPlot;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * The side-by-side runner's backpressure and loaded-machine scenarios (issue 15 items 1, 2): an
 * unpaced p=1 source into a sink capped at 2,000 and at 20,000 rows/s, and the p=1 slow-data job
 * with every core kept busy by spinning threads. Each lane is measured alternately in the same
 * engine; each row shows the connector's own barrier wait (enumerator snapshot → reader snapshot)
 * and checkpoint duration (enumerator snapshot → completed), the engine's own checkpoint duration
 * (trigger → completed, from its checkpoint coordinator), the Lane A runtime's own barrier wait
 * (snapshot demanded → taken), and for the throttled sink the rows/s the sink took.
 *
 * <p>Threading: the runner's thread.
 */
final class BackpressureScenarios {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final String[] LANES = {"Lane B (stock path)", "Lane A (managed)"};

    private final EmbeddedZeta zeta;
    private final boolean quick;
    private int runs;

    BackpressureScenarios(EmbeddedZeta zeta, boolean quick) {
        this.zeta = zeta;
        this.quick = quick;
    }

    /** What one streaming run measured. */
    private static final class Run {
        long[] barrierWaits;
        long[] probeDurations;
        long[] engineDurations;
        long[] runtimeWaits;
        long[] lockWaits;
        double sinkRowsPerSecond;
        double cpuPercent;
        // Lane A only: barrier handoffs, handoff timeouts, output-blocked ms (summed over reps).
        long[] laneA = new long[3];
    }

    /** Runs every scenario, appending rows to {@code table} and results to the report. */
    void run(List<String[]> table, BenchReport report, ObjectNode[] laneJson) throws Exception {
        int reps = quick ? 1 : 2;
        long seconds = quick ? 6 : 15;
        for (long rate : new long[] {2_000, 20_000}) {
            String sink =
                    ThrottledSink.IDENTIFIER
                            + " {\n    run.id = \"%s\"\n    rows.per.second = "
                            + rate
                            + "\n  }";
            Run[] r = alternate(reps, "", sink, seconds, false);
            String what = "sink capped at " + fmt("%,d", rate) + " rows/s";
            addRows(table, what, r, true);
            record(report, laneJson, "throttledSink" + rate, what, r);
        }
        for (int slow : new int[] {0, 200, 1000}) {
            String sink = CountingSink.IDENTIFIER + " {\n    run.id = \"%s\"\n  }";
            Run[] r = alternate(reps, "    slow.data.millis = " + slow + "\n", sink, seconds, true);
            String what = "p=1, slow data " + slow + " ms, all cores busy";
            addRows(table, what, r, false);
            record(report, laneJson, "saturatedSlowData" + slow, what, r);
        }
    }

    /** Lane B then Lane A, {@code reps} times; samples of the repetitions are pooled. */
    private Run[] alternate(int reps, String source, String sink, long seconds, boolean burn)
            throws Exception {
        Run[] pooled = {new Run(), new Run()};
        double[][] rps = new double[2][reps];
        double[][] cpu = new double[2][reps];
        for (int rep = 0; rep < reps; rep++) {
            for (int lane = 0; lane < 2; lane++) {
                Run r = streaming(lane == 1, source, sink, seconds, burn);
                Run p = pooled[lane];
                p.barrierWaits = concat(p.barrierWaits, r.barrierWaits);
                p.probeDurations = concat(p.probeDurations, r.probeDurations);
                p.engineDurations = concat(p.engineDurations, r.engineDurations);
                p.runtimeWaits = concat(p.runtimeWaits, r.runtimeWaits);
                p.lockWaits = concat(p.lockWaits, r.lockWaits);
                for (int i = 0; i < p.laneA.length; i++) {
                    p.laneA[i] += r.laneA[i];
                }
                rps[lane][rep] = r.sinkRowsPerSecond;
                cpu[lane][rep] = r.cpuPercent;
            }
        }
        for (int lane = 0; lane < 2; lane++) {
            pooled[lane].sinkRowsPerSecond = median(rps[lane]);
            pooled[lane].cpuPercent = median(cpu[lane]);
        }
        return pooled;
    }

    private Run streaming(
            boolean laneA, String source, String sinkTemplate, long seconds, boolean burn)
            throws Exception {
        String runId = "bp-" + (++runs) + "-" + System.nanoTime();
        String hocon =
                "env {\n  job.mode = \"STREAMING\"\n  parallelism = 1\n"
                        + "  checkpoint.interval = 1000\n}\n"
                        + "source {\n  Managed {\n    connector = \"ManagedFakeTesting\"\n"
                        + "    job-name = \""
                        + (laneA ? "side-a" : "side-b")
                        + "\"\n    split.count = 2\n    bounded = false\n"
                        + "    slow.data.jitter = true\n"
                        + source
                        + "  }\n}\n"
                        + "sink {\n  "
                        + String.format(Locale.ROOT, sinkTemplate, runId)
                        + "\n}\n";
        RuntimeStats.reset();
        long jobId = zeta.submit(hocon);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, Duration.ofSeconds(60));
        CpuBurners burners = burn ? CpuBurners.start() : null;
        Run r = new Run();
        try {
            // Let the job settle (and the in-flight bound learn the sink's rate) first.
            pace(Duration.ofSeconds(3));
            if (laneA && RuntimeStats.readersLive() == 0) {
                throw new IllegalStateException("Lane A run did not use the managed runtime");
            }
            ManagedFakeProbe.enable();
            // Only the measured window's runtime figures.
            RuntimeStats.clearBarrierWaits();
            long[] laneA0 = laneACounters();
            EngineCheckpointTimes engine = EngineCheckpointTimes.start(zeta, jobId);
            BarrierLockWaits lockWaits = BarrierLockWaits.start();
            long rows0 = ThrottledSink.count(runId);
            long cpu0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            pace(Duration.ofSeconds(seconds));
            long wall = System.nanoTime() - t0;
            r.cpuPercent = 100.0 * (OS.getProcessCpuTime() - cpu0) / wall;
            r.sinkRowsPerSecond = (ThrottledSink.count(runId) - rows0) / (wall / 1e9);
            ManagedFakeProbe.disable();
            r.engineDurations = engine.stop();
            r.barrierWaits = ManagedFakeProbe.barrierWaits();
            r.lockWaits = lockWaits.stop(r.barrierWaits.length);
            r.probeDurations = ManagedFakeProbe.checkpointDurations();
            r.runtimeWaits = RuntimeStats.barrierWaitsSorted();
            long[] laneA1 = laneACounters();
            for (int i = 0; i < laneA1.length; i++) {
                r.laneA[i] = laneA1[i] - laneA0[i];
            }
        } finally {
            if (burners != null) {
                burners.close();
            }
        }
        SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        return r;
    }

    private static long[] laneACounters() {
        return new long[] {
            RuntimeStats.total(RuntimeStats.Counter.BARRIER_HANDOFFS),
            RuntimeStats.total(RuntimeStats.Counter.BARRIER_HANDOFF_TIMEOUTS),
            RuntimeStats.total(RuntimeStats.Counter.OUTPUT_BLOCKED_NANOS) / 1_000_000
        };
    }

    private static void addRows(List<String[]> table, String what, Run[] r, boolean sinkRate) {
        table.add(
                row(
                        "barrier wait p50/p99/max, " + what,
                        pcts(r[0].barrierWaits),
                        pcts(r[1].barrierWaits)));
        table.add(
                row(
                        "  of which the barrier thread waited for the reader's lock, " + what,
                        pcts2(r[0].lockWaits),
                        pcts2(r[1].lockWaits)));
        table.add(
                row(
                        "checkpoint duration p50/p99 (enumerator snapshot -> complete), " + what,
                        pcts2(r[0].probeDurations),
                        pcts2(r[1].probeDurations)));
        table.add(
                row(
                        "engine checkpoint trigger -> completed p50/p99, " + what,
                        pcts2(r[0].engineDurations),
                        pcts2(r[1].engineDurations)));
        table.add(
                row(
                        "Lane A runtime barrier wait (snapshot demanded -> taken) p50/p99, " + what,
                        "-",
                        pcts2(r[1].runtimeWaits)));
        table.add(
                row(
                        "Lane A barrier handoffs / handoff timeouts / output-blocked ms, " + what,
                        "-",
                        fmt("%d / %d / %,d", r[1].laneA[0], r[1].laneA[1], r[1].laneA[2])));
        if (sinkRate) {
            table.add(
                    row(
                            "sink rows/s, " + what,
                            fmt("%,.0f", r[0].sinkRowsPerSecond),
                            fmt("%,.0f", r[1].sinkRowsPerSecond)));
        }
        table.add(
                row(
                        "process CPU (% of one core), " + what,
                        fmt("%.1f %%", r[0].cpuPercent),
                        fmt("%.1f %%", r[1].cpuPercent)));
    }

    private static void record(
            BenchReport report, ObjectNode[] laneJson, String key, String what, Run[] r) {
        for (int l = 0; l < 2; l++) {
            ObjectNode o = laneJson[l].with("backpressure").putObject(key);
            o.set("barrierWait", BenchReport.distribution(r[l].barrierWaits, true));
            o.set("checkpointDuration", BenchReport.distribution(r[l].probeDurations, true));
            o.set("engineCheckpointDuration", BenchReport.distribution(r[l].engineDurations, true));
            o.set("runtimeBarrierWait", BenchReport.distribution(r[l].runtimeWaits, false));
            o.set("barrierLockWait", BenchReport.distribution(r[l].lockWaits, true));
            o.put("sinkRowsPerSecond", r[l].sinkRowsPerSecond);
            o.put("cpuPercent", r[l].cpuPercent);
        }
        report.panel(
                "barrier wait, " + what,
                List.of(
                        new LatencyPlot.Series(LANES[0], r[0].barrierWaits),
                        new LatencyPlot.Series(LANES[1], r[1].barrierWaits)));
    }

    /** A bounded wait on a monitor nobody notifies: the runner's pacing, not a test's sleep. */
    private static void pace(Duration d) throws InterruptedException {
        Object o = new Object();
        long end = System.nanoTime() + d.toNanos();
        synchronized (o) {
            for (long left = d.toMillis(); left > 0; left = (end - System.nanoTime()) / 1_000_000) {
                o.wait(left);
            }
        }
    }

    private static long[] concat(long[] a, long[] b) {
        if (a == null) {
            return b == null ? new long[0] : b.clone();
        }
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        Arrays.sort(out);
        return out;
    }

    private static String[] row(String... cells) {
        return cells;
    }
}
