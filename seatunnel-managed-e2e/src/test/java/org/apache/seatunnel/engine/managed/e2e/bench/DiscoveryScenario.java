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
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.LatencyPlot;
import org.apache.seatunnel.managed.bench.report.XyPlot;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * A streaming enumerator that keeps discovering splits, per lane: a ManagedFake job with {@code
 * discovery.splits.per.second} (default 1,000) of one-row splits and checkpoints, run for {@code
 * -Ddiscovery.minutes} (default 30). Every {@code -Ddiscovery.sample-seconds} (default 10) it
 * forces a GC and records the heap in use, the rows committed against the splits due, and on Lane A
 * the assignments the coordinator tracks (created less collected and returned) and the bytes in the
 * readers' mailboxes; throughout, the engine's checkpoint trigger → completed. Written as {@code
 * target/side-by-side-discovery.json}, with the series plotted in {@code
 * side-by-side-discovery-lines.svg} and the checkpoint durations in {@code .svg}.
 *
 * <p>Threading: the runner's main thread (the checkpoint sampler has its own).
 */
final class DiscoveryScenario {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final EmbeddedZeta zeta;
    private final long rate = Long.getLong("discovery.splits-per-second", 1000);
    private final int parallelism = Integer.getInteger("discovery.parallelism", 2);
    private final long intervalMillis = Long.getLong("discovery.checkpoint-interval-ms", 10_000);
    private final long minutes;
    private final long sampleSeconds = Long.getLong("discovery.sample-seconds", 10);
    private final List<String> lanes =
            List.of(System.getProperty("discovery.lanes", "B,A").split(","));

    private DiscoveryScenario(EmbeddedZeta zeta, boolean quick) {
        this.zeta = zeta;
        this.minutes = Long.getLong("discovery.minutes", quick ? 1 : 30);
    }

    /** {@code SideBySideRunner [quick] discovery}. */
    static void runOnly(EmbeddedZeta zeta, boolean quick) throws Exception {
        new DiscoveryScenario(zeta, quick).run();
    }

