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
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.XyPlot;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;

/**
 * A soak of one streaming Lane A job ({@code SideBySideRunner soak}): ManagedFake discovering
 * {@code -Dsoak.splits-per-second} (100) splits of {@code -Dsoak.rows-per-split} (10) rows each,
 * with slow data (50 ms), a checkpoint every {@code -Dsoak.checkpoint-interval-ms} (5 s), and a
 * reader failure every {@code -Dsoak.failure-minutes} (5), injected through the fault seam (run it
 * with {@code
 * -Dseatunnel.managed.fault-injection=org.apache.seatunnel.engine.managed.e2e.faults.ArmedFaults}).
 * For {@code -Dsoak.minutes} (60; the STIP's 24 hours is {@code 1440}) it samples every {@code
 * -Dsoak.sample-seconds} (30), each after a GC: heap in use, live threads, the coordinator's
 * tracked splits and queued commands, bytes in the readers' mailboxes, the oldest uncheckpointed
 * assignment's age, and the engine's checkpoint durations since the last sample. It fails when a
 * series grows: the median of its last quarter above its second quarter's by more than 20 % and
 * more than the series' own floor. Writes {@code target/soak.json} and {@code soak.svg}.
 *
 * <p>Threading: the runner's main thread (the checkpoint sampler has its own).
 */
final class SoakScenario {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A sampled series: its name, unit, the growth it may show without failing. */
    private static final String[][] SERIES = {
        {"heap", "MiB", "16"},
        {"threads", "threads", "8"},
        {"tracked splits", "splits", "2000"},
        {"coordinator queue", "commands", "64"},
        {"mailbox bytes", "bytes", "262144"},
        {"oldest uncheckpointed assignment", "ms", "30000"},
        {"checkpoint p50", "ms", "200"},
    };

    private final EmbeddedZeta zeta;
    private final long minutes = Long.getLong("soak.minutes", 60);
    private final long sampleSeconds = Long.getLong("soak.sample-seconds", 30);
    // 100 splits/s of 10 rows is about 40% of what the two slow-data readers fetch (2 x 64 rows
    // per ~50 ms): discovery that outruns the readers piles splits up in the enumerator, a growth
    // the soak reports (heap) but that says nothing about the runtime.
    private final long rate = Long.getLong("soak.splits-per-second", 100);
    private final long rowsPerSplit = Long.getLong("soak.rows-per-split", 10);
    private final long intervalMillis = Long.getLong("soak.checkpoint-interval-ms", 5000);
    private final long failureMinutes = Long.getLong("soak.failure-minutes", 5);

    private SoakScenario(EmbeddedZeta zeta) {
        this.zeta = zeta;
    }

    /** {@code SideBySideRunner soak}. */
    static void runOnly(EmbeddedZeta zeta) throws Exception {
        new SoakScenario(zeta).run();
    }

    private String job(String runId) {
        return "env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n  checkpoint.interval = "
                + intervalMillis
                + "\n  job.retry.interval.seconds = 1\n"
                // Zeta fails a job after job.retry.times (3) restores: room for every failure.
                + "  job.retry.times = "
                + (4 * minutes / failureMinutes + 10)
                + "\n}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \"side-a\""
                + "\n    split.count = 2\n    rows.per.split = "
                + rowsPerSplit
                + "\n    bounded = false\n"
                + "    slow.data.millis = 50\n    discovery.splits.per.second = "
                + rate
                + "\n  }\n}\n"
                + "sink {\n  ManagedCount {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    private long metric(long jobId, String name) {
        return zeta.jobMetricSum(jobId, name);
    }

