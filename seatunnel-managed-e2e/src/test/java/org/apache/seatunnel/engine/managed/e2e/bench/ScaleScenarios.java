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

import static org.apache.seatunnel.engine.managed.e2e.bench.SideBySideRunner.ms;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.jet.datamodel.Tuple2;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.fake.testing.ManagedFakeProbe;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CountingSink;
import org.apache.seatunnel.engine.server.checkpoint.ActionStateKey;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointPlan;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.checkpoint.PendingCheckpoint;
import org.apache.seatunnel.engine.server.checkpoint.SubtaskStatistics;
import org.apache.seatunnel.engine.server.checkpoint.TaskStatistics;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.SteadyCpu;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * The side-by-side runner's scale scenarios (issue 15, items 3 and 4), both lanes measured
 * alternately in one engine: the engine's own checkpoint time (coordinator trigger → completed,
 * from its {@code CompletedCheckpoint}) next to the runtime's (enumerator snapshot → checkpoint
 * complete, and the barrier wait, from the ManagedFake probes) at parallelism 16 and 64 with data
 * always there, and again with both lanes held to the same row rate (checkpoint cost at equal
 * work), each load after one unmeasured window per lane ({@code -Dscale.load.warmup-seconds},
 * default 10), each window also with how late a parked thread wakes in it ({@link WakeUpDelays});
 * and the process CPU with 16 nearly idle readers (one row per second each) and with 16 readers on
 * slow data (a chunk every 200 ms, jittered), each window with the checkpoints the engine completed
 * in it, and slow data once more without checkpoints in the window. Not a test: figures depend on
 * the machine.
 *
 * <p>Run with the other scenarios by {@link SideBySideRunner}, or alone: {@code ScaleScenarios
 * [quick]} (prints its own table). {@code -Dscale.trace=true} prints each checkpoint window's sink
 * rows second by second; {@code -Dbench.option.<key>=<value>} runs Lane A with that setting (see
 * {@link SideBySideRunner#installLaneA}).
 */
final class ScaleScenarios {
    private static final String[] LANES = {"Lane B (stock path)", "Lane A (managed)"};
    private static final long SAMPLE_MILLIS = 50;
    private static final boolean TRACE = Boolean.getBoolean("scale.trace");
    // Heap after GC per window: the median of this many samples, a second apart (GateTable).
    private static final int HEAP_SAMPLES = Integer.getInteger("scale.heap.samples", 3);
    // -Dscale.checkpoint.millis=600000 leaves the windows without checkpoints (the data path
    // alone).
    private static final long CHECKPOINT_MILLIS = Long.getLong("scale.checkpoint.millis", 1000);
    // -Dscale.same.lane=A (or B) runs that lane in both columns: how far two windows of one lane
    // fall apart on this machine, the noise floor the criteria are read against.
    private static final String SAME_LANE = System.getProperty("scale.same.lane", "");
    private static final long NO_CHECKPOINT_MILLIS = TimeUnit.MINUTES.toMillis(10);
    // Long enough that Lane B's slow-data checkpoints (p99 ~0.5 s at p=16) end before the next
    // trigger is due, short enough that a window holds several.
    private static final long EQUAL_CHECKPOINT_MILLIS = 2000;

    private final EmbeddedZeta zeta;
    private final boolean quick;
    private int runs;
    private String lastRunId;

    ScaleScenarios(EmbeddedZeta zeta, boolean quick) {
        this.zeta = zeta;
        this.quick = quick;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = args.length > 0 && "quick".equals(args[0]);
        SideBySideRunner.installLaneA();
        try (EmbeddedZeta zeta =
                EmbeddedZeta.builder("side-by-side-scale-" + ProcessHandle.current().pid(), 24280)
                        .checkpointIntervalMillis(1000)
                        .start()) {
            List<String[]> table = new ArrayList<>();
            table.add(new String[] {"figure", LANES[0], LANES[1]});
            BenchReport report = new BenchReport("Scale scenarios, Lane B vs Lane A");
            ObjectNode json = report.json();
            ObjectNode[] lanes = {json.putObject("laneB"), json.putObject("laneA")};
            GateTable.GATES.start(zeta);
            new ScaleScenarios(zeta, quick).run(table, lanes);
            SideBySideRunner.print(table);
            GateTable.GATES.finish(zeta);
            GateTable.GATES.print();
            GateTable.GATES.write(json);
            Path[] written = report.write(Paths.get("target"), "side-by-side-scale");
            for (Path p : written) {
                System.out.println("written " + p.toAbsolutePath());
            }
        }
        System.exit(0);
    }

    /** Adds the scale rows to {@code table} and each lane's figures to its JSON object. */
    void run(List<String[]> table, ObjectNode[] laneJson) throws Exception {
        long seconds = Long.getLong("scale.seconds", quick ? 8 : 20);
        int reps = quick ? 1 : 2;
        // -Dscale.only=cpu or =checkpoints runs one half (when iterating on one of them).
        String only = System.getProperty("scale.only", "");
        if (!only.equals("cpu")) {
            // Total rows/s of the equal-load runs, spread over the readers: well below what either
            // lane reaches here, so both move the same rows. With data always there each lane moves
            // what it can, so the engine's threads may meet unequal competition; this load compares
            // checkpoint cost at equal work (-Dscale.equal.burn=true adds busy cores, which starve
            // both lanes' paced readers on this machine).
            long equalRate = Long.getLong("scale.equal.rate", 80_000);
            // Unmeasured first, until each lane's row rate has settled: with both cores busy the
            // JIT's compiler threads get little CPU (main() has already started the flight
            // recorder, whose start-up mid-run slowed Lane B far longer than the JIT did).
            for (int lane = 0; lane < 2; lane++) {
                warmUp(lane == 1, 16);
            }
            // A full run adds p=128, the widest point of the STIP's Fake matrix this machine holds.
            String parallelisms = quick ? "16,64" : "16,64,128";
            for (String p : System.getProperty("scale.parallelisms", parallelisms).split(",")) {
                int par = Integer.parseInt(p.trim());
                List<Load> loads = new ArrayList<>();
                // -Dscale.equal.only=true skips the data-always-there load (when iterating on
                // the equal-rate one).
                if (!Boolean.getBoolean("scale.equal.only")) {
                    loads.add(Load.dataAlwaysThere());
                }
                if (equalRate > 0) {
                    loads.add(
                            Load.sameRate(equalRate, par, Boolean.getBoolean("scale.equal.burn")));
                }
                // The barrier wait with slow data while burners keep both cores busy (issue 15,
                // item 1's p=16 goal): readers that wait for data most of the time leave the
                // cores to the burners, so only they make the engine's delivery compete.
                // -Dscale.slow.millis= (empty) skips it.
                if (par == 16) {
                    for (String slow :
                            System.getProperty("scale.slow.millis", "200,1000").split(",")) {
                        if (!slow.trim().isEmpty()) {
                            loads.add(Load.slowDataCoresBusy(Long.parseLong(slow.trim())));
                        }
                    }
                }
                for (Load load : loads) {
                    // The paced CPU rows (40-75 % of one core) moved by a tenth between single
                    // 8 s windows of one build: a quick run gives them the full run's two
                    // windows per lane, in both orders.
                    int loadReps = load.paced() ? Math.max(2, reps) : reps;
                    checkpointsAtScale(table, laneJson, par, seconds, loadReps, load);
                }
            }
        }
        if (only.equals("checkpoints")) {
            return;
        }
        String idleJob = "rows.per.second = 1";
        String slowJob = "slow.data.millis = 200\n    slow.data.jitter = true";
        // An unmeasured pass of each lane first: the JIT compiles a lane's idle and slow-data paths
        // when they first run, and in a 20 s window that one-time cost is several times the
        // steady state being compared (the figures still show what compilation remained).
        long warmup = Math.max(4, seconds / 4);
        for (int lane = 0; lane < 2; lane++) {
            cpu(lane == 1, 16, idleJob, CHECKPOINT_MILLIS, warmup);
            cpu(lane == 1, 16, slowJob, CHECKPOINT_MILLIS, warmup);
        }
        double[][][] idle = new double[2][reps][];
        double[][][] slow = new double[2][reps][];
        // With slow data Lane B's readers hold the checkpoint lock while they wait, so its
        // checkpoints complete about three times less often and it pays the engine's
        // per-checkpoint work less: the same job with no checkpoint inside the window compares the
        // reading paths alone.
        double[][][] slowNoCheckpoints = new double[2][reps][];
        // The judged slow-data row: a checkpoint interval at which Lane B's lock-holding readers
        // no longer delay the next trigger, so both lanes complete the same checkpoints and the
        // CPU compares the same work, checkpoints included.
        // Its process CPU is ~5 % of one core, ~1 CPU-s in a 20 s window, and windows of one lane
        // differ by a fifth (GC, the engine's periodic work, a checkpoint more or less): it gets
        // at least three windows per lane of at least 16 s, where a quick run's others get one of
        // 8.
        int judgedReps = Math.max(reps, 3);
        long judgedSeconds = Math.max(seconds, 16);
        double[][][] slowEqualCheckpoints = new double[2][judgedReps][];
        for (int r = 0; r < judgedReps; r++) {
            // Lanes alternate which goes first: later windows inherit what earlier jobs left.
            for (int i = 0; i < 2; i++) {
                int lane = r % 2 == 0 ? i : 1 - i;
                if (r < reps) {
                    idle[lane][r] = cpu(lane == 1, 16, idleJob, CHECKPOINT_MILLIS, seconds);
                    slow[lane][r] = cpu(lane == 1, 16, slowJob, CHECKPOINT_MILLIS, seconds);
                    slowNoCheckpoints[lane][r] =
                            cpu(lane == 1, 16, slowJob, NO_CHECKPOINT_MILLIS, seconds);
                }
                slowEqualCheckpoints[lane][r] =
                        cpu(lane == 1, 16, slowJob, EQUAL_CHECKPOINT_MILLIS, judgedSeconds);
            }
        }
        table.add(
                row(
                        "process CPU (of which JIT; checkpoints completed), p=16 idle (1 row/s per reader), % of one core",
                        cpus(idle[0]), cpus(idle[1])));
        table.add(
                row(
                        "process CPU (of which JIT; checkpoints completed), p=16 slow data 200 ms, % of one core",
                        cpus(slow[0]), cpus(slow[1])));
        table.add(
                row(
                        "same, checkpoint interval 10 min (none in the window)",
                        cpus(slowNoCheckpoints[0]),
                        cpus(slowNoCheckpoints[1])));
        table.add(
                row(
                        "same, checkpoint interval "
                                + EQUAL_CHECKPOINT_MILLIS / 1000
                                + " s (each lane completes every checkpoint)",
                        cpus(slowEqualCheckpoints[0]),
                        cpus(slowEqualCheckpoints[1])));
        GateTable g = GateTable.GATES;
        g.ratio(
                "Fake p=16, idle (1 row/s per reader)",
                GateTable.Criterion.CPU,
                SideBySideRunner.median(steadyColumn(idle[0])),
                SideBySideRunner.median(steadyColumn(idle[1])),
                "%.1f %%");
        g.ratioAtCheckpoints(
                "Fake p=16, slow data 200 ms, a checkpoint every "
                        + EQUAL_CHECKPOINT_MILLIS / 1000
                        + " s",
                GateTable.Criterion.CPU,
                SideBySideRunner.median(steadyColumn(slowEqualCheckpoints[0])),
                SideBySideRunner.median(steadyColumn(slowEqualCheckpoints[1])),
                "%.1f %%",
                SideBySideRunner.median(column(slowEqualCheckpoints[0], 2)),
                SideBySideRunner.median(column(slowEqualCheckpoints[1], 2)));
        for (int l = 0; l < 2; l++) {
            putAll(laneJson[l].putArray("p16IdleCpuPercent"), column(idle[l], 0));
            putAll(laneJson[l].putArray("p16IdleJitPercent"), column(idle[l], 1));
            putAll(laneJson[l].putArray("p16SlowData200CpuPercent"), column(slow[l], 0));
            putAll(laneJson[l].putArray("p16SlowData200JitPercent"), column(slow[l], 1));
            putAll(laneJson[l].putArray("p16IdleCheckpoints"), column(idle[l], 2));
            putAll(laneJson[l].putArray("p16SlowData200Checkpoints"), column(slow[l], 2));
            putAll(
                    laneJson[l].putArray("p16SlowData200NoCheckpointCpuPercent"),
                    column(slowNoCheckpoints[l], 0));
            putAll(
                    laneJson[l].putArray("p16SlowData200NoCheckpointJitPercent"),
                    column(slowNoCheckpoints[l], 1));
            putAll(
                    laneJson[l].putArray("p16SlowData200EqualCheckpointsCpuPercent"),
                    column(slowEqualCheckpoints[l], 0));
            putAll(
                    laneJson[l].putArray("p16SlowData200EqualCheckpoints"),
                    column(slowEqualCheckpoints[l], 2));
        }
    }

    /**
     * Runs a p-reader job with data always there until its rows per second over three consecutive
     * seconds stay within a tenth of their mean (at least 10 s: a cold JVM holds a steady low rate
     * for several seconds before its compiled code takes over; at most {@code
     * scale.warmup.max-seconds}, default 60), then cancels it; prints how long that took. It
     * records the barrier lock waits too, as a measured run does.
     */
    private void warmUp(boolean laneA, int p) throws Exception {
        long maxSeconds = Long.getLong("scale.warmup.max-seconds", 60);
        long jobId = start(laneA, p, "slow.data.millis = 0", CHECKPOINT_MILLIS);
        String runId = lastRunId;
        BarrierLockWaits recording = BarrierLockWaits.start();
        double[] last = new double[3];
        long before = CountingSink.count(runId);
        int s = 0;
        boolean settled = false;
        while (s < maxSeconds && !settled) {
            SideBySideRunner.waitFor(Duration.ofSeconds(1));
            long now = CountingSink.count(runId);
            last[s % 3] = now - before;
            before = now;
            s++;
            double mean = (last[0] + last[1] + last[2]) / 3;
            settled = s >= 10 && mean > 0;
            for (double v : last) {
                settled &= Math.abs(v - mean) <= mean / 10;
            }
        }
        recording.stop(0);
        SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        System.out.printf(
                Locale.ROOT,
                "warm-up %s, p=%d: %d s, %s, last second %,.0f rows%n",
                LANES[laneA ? 1 : 0],
                p,
                s,
                settled ? "settled" : "not settled",
                last[(s - 1) % 3]);
    }

    /** What the readers of a checkpoint-at-scale run do, and whether burners load the cores. */
    private static final class Load {
        final String label;
        final String jsonSuffix;
        final String sourceExtra;
        final boolean burn;

        private Load(String label, String jsonSuffix, String sourceExtra, boolean burn) {
            this.label = label;
            this.jsonSuffix = jsonSuffix;
            this.sourceExtra = sourceExtra;
            this.burn = burn;
        }

        /** Readers always have data: each lane moves what it can. */
        boolean saturated() {
            return jsonSuffix.isEmpty();
        }

        /** Both lanes move the same rows per second (the paced CPU rows). */
        boolean paced() {
            return jsonSuffix.startsWith("SameRate");
        }

        static Load dataAlwaysThere() {
            return new Load("data always there", "", "slow.data.millis = 0", false);
        }

        static Load slowDataCoresBusy(long millis) {
            return new Load(
                    "slow data " + millis + " ms, cores busy",
                    "SlowData" + millis + "CoresBusy",
                    "slow.data.millis = " + millis + "\n    slow.data.jitter = true",
                    true);
        }

        static Load sameRate(long totalRowsPerSecond, int p, boolean burn) {
            return new Load(
                    String.format(
                            Locale.ROOT,
                            "%,d rows/s%s",
                            totalRowsPerSecond,
                            burn ? ", cores busy" : ""),
                    burn ? "SameRateCoresBusy" : "SameRate",
                    "rows.per.second = " + Math.max(1, totalRowsPerSecond / p),
                    burn);
        }
    }

    private void checkpointsAtScale(
            List<String[]> table, ObjectNode[] laneJson, int p, long seconds, int reps, Load load)
            throws Exception {
        List<List<Long>> engine = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> enumSnaps = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> enumAcks = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> readerAcks = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> runtime = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> told = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> waits = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> lockWaits = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> inRuntime = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> wakeUps = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Long>> wakeUpsIn = List.of(new ArrayList<>(), new ArrayList<>());
        double[][] cpu = new double[2][reps];
        double[][] jit = new double[2][reps];
        double[][] rowRates = new double[2][reps];
        double[][] heap = new double[2][reps];
        double[][] heapBefore = new double[2][reps];
        // An unmeasured window of each lane first: the warm-up ran data always there, and the
        // JIT compiles what this load adds (pacing, slow data) when it first runs. Without it the
        // first measured windows carried seconds of compilation, more in whichever lane ran the
        // new paths first. -Dscale.load.warmup-seconds=0 skips it.
        long loadWarmUp = Long.getLong("scale.load.warmup-seconds", 10);
        for (int lane = 0; loadWarmUp > 0 && lane < 2; lane++) {
            checkpointRun(lane == 1, p, loadWarmUp, load);
        }
        for (int r = 0; r < reps; r++) {
            // Lanes alternate which goes first: the engine keeps each finished job's metrics, so
            // the heap after GC grows a little with every run and favoured whichever lane ran
            // first.
            for (int i = 0; i < 2; i++) {
                int lane = r % 2 == 0 ? i : 1 - i;
                Measured m = checkpointRun(lane == 1, p, seconds, load);
                engine.get(lane).addAll(m.engine);
                enumSnaps.get(lane).addAll(m.enumeratorSnapshots);
                enumAcks.get(lane).addAll(m.enumeratorAcks);
                readerAcks.get(lane).addAll(m.lastReaderAcks);
                addAll(runtime.get(lane), ManagedFakeProbe.checkpointDurations());
                told.get(lane).addAll(m.completedToNotified);
                addAll(waits.get(lane), ManagedFakeProbe.barrierWaits());
                addAll(lockWaits.get(lane), m.lockWaits);
                addAll(inRuntime.get(lane), m.runtimeBarrierWaits);
                addAll(wakeUps.get(lane), m.wakeUps);
                addAll(wakeUpsIn.get(lane), m.wakeUpsInCheckpoints);
                cpu[lane][r] = m.cpuPercent;
                jit[lane][r] = m.jitPercent;
                rowRates[lane][r] = m.rowsPerSecond;
                heap[lane][r] = m.heapAfterGcMiB;
                heapBefore[lane][r] = m.heapBeforeJobMiB;
            }
        }
        long[][] e = {sorted(engine.get(0)), sorted(engine.get(1))};
        long[][] es = {sorted(enumSnaps.get(0)), sorted(enumSnaps.get(1))};
        long[][] ea = {sorted(enumAcks.get(0)), sorted(enumAcks.get(1))};
        long[][] ra = {sorted(readerAcks.get(0)), sorted(readerAcks.get(1))};
        long[][] rt = {sorted(runtime.get(0)), sorted(runtime.get(1))};
        long[][] tn = {sorted(told.get(0)), sorted(told.get(1))};
        long[][] w = {sorted(waits.get(0)), sorted(waits.get(1))};
        long[][] lw = {sorted(lockWaits.get(0)), sorted(lockWaits.get(1))};
        long[][] ir = {sorted(inRuntime.get(0)), sorted(inRuntime.get(1))};
        long[][] wu = {sorted(wakeUps.get(0)), sorted(wakeUps.get(1))};
        long[][] wi = {sorted(wakeUpsIn.get(0)), sorted(wakeUpsIn.get(1))};
        String at = "p=" + p + ", " + load.label;
        table.add(row("engine ckpt trigger->completed p50/p99, " + at, pcts(e[0]), pcts(e[1])));
        // The engine's delivery of the trigger to the enumerator, before any Lane A code runs.
        table.add(row("  of which trigger->enumerator snapshot, " + at, pcts(es[0]), pcts(es[1])));
        table.add(row("  of which trigger->enumerator ack, " + at, pcts(ea[0]), pcts(ea[1])));
        table.add(row("  of which trigger->last reader ack, " + at, pcts(ra[0]), pcts(ra[1])));
        table.add(
                row(
                        "runtime ckpt enum snapshot->complete p50/p99, " + at,
                        pcts(rt[0]),
                        pcts(rt[1])));
        // Zeta tells a pipeline's tasks one by one, looking each one's member up in a cluster map:
        // the enumerator's turn comes anywhere in that order. Lane A takes a reader's notice too.
        table.add(
                row(
                        "  of which engine completed->enumerator told, " + at,
                        pcts(tn[0]),
                        pcts(tn[1])));
        table.add(row("barrier wait p50/p99, " + at, pcts(w[0]), pcts(w[1])));
        table.add(row("  of which waiting for the reader's lock, " + at, pcts(lw[0]), pcts(lw[1])));
        // The rest is the engine's delivery: an operation thread, then a thread of its task pool.
        table.add(
                row(
                        "  of which in the Lane A runtime (snapshot demanded->taken), " + at,
                        "-",
                        pcts(ir[1])));
        // The floor under the barrier wait: the engine delivers each barrier through two wake-ups.
        table.add(row("a 1 ms park's wake-up delay p50/p99, " + at, pcts(wu[0]), pcts(wu[1])));
        table.add(row("  of which during checkpoints, " + at, pcts(wi[0]), pcts(wi[1])));
        table.add(
                row(
                        "process CPU (of which JIT), " + at + ", % of one core",
                        cpus(cpu[0], jit[0]),
                        cpus(cpu[1], jit[1])));
        table.add(row("sink rows/s, " + at, rates(rowRates[0]), rates(rowRates[1])));
        table.add(row("heap after GC, job running, MiB, " + at, rates(heap[0]), rates(heap[1])));
        table.add(
                row(
                        "heap after GC before the job started, MiB, " + at,
                        rates(heapBefore[0]),
                        rates(heapBefore[1])));
        gates(at, load, p, steady(cpu, jit), rowRates, onOneBaseline(heap, heapBefore), e, rt);
        for (int l = 0; l < 2; l++) {
            ObjectNode o = laneJson[l].putObject("p" + p + "Checkpoints" + load.jsonSuffix);
            o.set("engineTriggerToCompleted", BenchReport.distribution(e[l], true));
            o.set("engineTriggerToEnumeratorSnapshot", BenchReport.distribution(es[l], true));
            o.set("engineTriggerToEnumeratorAck", BenchReport.distribution(ea[l], true));
            o.set("engineTriggerToLastReaderAck", BenchReport.distribution(ra[l], true));
            o.set("runtimeSnapshotToComplete", BenchReport.distribution(rt[l], true));
            o.set("engineCompletedToEnumeratorTold", BenchReport.distribution(tn[l], true));
            o.set("barrierWait", BenchReport.distribution(w[l], true));
            o.set("barrierLockWait", BenchReport.distribution(lw[l], true));
            o.set("barrierWaitInRuntime", BenchReport.distribution(ir[l], true));
            o.set("parkWakeUpDelay", BenchReport.distribution(wu[l], true));
            o.set("parkWakeUpDelayDuringCheckpoints", BenchReport.distribution(wi[l], true));
            putAll(o.putArray("cpuPercent"), cpu[l]);
            putAll(o.putArray("jitCpuPercent"), jit[l]);
            putAll(o.putArray("sinkRowsPerSecond"), rowRates[l]);
            putAll(o.putArray("heapAfterGcMiB"), heap[l]);
            putAll(o.putArray("heapBeforeJobMiB"), heapBefore[l]);
        }
    }

    /**
     * Each window's heap with the job running, moved onto one baseline: what the job added to the
     * heap the process held just before it started, plus the median of every window's starting heap
     * (both lanes'). The engine keeps each finished job's state (metrics, job history,
     * serialization buffers grown to the largest message: some 1–2 MiB per job at p=64), so the raw
     * figure grows with every window and charges whichever lane runs later with the earlier jobs;
     * alternating the lanes cancels that only over an even number of windows per lane, and a quick
     * run has one, Lane B's first.
     */
    static double[][] onOneBaseline(double[][] running, double[][] before) {
        double[] all = new double[before[0].length + before[1].length];
        System.arraycopy(before[0], 0, all, 0, before[0].length);
        System.arraycopy(before[1], 0, all, before[0].length, before[1].length);
        double baseline = SideBySideRunner.median(all);
        double[][] out = new double[2][];
        for (int l = 0; l < 2; l++) {
            out[l] = new double[running[l].length];
            for (int i = 0; i < out[l].length; i++) {
                out[l][i] = baseline + running[l][i] - before[l][i];
            }
        }
        return out;
    }

    /** Process CPU less the JIT compiler's, per lane and repetition: what the gate judges. */
    private static double[][] steady(double[][] cpu, double[][] jit) {
        double[][] out = new double[cpu.length][];
        for (int l = 0; l < cpu.length; l++) {
            out[l] = new double[cpu[l].length];
            for (int r = 0; r < cpu[l].length; r++) {
                out[l][r] = cpu[l][r] - jit[l][r];
            }
        }
        return out;
    }

    /**
     * This point's rows of the gate table (medians over the repetitions); {@code cpu} is steady
     * CPU, the JIT compiler's excluded.
     */
    private static void gates(
            String at,
            Load load,
            int p,
            double[][] cpu,
            double[][] rowRates,
            double[][] heap,
            long[][] engine,
            long[][] runtime) {
        GateTable g = GateTable.GATES;
        String point = "Fake " + at;
        if (load.saturated()) {
            double[] rps = {
                SideBySideRunner.median(rowRates[0]), SideBySideRunner.median(rowRates[1])
            };
            g.ratio(point, GateTable.Criterion.THROUGHPUT, rps[0], rps[1], "%,.0f rows/s");
            // Both lanes use what the cores give at saturation: CPU per row is what may not grow.
            g.ratio(
                    point,
                    GateTable.Criterion.CPU,
                    SideBySideRunner.median(cpu[0]) * 1e4 / rps[0],
                    SideBySideRunner.median(cpu[1]) * 1e4 / rps[1],
                    "%.2f CPU-s/M rows");
        } else if (!load.burn) {
            // Paced readers (with burners the process CPU is the burners').
            g.ratio(
                    point,
                    GateTable.Criterion.CPU,
                    SideBySideRunner.median(cpu[0]),
                    SideBySideRunner.median(cpu[1]),
                    "%.1f %%");
        }
        g.ratio(
                point,
                GateTable.Criterion.HEAP,
                SideBySideRunner.median(heap[0]),
                SideBySideRunner.median(heap[1]),
                "%.0f MiB");
        if (engine[0].length > 0 && engine[1].length > 0) {
            g.checkpointP99(
                    point,
                    BenchReport.percentile(engine[0], 99) / 1e6,
                    BenchReport.percentile(engine[1], 99) / 1e6);
        }
        if (p >= 64 && !load.saturated() && runtime[0].length > 0 && runtime[1].length > 0) {
            g.runtimeCheckpoint(
                    point,
                    BenchReport.percentile(runtime[0], 50) / 1e6,
                    BenchReport.percentile(runtime[1], 50) / 1e6);
        }
    }

    /**
     * The engine's time from one trigger to the next and from each completion to the next trigger
     * (-Dscale.trace=true): Zeta 2.3.8 tries the next trigger an interval after the last and, while
     * a checkpoint is still pending (its completion notices not yet answered by every task), again
     * every 500 ms, so gaps of an interval plus 500 ms steps show notices that took that long.
     */
    private static void printTriggerGaps(String label, EngineCheckpoints checkpoints) {
        List<long[]> w;
        synchronized (checkpoints.windows) {
            w = new ArrayList<>(checkpoints.windows);
        }
        w.sort((a, b) -> Long.compare(a[0], b[0]));
        StringBuilder gaps = new StringBuilder();
        StringBuilder afterCompletion = new StringBuilder();
        for (int i = 1; i < w.size(); i++) {
            gaps.append(i == 1 ? "" : ", ").append(w.get(i)[0] - w.get(i - 1)[0]);
            afterCompletion.append(i == 1 ? "" : ", ").append(w.get(i)[0] - w.get(i - 1)[1]);
        }
        System.out.printf(
                "%s: trigger -> next trigger, ms: %s%n%s: completed -> next trigger, ms: %s%n",
                label, gaps, label, afterCompletion);
    }

    private static String rates(double[] perRun) {
        StringBuilder b = new StringBuilder();
        for (double v : perRun) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f", v));
        }
        return b.toString();
    }

    private static final class Measured {
        final List<Long> engine;
        final List<Long> enumeratorSnapshots;
        final List<Long> enumeratorAcks;
        final List<Long> lastReaderAcks;
        // The engine's completion -> the connector's enumerator told of it.
        final List<Long> completedToNotified = new ArrayList<>();
        final long[] lockWaits;
        final long[] runtimeBarrierWaits;
        final long[] wakeUps;
        final long[] wakeUpsInCheckpoints;
        final double cpuPercent;
        final double jitPercent;
        final double rowsPerSecond;
        final double heapAfterGcMiB;
        final double heapBeforeJobMiB;

        Measured(
                EngineCheckpoints c,
                long[] lockWaits,
                long[] runtimeBarrierWaits,
                long[] wakeUps,
                long[] wakeUpsInCheckpoints,
                double cpuPercent,
                double jitPercent,
                double rowsPerSecond,
                double heapAfterGcMiB,
                double heapBeforeJobMiB) {
            this.engine = new ArrayList<>(c.durations);
            this.enumeratorSnapshots = new ArrayList<>(c.enumeratorSnapshots);
            this.enumeratorAcks = new ArrayList<>(c.enumeratorAcks);
            this.lastReaderAcks = new ArrayList<>(c.lastReaderAcks);
            for (Map.Entry<Long, Long> e : c.completedAt.entrySet()) {
                Long told = ManagedFakeProbe.completeWallMillis(e.getKey());
                if (told != null) {
                    completedToNotified.add(TimeUnit.MILLISECONDS.toNanos(told - e.getValue()));
                }
            }
            this.lockWaits = lockWaits;
            this.runtimeBarrierWaits = runtimeBarrierWaits;
            this.wakeUps = wakeUps;
            this.wakeUpsInCheckpoints = wakeUpsInCheckpoints;
            this.cpuPercent = cpuPercent;
            this.jitPercent = jitPercent;
            this.rowsPerSecond = rowsPerSecond;
            this.heapAfterGcMiB = heapAfterGcMiB;
            this.heapBeforeJobMiB = heapBeforeJobMiB;
        }
    }

    /** An unbounded job at parallelism {@code p}; samples the engine's checkpoints meanwhile. */
    private Measured checkpointRun(boolean laneA, int p, long seconds, Load load) throws Exception {
        // What the process holds before the job: the engine's state from the jobs before it.
        double heapBeforeMiB = GateTable.heapAfterGcMiB(HEAP_SAMPLES, 1000);
        long jobId = start(laneA, p, load.sourceExtra, CHECKPOINT_MILLIS);
        String runId = lastRunId;
        CpuBurners burners = load.burn ? CpuBurners.start() : null;
        ManagedFakeProbe.reset();
        ManagedFakeProbe.enable();
        RuntimeStats.clearBarrierWaits();
        BarrierLockWaits lockWaits = BarrierLockWaits.start();
        WakeUpDelays wakeUps = WakeUpDelays.start();
        EngineCheckpoints checkpoints = new EngineCheckpoints(System.currentTimeMillis());
        long rows0 = CountingSink.count(runId);
        Map<String, Long> threads0 = THREADS_BREAKDOWN ? threadCpu() : null;
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
        try {
            long nextTrace = t0 + TimeUnit.SECONDS.toNanos(1);
            long traced = rows0;
            while (System.nanoTime() - end < 0) {
                SideBySideRunner.waitFor(Duration.ofMillis(SAMPLE_MILLIS));
                checkpoints.sample(zeta, jobId);
                if (TRACE && System.nanoTime() - nextTrace >= 0) {
                    long c = CountingSink.count(runId);
                    System.out.printf(
                            "  %s p=%d: %,d rows in the last second%n",
                            LANES[laneA ? 1 : 0], p, c - traced);
                    traced = c;
                    nextTrace += TimeUnit.SECONDS.toNanos(1);
                }
            }
        } finally {
            if (burners != null) {
                burners.close();
            }
        }
        long window = System.nanoTime() - t0;
        long[] wakeUpDelays = wakeUps.stop();
        long[] wakeUpDelaysInCheckpoints;
        synchronized (checkpoints.windows) {
            wakeUpDelaysInCheckpoints = wakeUps.within(new ArrayList<>(checkpoints.windows));
        }
        SteadyCpu cpu1 = SteadyCpu.now();
        double cpuPct = 100.0 * cpu1.processSince(cpu0) / window;
        double jitPct = 100.0 * cpu1.compilerSince(cpu0) / window;
        double rowsPerSecond = (CountingSink.count(runId) - rows0) / (window / 1e9);
        if (threads0 != null) {
            printThreadCpu(LANES[laneA ? 1 : 0] + ", p=" + p + ", " + load.label, threads0);
        }
        // The samples the probes took are the benchmark's, not the job's: out of the heap before
        // it is measured (Lane A's barrier waits alone were some 2,400 boxed samples).
        ManagedFakeProbe.dropEmitDelays();
        long[] inRuntime = RuntimeStats.barrierWaitsSorted();
        RuntimeStats.clearBarrierWaits();
        // After the window's figures: the collection's pause must not land in them.
        double heapMiB = GateTable.heapAfterGcMiB(HEAP_SAMPLES, 1000);
        String point = "p=" + p + ", " + load.label;
        Double other = lastHeapMiB.get((laneA ? "B " : "A ") + point);
        lastHeapMiB.put((laneA ? "A " : "B ") + point, heapMiB);
        if (HEAP_DUMPS != null) {
            dumpHeap(laneA, p, load);
        }
        if (HISTOGRAM > 0) {
            printHistogram(LANES[laneA ? 1 : 0] + ", " + point, HISTOGRAM);
        } else if (other != null && heapMiB > HEAP_OUTLIER * other) {
            // Some windows of one lane held far more than all others (e.g. 60 against 48 MiB):
            // what they held is printed the moment it is seen, the job still running.
            System.out.printf(
                    "%s, %s: heap %.0f MiB, above %.1f x the other lane's last window here (%.0f"
                            + " MiB)%n",
                    LANES[laneA ? 1 : 0], point, heapMiB, HEAP_OUTLIER, other);
            printHistogram(LANES[laneA ? 1 : 0] + ", " + point, 25);
        }
        ManagedFakeProbe.disable();
        long[] locks = lockWaits.stop(ManagedFakeProbe.barrierWaits().length);
        if (laneA) {
            printCoordinatorSnapshots(jobId, p);
        }
        SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        if (checkpoints.notCompleted.get() > 0) {
            System.out.printf(
                    "%s, p=%d: %d checkpoints did not complete%n",
                    LANES[laneA ? 1 : 0], p, checkpoints.notCompleted.get());
        }
        if (TRACE) {
            printTriggerGaps(LANES[laneA ? 1 : 0] + ", " + point, checkpoints);
        }
        return new Measured(
                checkpoints,
                locks,
                inRuntime,
                wakeUpDelays,
                wakeUpDelaysInCheckpoints,
                cpuPct,
                jitPct,
                rowsPerSecond,
                heapMiB,
                heapBeforeMiB);
    }

    /**
     * The Lane A coordinator's own account of the engine's snapshot demands (job metrics): how
     * many, how many were taken on the engine's thread, and their mean wait. Zero where the runtime
     * does not export them.
     */
    private void printCoordinatorSnapshots(long jobId, int p) {
        long snapshots = jobMetric(jobId, "ManagedSourceCoordinatorSnapshots");
        long onCaller = jobMetric(jobId, "ManagedSourceCoordinatorSnapshotsOnCaller");
        long waitNanos = jobMetric(jobId, "ManagedSourceCoordinatorSnapshotWaitNanos");
        System.out.printf(
                Locale.ROOT,
                "Lane A coordinator, p=%d: %d snapshots, %d on the engine's thread, mean wait %.1f"
                        + " us%n",
                p,
                snapshots,
                onCaller,
                snapshots == 0 ? 0.0 : waitNanos / 1e3 / snapshots);
    }

    private long jobMetric(long jobId, String name) {
        long sum = 0;
        try {
            for (org.apache.seatunnel.api.common.metrics.Measurement m :
                    zeta.coordinator().getJobMetrics(jobId).get(name)) {
                sum += ((Number) m.getValue()).longValue();
            }
        } catch (RuntimeException e) {
            return 0;
        }
        return sum;
    }

    /**
     * Process CPU % of one core while an unbounded job at parallelism {@code p} runs, the part of
     * it the JIT spent compiling, and the checkpoints the engine completed meanwhile: {cpu, jit,
     * checkpoints}.
     */
    private double[] cpu(boolean laneA, int p, String extra, long checkpointMillis, long seconds)
            throws Exception {
        long jobId = start(laneA, p, extra, checkpointMillis);
        // Garbage and old-generation work left by the earlier (heavier) scenarios would otherwise
        // be collected inside whichever lane's window comes next: start each from a collected heap.
        System.gc();
        Map<String, Long> threads0 = THREADS_BREAKDOWN ? threadCpu() : null;
        long turns0 = jobMetric(jobId, "ManagedSourcePollTurns");
        long rows0 = jobMetric(jobId, "SourceReceivedCount");
        SteadyCpu cpu0 = SteadyCpu.now();
        long checkpoints0 = latestCompletedCheckpoint(jobId);
        long t0 = System.nanoTime();
        SideBySideRunner.waitFor(Duration.ofSeconds(seconds));
        long wall = System.nanoTime() - t0;
        SteadyCpu cpu1 = SteadyCpu.now();
        double cpuPct = 100.0 * cpu1.processSince(cpu0) / wall;
        double jitPct = 100.0 * cpu1.compilerSince(cpu0) / wall;
        long checkpoints = latestCompletedCheckpoint(jobId) - checkpoints0;
        if (threads0 != null) {
            printThreadCpu(LANES[laneA ? 1 : 0] + ", p=" + p + ", " + extra, threads0);
            // Lane A only (0 on Lane B): turns per 64-row chunk show whether a chunk costs one
            // turn or an extra, empty one.
            System.out.printf(
                    Locale.ROOT,
                    "  poll turns %d, rows %d%n",
                    jobMetric(jobId, "ManagedSourcePollTurns") - turns0,
                    jobMetric(jobId, "SourceReceivedCount") - rows0);
        }
        SideBySideRunner.cancelAndAwaitEnd(zeta, jobId);
        return new double[] {cpuPct, jitPct, checkpoints};
    }

    /**
     * The id of the job's latest completed checkpoint (ids count up by one per checkpoint), so two
     * reads give how many completed in between: the engine's per-checkpoint work (the coordinator
     * looks up every task's address and sends it the barrier and the completion) is part of a
     * window's CPU, and a lane whose readers delay checkpoints pays it less often.
     */
    private long latestCompletedCheckpoint(long jobId) {
        return Math.max(0, zeta.latestCompletedCheckpointId(jobId, 1));
    }

    /**
     * {@code -Dscale.threads=true}: where the CPU went, by thread-name family, and how often each
     * kind of thread was switched out (the engine's source and sink task threads told apart).
     */
    static final boolean THREADS_BREAKDOWN = Boolean.getBoolean("scale.threads");

    /**
     * {@code -Dscale.histogram=N}: after each window's heap sample, the N classes holding the most
     * live heap (the JVM's class histogram), to tell what one lane keeps that the other does not.
     */
    private static final int HISTOGRAM = Integer.getInteger("scale.histogram", 0);

    // A window's heap above this multiple of the other lane's last one at the same point prints
    // the histogram even without -Dscale.histogram.
    private static final double HEAP_OUTLIER = 1.1;

    // The last heap figure of each lane at each point ("A p=16, data always there").
    private final Map<String, Double> lastHeapMiB = new HashMap<>();

    /**
     * {@code -Dscale.heap-dumps=<dir>}: after each window's heap sample, a dump of the live heap
     * ({@code <dir>/<lane>-p<p>-<n>.hprof}), to find what holds the classes a histogram shows.
     */
    private static final String HEAP_DUMPS = System.getProperty("scale.heap-dumps");

    private int dumps;

    private void dumpHeap(boolean laneA, int p, Load load) throws Exception {
        Path dir = Paths.get(HEAP_DUMPS);
        java.nio.file.Files.createDirectories(dir);
        Path file = dir.resolve((laneA ? "A" : "B") + "-p" + p + "-" + (++dumps) + ".hprof");
        ManagementFactory.newPlatformMXBeanProxy(
                        ManagementFactory.getPlatformMBeanServer(),
                        "com.sun.management:type=HotSpotDiagnostic",
                        com.sun.management.HotSpotDiagnosticMXBean.class)
                .dumpHeap(file.toString(), true);
        System.out.println("heap dump of " + load.label + ": " + file.toAbsolutePath());
    }

    private static void printHistogram(String what, int top) throws Exception {
        String[] lines = diagnosticCommand("gcClassHistogram").split("\n");
        System.out.println("live heap by class, " + what + ":");
        // Two header lines, then "num: instances bytes class", largest first; the total last.
        for (int i = 0; i < lines.length && i < top + 2; i++) {
            System.out.println("  " + lines[i]);
        }
        System.out.println("  " + lines[lines.length - 1]);
        // The histogram's collection just ran: the heap it left (what the gate's figure reads),
        // the heap in use a moment later, and G1's regions.
        System.out.printf(
                Locale.ROOT,
                "  heap after that collection: %.1f MiB; in use now: %.1f MiB%n",
                GateTable.heapAfterFullGcBytes() / 1048576.0,
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0);
        for (String line : diagnosticCommand("gcHeapInfo").split("\n")) {
            System.out.println("  " + line.trim());
        }
    }

    /** The text a JVM diagnostic command (as {@code jcmd} runs it) prints, without arguments. */
    private static String diagnosticCommand(String operation) throws Exception {
        return (String)
                ManagementFactory.getPlatformMBeanServer()
                        .invoke(
                                new javax.management.ObjectName(
                                        "com.sun.management:type=DiagnosticCommand"),
                                operation,
                                new Object[] {new String[0]},
                                new String[] {String[].class.getName()});
    }

    private static final String JIT = "~jit";
    private static final String GC = "~gc";

    private static long jitMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    private static long gcMillis() {
        long t = 0;
        for (java.lang.management.GarbageCollectorMXBean gc :
                ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, gc.getCollectionTime());
        }
        return t;
    }

    static Map<String, Long> threadCpu() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new HashMap<>();
        out.put(JIT, jitMillis());
        out.put(GC, gcMillis());
        for (java.lang.management.ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long t = mx.getThreadCpuTime(info.getThreadId());
            if (t > 0) {
                out.merge(family(info.getThreadName()), t, Long::sum);
                out.merge(
                        "#" + info.getThreadId() + " " + family(info.getThreadName()),
                        t,
                        Long::sum);
            }
        }
        contextSwitches(out);
        return out;
    }

    /**
     * Adds each native thread's voluntary and involuntary context switches (Linux only), keyed
     * {@code %tid name|v} and {@code %tid name|n}: a wake-up costs more than most of the work a
     * quiet reader does, so counting them shows which threads a lane wakes more often. The name is
     * the kernel's copy of the thread name, cut to 15 characters.
     */
    private static void contextSwitches(Map<String, Long> out) {
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return;
        }
        Map<String, String> roles = taskRoles();
        for (java.io.File task : tasks) {
            try {
                String name = "?";
                long vol = -1;
                long nonVol = -1;
                for (String line :
                        java.nio.file.Files.readAllLines(
                                new java.io.File(task, "status").toPath())) {
                    if (line.startsWith("Name:")) {
                        name = roles.getOrDefault(task.getName(), family(line.substring(5).trim()));
                    } else if (line.startsWith("voluntary_ctxt_switches:")) {
                        vol = Long.parseLong(line.substring(24).trim());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        nonVol = Long.parseLong(line.substring(27).trim());
                    }
                }
                if (vol >= 0 && nonVol >= 0) {
                    out.put("%" + task.getName() + " " + name + "|v", vol);
                    out.put("%" + task.getName() + " " + name + "|n", nonVol);
                    // utime and stime, in clock ticks (10 ms): fields 14 and 15 of stat, counted
                    // after the parenthesised name, which may hold spaces.
                    String stat =
                            new String(
                                    java.nio.file.Files.readAllBytes(
                                            new java.io.File(task, "stat").toPath()),
                                    java.nio.charset.StandardCharsets.US_ASCII);
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.put("%" + task.getName() + " " + name + "|u", Long.parseLong(f[11]));
                    out.put("%" + task.getName() + " " + name + "|s", Long.parseLong(f[12]));
                }
            } catch (java.io.IOException | RuntimeException e) {
                // The thread ended while being read.
            }
        }
    }

    private static String family(String name) {
        return name.replaceAll("[0-9]+", "N");
    }

    /**
     * Native thread id to "source task" or "sink task" for the engine's task threads, which share
     * one kernel name: read from a thread dump of this JVM ({@code jcmd}), by the engine flow each
     * thread's stack is in. Empty where {@code jcmd} is not there.
     */
    private static Map<String, String> taskRoles() {
        Map<String, String> roles = new HashMap<>();
        try {
            Process jcmd =
                    new ProcessBuilder(
                                    "jcmd",
                                    Long.toString(ProcessHandle.current().pid()),
                                    "Thread.print")
                            .redirectErrorStream(true)
                            .start();
            String nid = null;
            for (String line :
                    new String(
                                    jcmd.getInputStream().readAllBytes(),
                                    java.nio.charset.StandardCharsets.UTF_8)
                            .split("\n")) {
                if (line.startsWith("\"")) {
                    int at = line.indexOf(" nid=0x");
                    nid =
                            at < 0
                                    ? null
                                    : Long.toString(
                                            Long.parseLong(
                                                    line.substring(at + 7).split(" ")[0], 16));
                } else if (nid != null && line.contains("SourceFlowLifeCycle.collect")) {
                    roles.put(nid, "source task");
                } else if (nid != null && line.contains("IntermediateQueueFlowLifeCycle.collect")) {
                    roles.put(nid, "sink task");
                }
            }
            jcmd.waitFor();
        } catch (java.io.IOException e) {
            return roles;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return roles;
    }

    static void printThreadCpu(String what, Map<String, Long> before) {
        Map<String, Long> after = threadCpu();
        Map<String, Long> delta = new HashMap<>();
        after.forEach(
                (k, v) -> {
                    if (!k.startsWith("#") && !k.startsWith("~") && !k.startsWith("%")) {
                        // Threads of this run only: ids seen before count from their old value.
                        delta.put(k, 0L);
                    }
                });
        after.forEach(
                (k, v) -> {
                    if (k.startsWith("#")) {
                        String fam = k.substring(k.indexOf(' ') + 1);
                        delta.merge(fam, v - before.getOrDefault(k, 0L), Long::sum);
                    }
                });
        System.out.println("CPU by thread family, " + what + ":");
        System.out.printf(
                Locale.ROOT,
                "  %8.1f ms  (JIT compilation, all compiler threads)%n  %8.1f ms  (GC pauses and"
                        + " cycles, wall time)%n",
                (double) (jitMillis() - before.getOrDefault(JIT, 0L)),
                (double) (gcMillis() - before.getOrDefault(GC, 0L)));
        System.out.printf(
                Locale.ROOT,
                "  %8.1f ms  (all threads but the compiler's)%n",
                delta.values().stream().mapToLong(Long::longValue).sum() / 1e6);
        delta.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(Integer.getInteger("scale.threads.top", 12))
                .forEach(
                        e ->
                                System.out.printf(
                                        Locale.ROOT,
                                        "  %8.1f ms  %s%n",
                                        e.getValue() / 1e6,
                                        e.getKey()));
        Map<String, long[]> switches = new HashMap<>();
        after.forEach(
                (k, v) -> {
                    if (k.startsWith("%")) {
                        String fam = k.substring(k.indexOf(' ') + 1, k.length() - 2);
                        int i = "vnus".indexOf(k.charAt(k.length() - 1));
                        switches.computeIfAbsent(fam, f -> new long[4])[i] +=
                                v - before.getOrDefault(k, 0L);
                    }
                });
        System.out.println(
                "  context switches by kernel thread name (voluntary, involuntary), user and"
                        + " system CPU ms (10 ms ticks):");
        switches.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
                .limit(12)
                .forEach(
                        e ->
                                System.out.printf(
                                        Locale.ROOT,
                                        "  %8d %6d %6d %6d  %s%n",
                                        e.getValue()[0],
                                        e.getValue()[1],
                                        e.getValue()[2] * 10,
                                        e.getValue()[3] * 10,
                                        e.getKey()));
    }

    private long start(boolean laneA, int p, String extra, long checkpointMillis) throws Exception {
        if (!SAME_LANE.isEmpty()) {
            laneA = SAME_LANE.equals("A");
        }
        String runId = "scale-" + (++runs);
        lastRunId = runId;
        RuntimeStats.reset();
        String hocon =
                "env {\n  job.mode = \"STREAMING\"\n  parallelism = "
                        + p
                        + "\n  checkpoint.interval = "
                        + checkpointMillis
                        + "\n}\n"
                        + "source {\n  Managed {\n    connector = \"ManagedFakeTesting\"\n"
                        + "    job-name = \""
                        + (laneA ? "side-a" : "side-b")
                        + "\"\n    split.count = "
                        + p
                        + "\n    bounded = false\n    "
                        + extra
                        + "\n  }\n}\n"
                        + "sink {\n  ManagedCount {\n    run.id = \""
                        + runId
                        + "\"\n  }\n}\n";
        long jobId = zeta.submit(hocon);
        zeta.awaitStatus(jobId, JobStatus.RUNNING, Duration.ofSeconds(120));
        // Let every task start and a few checkpoints pass before measuring.
        SideBySideRunner.waitFor(Duration.ofSeconds(p >= 64 ? 6 : 3));
        if (laneA && RuntimeStats.readersOpened() < p) {
            throw new IllegalStateException(
                    "Lane A run opened " + RuntimeStats.readersOpened() + " of " + p + " readers");
        }
        return jobId;
    }

    /**
     * The engine's own checkpoint timing, lane-agnostic: each pending checkpoint of the pipeline's
     * coordinator (a private map, hence reflection) is watched from the first sample that sees it
     * until its future completes with the {@link CompletedCheckpoint}, whose trigger and completion
     * wall-clock times (milliseconds) give the duration. A pending checkpoint lives at least that
     * long, so a sampler delayed by a busy machine still sees every one; the latest completed
     * checkpoint is sampled too, in case one was missed.
     */
    private static final class EngineCheckpoints {
        private final long sinceMillis;
        private final Set<Long> watched = new HashSet<>();
        private final Set<Long> recorded = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final List<Long> durations = java.util.Collections.synchronizedList(new ArrayList<>());
        // Each completed checkpoint's [trigger, completed], wall-clock milliseconds.
        final List<long[]> windows = java.util.Collections.synchronizedList(new ArrayList<>());
        // Trigger -> the connector's enumerator snapshot (the probe's wall clock; on Lane A inside
        // the coordinator's snapshot, so it is the engine's delivery plus at most that).
        final List<Long> enumeratorSnapshots =
                java.util.Collections.synchronizedList(new ArrayList<>());
        // Trigger -> the enumerator task's ack (its snapshot plus the barrier fan-out to readers),
        // and trigger -> the last reader task's ack, per checkpoint.
        final List<Long> enumeratorAcks = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<Long> lastReaderAcks = java.util.Collections.synchronizedList(new ArrayList<>());
        // Each completed checkpoint's completion, wall-clock milliseconds, by id.
        final Map<Long, Long> completedAt = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile Set<Long> enumeratorVertices;
        private volatile Set<Long> readerVertices;
        final java.util.concurrent.atomic.AtomicInteger notCompleted =
                new java.util.concurrent.atomic.AtomicInteger();

        EngineCheckpoints(long sinceMillis) {
            this.sinceMillis = sinceMillis;
        }

        @SuppressWarnings("unchecked")
        void sample(EmbeddedZeta zeta, long jobId) throws ReflectiveOperationException {
            JobMaster master = zeta.jobMaster(jobId);
            if (master == null) {
                return;
            }
            CheckpointCoordinator coordinator =
                    master.getCheckpointManager().getCheckpointCoordinator(1);
            if (enumeratorVertices == null) {
                sourceVertices(coordinator);
            }
            Field pf = CheckpointCoordinator.class.getDeclaredField("pendingCheckpoints");
            pf.setAccessible(true);
            Map<Long, PendingCheckpoint> pending =
                    (Map<Long, PendingCheckpoint>) pf.get(coordinator);
            for (PendingCheckpoint pc : pending.values()) {
                if (pc.getCheckpointTimestamp() >= sinceMillis
                        && watched.add(pc.getCheckpointId())) {
                    pc.getCompletableFuture()
                            .whenComplete(
                                    (c, e) -> {
                                        if (c != null) {
                                            record(c);
                                        } else {
                                            notCompleted.incrementAndGet();
                                        }
                                    });
                }
            }
            Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
            f.setAccessible(true);
            CompletedCheckpoint c = (CompletedCheckpoint) f.get(coordinator);
            if (c != null && c.getCheckpointTimestamp() >= sinceMillis) {
                record(c);
            }
        }

        private void record(CompletedCheckpoint c) {
            if (!recorded.add(c.getCheckpointId())) {
                return;
            }
            long trigger = c.getCheckpointTimestamp();
            windows.add(new long[] {trigger, c.getCompletedTimestamp()});
            completedAt.put(c.getCheckpointId(), c.getCompletedTimestamp());
            durations.add(TimeUnit.MILLISECONDS.toNanos(c.getCompletedTimestamp() - trigger));
            Long snapshot = ManagedFakeProbe.enumeratorSnapshotWallMillis(c.getCheckpointId());
            if (snapshot != null) {
                enumeratorSnapshots.add(TimeUnit.MILLISECONDS.toNanos(snapshot - trigger));
            }
            Set<Long> enumerators = enumeratorVertices;
            Set<Long> readers = readerVertices;
            if (enumerators == null) {
                return;
            }
            long lastReader = Long.MIN_VALUE;
            for (TaskStatistics task : c.getTaskStatistics().values()) {
                boolean enumerator = enumerators.contains(task.getJobVertexId());
                boolean reader = readers.contains(task.getJobVertexId());
                for (SubtaskStatistics sub : task.getSubtaskStats()) {
                    if (sub == null) {
                        continue;
                    }
                    if (enumerator) {
                        enumeratorAcks.add(
                                TimeUnit.MILLISECONDS.toNanos(sub.getAckTimestamp() - trigger));
                    } else if (reader) {
                        lastReader = Math.max(lastReader, sub.getAckTimestamp());
                    }
                }
            }
            if (lastReader != Long.MIN_VALUE) {
                lastReaderAcks.add(TimeUnit.MILLISECONDS.toNanos(lastReader - trigger));
            }
        }

        /**
         * The source's task vertices from the coordinator's plan (a private field): the one that
         * holds the source's state at the coordinator index is the enumerator, the ones holding it
         * at a subtask index are the readers.
         */
        private void sourceVertices(CheckpointCoordinator coordinator)
                throws ReflectiveOperationException {
            Field f = CheckpointCoordinator.class.getDeclaredField("plan");
            f.setAccessible(true);
            CheckpointPlan plan = (CheckpointPlan) f.get(coordinator);
            Set<Long> enumerators = new HashSet<>();
            Set<Long> readers = new HashSet<>();
            plan.getSubtaskActions()
                    .forEach(
                            (location, actions) -> {
                                for (Tuple2<ActionStateKey, Integer> a : actions) {
                                    if (!a.f0().toString().contains("Source")) {
                                        continue;
                                    }
                                    if (CheckpointPlan.COORDINATOR_INDEX.equals(a.f1())) {
                                        enumerators.add(location.getTaskVertexId());
                                    } else {
                                        readers.add(location.getTaskVertexId());
                                    }
                                }
                            });
            readerVertices = readers;
            enumeratorVertices = enumerators;
        }
    }

    private static long[] sorted(List<Long> v) {
        long[] a = v.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    private static void addAll(List<Long> to, long[] from) {
        for (long x : from) {
            to.add(x);
        }
    }

    private static void putAll(com.fasterxml.jackson.databind.node.ArrayNode a, double[] v) {
        for (double x : v) {
            a.add(x);
        }
    }

    private static String pcts(long[] ns) {
        if (ns.length == 0) {
            return "n/a";
        }
        return String.format(
                Locale.ROOT,
                "%s / %s ms (n=%d)",
                ms(BenchReport.percentile(ns, 50)),
                ms(BenchReport.percentile(ns, 99)),
                ns.length);
    }

    private static double[] column(double[][] runs, int i) {
        double[] out = new double[runs.length];
        for (int r = 0; r < runs.length; r++) {
            out[r] = runs[r][i];
        }
        return out;
    }

    /** Process CPU less the JIT compiler's of each {cpu, jit, checkpoints} run. */
    private static double[] steadyColumn(double[][] runs) {
        double[] out = new double[runs.length];
        for (int r = 0; r < runs.length; r++) {
            out[r] = runs[r][0] - runs[r][1];
        }
        return out;
    }

    /** "cpu % (jit %)" per run. */
    private static String cpus(double[] cpu, double[] jit) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < cpu.length; r++) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(String.format(Locale.ROOT, "%.1f %% (%.1f %%)", cpu[r], jit[r]));
        }
        return sb.toString();
    }

    /** "cpu % (JIT jit %, checkpoints)" per run. */
    private static String cpus(double[][] runs) {
        StringBuilder sb = new StringBuilder();
        for (double[] x : runs) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(
                    String.format(
                            Locale.ROOT, "%.1f %% (%.1f %%, %d cp)", x[0], x[1], (long) x[2]));
        }
        return sb.toString();
    }

    private static String[] row(String... cells) {
        return cells;
    }
}