    private String job(boolean laneA, String runId) {
        return "env {\n  job.mode = \"STREAMING\"\n  parallelism = "
                + parallelism
                + "\n  checkpoint.interval = "
                + intervalMillis
                + "\n}\n"
                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n    job-name = \""
                + (laneA ? "side-a" : "side-b")
                + "\"\n    split.count = "
                + parallelism
                + "\n    rows.per.split = 1\n    bounded = false\n"
                + "    discovery.splits.per.second = "
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
        BenchReport report =
                new BenchReport(
                        String.format(
                                Locale.ROOT,
                                "Split discovery at %,d splits/s for %d min, p=%d, checkpoints"
                                        + " every %d s",
                                rate,
                                minutes,
                                parallelism,
                                intervalMillis / 1000));
        ObjectNode json = report.json();
        json.put("splitsPerSecond", rate);
        json.put("minutes", minutes);
        json.put("parallelism", parallelism);
        json.put("checkpointIntervalMs", intervalMillis);
        ArrayNode lanesJson = json.putArray("lanes");
        List<XyPlot.Series> heap = new ArrayList<>();
        List<XyPlot.Series> lag = new ArrayList<>();
        List<XyPlot.Series> tracked = new ArrayList<>();
        List<XyPlot.Series> mailbox = new ArrayList<>();
        List<LatencyPlot.Series> checkpoints = new ArrayList<>();
        for (String lane : lanes) {
            boolean laneA = "A".equals(lane.trim());
            String name = laneA ? "Lane A (managed)" : "Lane B (stock path)";
            String runId = "discovery-" + lane.trim();
            RuntimeStats.reset();
            System.gc();
            long baseline = MEMORY.getHeapMemoryUsage().getUsed();
            long jobId = zeta.submit(job(laneA, runId));
            zeta.awaitStatus(jobId, JobStatus.RUNNING, Duration.ofSeconds(60));
            long start = System.nanoTime();
            EngineCheckpointTimes times = EngineCheckpointTimes.start(zeta, jobId);
            List<double[]> rows = new ArrayList<>();
            ObjectNode laneJson = lanesJson.addObject();
            laneJson.put("lane", name);
            ArrayNode samples = laneJson.putArray("samples");
            long end = start + Duration.ofMinutes(minutes).toNanos();
            while (System.nanoTime() < end) {
                SideBySideRunner.waitFor(Duration.ofSeconds(sampleSeconds));
                System.gc();
                double t = (System.nanoTime() - start) / 60e9;
                double heapMiB = (MEMORY.getHeapMemoryUsage().getUsed() - baseline) / 1048576.0;
                long committed = CountingSink.count(runId);
                double behind = rate * t * 60 - committed;
                long inTracker =
                        laneA
                                ? metric(jobId, "ManagedSourceAssignmentsCreated")
                                        - metric(jobId, "ManagedSourceAssignmentsGarbageCollected")
                                        - metric(
                                                jobId,
                                                "ManagedSourceAssignmentsReturnedToEnumerator")
                                : -1;
                long mailboxBytes = laneA ? metric(jobId, "ManagedSourceMailboxBytes") : -1;
                rows.add(new double[] {t, heapMiB, behind, inTracker, mailboxBytes});
                ObjectNode sample = samples.addObject();
                sample.put("minutes", t);
                sample.put("heapMiB", heapMiB);
                sample.put("rowsCommitted", committed);
                sample.put("rowsBehindDiscovery", behind);
                if (laneA) {
                    sample.put("trackedAssignments", inTracker);
                    sample.put("mailboxBytes", mailboxBytes);
                }
                System.out.printf(
                        Locale.ROOT,
                        "%s %.1f min: heap %.0f MiB, %,d rows committed (%,.0f behind)%s%n",
                        name,
                        t,
                        heapMiB,
                        committed,
                        behind,
                        laneA
                                ? String.format(
                                        Locale.ROOT,
                                        ", %,d tracked, %,d mailbox bytes",
                                        inTracker,
                                        mailboxBytes)
                                : "");
            }
            long[] cps = times.stop();
            SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
            laneJson.set("checkpointDuration", BenchReport.distribution(cps, true));
            System.out.println(
                    name + " checkpoint trigger -> completed: " + SideBySideRunner.pcts(cps));
            checkpoints.add(new LatencyPlot.Series(name, cps));
            heap.add(series(name, rows, 1));
            lag.add(series(name, rows, 2));
            if (laneA) {
                tracked.add(series(name, rows, 3));
                mailbox.add(series(name, rows, 4));
            }
        }
        report.panel("engine checkpoint trigger -> completed", checkpoints);
        report.linePanel(new XyPlot.Panel("live heap", "minutes", "MiB", false, heap));
        report.linePanel(
                new XyPlot.Panel("rows behind discovery", "minutes", "rows (splits)", false, lag));
        if (!tracked.isEmpty()) {
            report.linePanel(
                    new XyPlot.Panel(
                            "assignments tracked by the coordinator",
                            "minutes",
                            "entries",
                            false,
                            tracked));
            report.linePanel(
                    new XyPlot.Panel(
                            "bytes in the readers' mailboxes", "minutes", "bytes", false, mailbox));
        }
        for (Path p : report.write(Paths.get("target"), "side-by-side-discovery")) {
            System.out.println("written " + p.toAbsolutePath());
        }
    }

    /** Column {@code column} of {@code rows} against column 0 (minutes). */
    static XyPlot.Series series(String name, List<double[]> rows, int column) {
        double[] x = new double[rows.size()];
        double[] y = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            x[i] = rows.get(i)[0];
            y[i] = rows.get(i)[column];
        }
        return new XyPlot.Series(name, x, y);
    }
}