    private void run() throws Exception {
        if (FaultSeam.INSTALLED == null) {
            throw new IllegalStateException(
                    "the soak injects its reader failures through the fault seam: run it with -D"
                            + FaultSeam.PROPERTY
                            + "="
                            + ArmedFaults.class.getName());
        }
        BenchReport report =
                new BenchReport(
                        String.format(
                                Locale.ROOT,
                                "Soak: %d min, %,d splits/s of %d rows discovered, a reader"
                                        + " failure every %d min, checkpoints every %d s",
                                minutes,
                                rate,
                                rowsPerSplit,
                                failureMinutes,
                                intervalMillis / 1000));
        ObjectNode json = report.json();
        json.put("minutes", minutes);
        json.put("splitsPerSecond", rate);
        json.put("failureMinutes", failureMinutes);
        json.put("checkpointIntervalMs", intervalMillis);
        ArrayNode samples = json.putArray("samples");
        String runId = "soak";
        System.gc();
        long baseline = MEMORY.getHeapMemoryUsage().getUsed();
        long jobId = zeta.submit(job(runId));
        zeta.awaitStatus(jobId, JobStatus.RUNNING, Duration.ofSeconds(60));
        long start = System.nanoTime();
        long end = start + Duration.ofMinutes(minutes).toNanos();
        long nextFailure = start + Duration.ofMinutes(failureMinutes).toNanos();
        int failures = 0;
        List<double[]> rows = new ArrayList<>();
        EngineCheckpointTimes times = EngineCheckpointTimes.start(zeta, jobId);
        while (System.nanoTime() < end) {
            SideBySideRunner.waitFor(Duration.ofSeconds(sampleSeconds));
            if (System.nanoTime() >= nextFailure) {
                // The next split a reader is given fails it; the job restores.
                ArmedFaults.arm(
                        FaultSite.CONNECTOR_APPLY_BEFORE_RETURN,
                        FaultAction.CRASH,
                        jobId,
                        null,
                        0,
                        1,
                        0);
                failures++;
                nextFailure += Duration.ofMinutes(failureMinutes).toNanos();
            }
            long[] cps = times.stop();
            times = EngineCheckpointTimes.start(zeta, jobId);
            System.gc();
            double t = (System.nanoTime() - start) / 60e9;
            long[] sorted = cps.clone();
            Arrays.sort(sorted);
            double[] v = {
                t,
                (MEMORY.getHeapMemoryUsage().getUsed() - baseline) / 1048576.0,
                THREADS.getThreadCount(),
                metric(jobId, "ManagedSourceAssignmentTrackerSplits"),
                metric(jobId, "ManagedSourceCoordinatorQueuedCommands"),
                metric(jobId, "ManagedSourceMailboxBytes"),
                metric(jobId, "ManagedSourceAssignmentOldestUncheckpointedAgeMillis"),
                sorted.length == 0 ? 0 : sorted[sorted.length / 2] / 1e6
            };
            rows.add(v);
            ObjectNode s = samples.addObject();
            s.put("minutes", t);
            for (int i = 0; i < SERIES.length; i++) {
                s.put(SERIES[i][0], v[i + 1]);
            }
            s.put("rowsCommitted", CountingSink.count(runId));
            s.put("readerFailuresInjected", failures);
            System.out.printf(
                    Locale.ROOT,
                    "soak %.1f min: heap %.0f MiB, %.0f threads, %.0f tracked, %.0f queued, %.0f"
                            + " mailbox bytes, oldest %.0f ms, checkpoint p50 %.0f ms, %,d rows, %d"
                            + " failures%n",
                    t,
                    v[1],
                    v[2],
                    v[3],
                    v[4],
                    v[5],
                    v[6],
                    v[7],
                    CountingSink.count(runId),
                    failures);
        }
        times.stop();
        ArmedFaults.disarm();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long committed = CountingSink.count(runId);
        json.put("rowsCommitted", committed);
        json.put("rowsPerSecondCommitted", committed / elapsed);
        json.put("rowsPerSecondDiscovered", (double) rate * rowsPerSplit);
        System.out.printf(
                Locale.ROOT,
                "soak: %,.0f rows/s committed on average, discovery offers %,d rows/s%n",
                committed / elapsed,
                rate * rowsPerSplit);
        SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        List<String> grown = new ArrayList<>();
        ObjectNode verdicts = json.putObject("growth");
        for (int i = 0; i < SERIES.length; i++) {
            double[] q = quarters(rows, i + 1);
            boolean grew = q[3] > q[1] * 1.2 && q[3] - q[1] > Double.parseDouble(SERIES[i][2]);
            verdicts.putObject(SERIES[i][0])
                    .put("firstSample", rows.isEmpty() ? 0 : rows.get(0)[i + 1])
                    .put("lastSample", rows.isEmpty() ? 0 : rows.get(rows.size() - 1)[i + 1])
                    .put("secondQuarterMedian", q[1])
                    .put("lastQuarterMedian", q[3])
                    .put("grew", grew);
            System.out.printf(
                    Locale.ROOT,
                    "%s: first %.0f, last %.0f, median of the second quarter %.0f, of the last"
                            + " %.0f %s%s%n",
                    SERIES[i][0],
                    rows.isEmpty() ? 0 : rows.get(0)[i + 1],
                    rows.isEmpty() ? 0 : rows.get(rows.size() - 1)[i + 1],
                    q[1],
                    q[3],
                    SERIES[i][1],
                    grew ? "  GREW" : "");
            if (grew) {
                grown.add(SERIES[i][0]);
            }
            report.linePanel(
                    new XyPlot.Panel(
                            SERIES[i][0],
                            "minutes",
                            SERIES[i][1],
                            false,
                            List.of(DiscoveryScenario.series("Lane A (managed)", rows, i + 1))));
        }
        for (Path p : report.write(Paths.get("target"), "soak")) {
            System.out.println("written " + p.toAbsolutePath());
        }
        if (!grown.isEmpty()) {
            throw new AssertionError("monotonic growth in " + grown);
        }
    }

    /** The medians of the four quarters of one column. */
    private static double[] quarters(List<double[]> rows, int column) {
        double[] out = new double[4];
        int n = rows.size();
        for (int q = 0; q < 4; q++) {
            List<Double> xs = new ArrayList<>();
            for (int i = q * n / 4; i < (q + 1) * n / 4; i++) {
                xs.add(rows.get(i)[column]);
            }
            xs.sort(Double::compare);
            out[q] = xs.isEmpty() ? 0 : xs.get(xs.size() / 2);
        }
        return out;
    }
}
