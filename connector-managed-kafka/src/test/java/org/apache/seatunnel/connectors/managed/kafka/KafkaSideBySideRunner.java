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

package org.apache.seatunnel.connectors.managed.kafka;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.managed.bench.report.BenchReport;
import org.apache.seatunnel.managed.bench.report.GateRows;
import org.apache.seatunnel.managed.bench.report.GateRows.Criterion;
import org.apache.seatunnel.managed.bench.report.LatencyPlot;
import org.apache.seatunnel.managed.bench.report.SteadyCpu;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.EngineCheckpointSampler;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * Not a test: the stock {@code Kafka} source on Lane B against {@code ManagedKafka} on Lane A, in
 * one embedded engine against one broker, p=2, 8 partitions. Prints a table, writes it as {@code
 * target/kafka-side-by-side.json} and plots both lanes' barrier-wait, checkpoint-duration and
 * produce-to-sink distributions in {@code target/kafka-side-by-side.svg}:
 *
 * <ul>
 *   <li>throughput and process CPU per million rows reading a pre-filled topic to its end ({@code
 *       BATCH}), median of alternating repetitions;
 *   <li>produce-to-sink latency p50/p99 of a trickle (10 records/s) into a streaming job;
 *   <li>on that trickle, for each checkpoint completed meanwhile: the engine's checkpoint duration
 *       (coordinator trigger to completed) and the engine-side barrier figure, trigger to each
 *       reader task's acknowledgement (both from the coordinator's {@code CompletedCheckpoint}
 *       statistics, millisecond resolution); on Lane A also the runtime's own barrier wait (engine
 *       demanded the snapshot to the reader loop took it, {@link RuntimeStats}), which the stock
 *       reader does not expose;
 *   <li>process CPU of the engine while that streaming job is idle.
 * </ul>
 *
 * <p>The broker runs in a child process, so its CPU is not counted. Run with {@code
 * tools/run-kafka-side-by-side.sh [quick]}.
 */
public final class KafkaSideBySideRunner {
    private static final int PARTITIONS = 8;
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final String[] LANES = {"B stock Kafka", "A ManagedKafka"};
    private static final int PARALLELISM = 2;
    private static final String CELL = "%-38s";
    private static final String COL = "%-26s";

    /** What one lane's trickle phase measured; durations in nanoseconds, sorted. */
    private record Trickle(
            long[] produceToSink,
            long[] checkpointDuration,
            long[] triggerToReaderAck,
            long[] runtimeBarrierWait,
            double idleCpuPercent) {}

    private KafkaSideBySideRunner() {}

    public static void main(String[] args) throws Exception {
        boolean quick = args.length > 0 && args[0].equals("quick");
        int rowsPerPartition = quick ? 25_000 : 100_000;
        int reps = quick ? 3 : 5;
        int trickleSeconds = quick ? 10 : 30;
        int idleSeconds = quick ? 5 : 15;
        try (KafkaTestBroker broker = KafkaTestBroker.start();
                EmbeddedZeta zeta = EmbeddedZeta.builder("kafka-side-by-side", 22660).start()) {
            LaneASettings.install(
                    true,
                    Arrays.asList("bench-a"),
                    Arrays.asList(ManagedKafkaSourceFactory.IDENTIFIER));
            String fillTopic = "bench-fill";
            broker.createTopic(fillTopic, PARTITIONS);
            String pad = new String(new char[80]).replace('\0', 'x');
            for (int p = 0; p < PARTITIONS; p++) {
                List<String> values = new ArrayList<>(rowsPerPartition);
                for (int i = 0; i < rowsPerPartition; i++) {
                    values.add(p + "-" + i + "-" + pad);
                }
                broker.produce(fillTopic, p, values);
            }
            long total = (long) rowsPerPartition * PARTITIONS;
            double[][] rps = new double[2][reps];
            double[][] cpu = new double[2][reps];
            int run = 0;
            for (int r = 0; r < reps; r++) {
                for (int lane = 0; lane < 2; lane++) {
                    int l = (r % 2 == 0) ? lane : 1 - lane;
                    double[] m = bounded(zeta, broker, l, fillTopic, total, "fill-" + run++);
                    rps[l][r] = m[0];
                    cpu[l][r] = m[1];
                }
            }
            Trickle[] trickle = new Trickle[2];
            for (int lane = 0; lane < 2; lane++) {
                trickle[lane] = trickle(zeta, broker, lane, trickleSeconds, idleSeconds);
            }
            StringBuilder table = new StringBuilder();
            table.append(
                    String.format(
                            Locale.ROOT,
                            CELL + " | " + COL + " | " + COL + "%n",
                            "figure (median of " + reps + ")",
                            LANES[0],
                            LANES[1]));
            row(
                    table,
                    "rows/s, " + total + " rows, p=2",
                    "%.0f",
                    BenchReport.median(rps[0]),
                    BenchReport.median(rps[1]));
            row(
                    table,
                    "CPU-s per M rows (less the JIT compiler's)",
                    "%.2f",
                    BenchReport.median(cpu[0]),
                    BenchReport.median(cpu[1]));
            row(
                    table,
                    "trickle produce->sink p50/p99 ms",
                    BenchReport.p50p99(trickle[0].produceToSink()),
                    BenchReport.p50p99(trickle[1].produceToSink()));
            row(
                    table,
                    "trickle records seen",
                    String.valueOf(trickle[0].produceToSink().length),
                    String.valueOf(trickle[1].produceToSink().length));
            row(
                    table,
                    "barrier wait p50/p99 ms (runtime)",
                    "not exposed (engine only)",
                    BenchReport.p50p99(trickle[1].runtimeBarrierWait()));
            row(
                    table,
                    "engine trigger->reader ack p50/p99 ms",
                    BenchReport.p50p99(trickle[0].triggerToReaderAck()),
                    BenchReport.p50p99(trickle[1].triggerToReaderAck()));
            row(
                    table,
                    "checkpoint duration p50/p99 ms",
                    BenchReport.p50p99(trickle[0].checkpointDuration()),
                    BenchReport.p50p99(trickle[1].checkpointDuration()));
            row(
                    table,
                    "idle streaming job, CPU %",
                    "%.1f",
                    trickle[0].idleCpuPercent(),
                    trickle[1].idleCpuPercent());
            System.out.print(table);
            GateRows gates = new GateRows();
            String saturated =
                    String.format(Locale.ROOT, "Kafka p=2, %,d rows, data always there", total);
            gates.saturated(saturated, rps, cpu, "rows");
            gates.checkpointP99(
                    "Kafka p=2, 10 records/s (engine checkpoint trigger -> completed)",
                    GateRows.p99Millis(trickle[0].checkpointDuration()),
                    GateRows.p99Millis(trickle[1].checkpointDuration()));
            // Shown, not judged: in a streaming job the stock source stops at the end offsets it
            // found at start (2.3.8, apache/seatunnel#7971), so its readers have nothing left to
            // poll, while ManagedKafka's keep polling the broker: not the same work.
            gates.add(
                    "Kafka p=2, idle streaming job, process CPU (the stock source no longer polls:"
                            + " #7971)",
                    Criterion.BASELINE,
                    String.format(Locale.ROOT, "%.1f %%", trickle[0].idleCpuPercent()),
                    String.format(Locale.ROOT, "%.1f %%", trickle[1].idleCpuPercent()),
                    "-");
            gates.print("STIP-31 exit criteria, Kafka (gate table)");
            BenchReport report =
                    new BenchReport(
                            "Kafka: stock Kafka (Lane B) vs ManagedKafka (Lane A), one embedded"
                                    + " Zeta 2.3.8, one broker");
            ObjectNode json = report.json();
            json.put("quick", quick);
            gates.write(json);
            json.put("partitions", PARTITIONS);
            json.put("parallelism", PARALLELISM);
            json.put("rowsPerRun", total);
            json.put("reps", reps);
            json.put("trickleSeconds", trickleSeconds);
            json.put("trickleRecordsPerSecond", 10);
            ArrayNode lanes = json.putArray("lanes");
            for (int l = 0; l < 2; l++) {
                ObjectNode lane = lanes.addObject();
                lane.put("lane", LANES[l]);
                BenchReport.addAll(lane.putArray("rowsPerSecond"), rps[l]);
                BenchReport.addAll(lane.putArray("cpuSecondsPerMillionRows"), cpu[l]);
                lane.set(
                        "trickleProduceToSink",
                        BenchReport.distribution(trickle[l].produceToSink(), true));
                lane.set(
                        "checkpointDurationEngine",
                        BenchReport.distribution(trickle[l].checkpointDuration(), true));
                lane.set(
                        "triggerToReaderAckEngine",
                        BenchReport.distribution(trickle[l].triggerToReaderAck(), true));
                if (l == 1) {
                    lane.set(
                            "barrierWaitRuntime",
                            BenchReport.distribution(trickle[l].runtimeBarrierWait(), true));
                } else {
                    lane.putNull("barrierWaitRuntime");
                }
                lane.put("idleCpuPercent", trickle[l].idleCpuPercent());
            }
            report.panel(
                    "trickle: barrier wait",
                    List.of(
                            new LatencyPlot.Series(
                                    "B stock: engine trigger->reader ack (1 ms steps)",
                                    trickle[0].triggerToReaderAck()),
                            new LatencyPlot.Series(
                                    "A managed: engine trigger->reader ack (1 ms steps)",
                                    trickle[1].triggerToReaderAck()),
                            new LatencyPlot.Series(
                                    "A managed: runtime barrier wait",
                                    trickle[1].runtimeBarrierWait())));
            report.panel(
                    "trickle (10 records/s): produce -> sink",
                    List.of(
                            new LatencyPlot.Series(LANES[0], trickle[0].produceToSink()),
                            new LatencyPlot.Series(LANES[1], trickle[1].produceToSink())));
            report.panel(
                    "trickle: checkpoint duration (engine trigger -> completed)",
                    List.of(
                            new LatencyPlot.Series(LANES[0], trickle[0].checkpointDuration()),
                            new LatencyPlot.Series(LANES[1], trickle[1].checkpointDuration())));
            for (Path out : report.write(Paths.get("target"), "kafka-side-by-side")) {
                System.out.println("written " + out.toAbsolutePath());
            }
        } finally {
            LaneASettings.clear();
        }
        System.exit(0);
    }

    private static void row(StringBuilder sb, String name, String fmt, double b, double a) {
        row(sb, name, String.format(Locale.ROOT, fmt, b), String.format(Locale.ROOT, fmt, a));
    }

    private static void row(StringBuilder sb, String name, String b, String a) {
        sb.append(String.format(Locale.ROOT, CELL + " | " + COL + " | " + COL + "%n", name, b, a));
    }

    private static String source(int lane, KafkaTestBroker broker, String topic, String group) {
        String options =
                "    bootstrap.servers = \""
                        + broker.bootstrap()
                        + "\"\n    topic = \""
                        + topic
                        + "\"\n    start_mode = \"earliest\"\n    consumer.group = \""
                        + group
                        + "\"\n    poll.timeout = 1000\n";
        if (lane == 0) {
            return "  Kafka {\n" + options + "  }\n";
        }
        return "  Managed {\n    connector = \"ManagedKafka\"\n    job-name = \"bench-a\"\n"
                + options
                + "  }\n";
    }

    private static String job(String mode, String source, String runId) {
        return "env {\n  job.mode = \""
                + mode
                + "\"\n  parallelism = "
                + PARALLELISM
                + "\n  checkpoint.interval = 1000\n}\nsource {\n"
                + source
                + "}\nsink {\n  KafkaBench {\n    run.id = \""
                + runId
                + "\"\n  }\n}\n";
    }

    /**
     * rows/s and CPU-s per million rows (less the JIT compiler's) of one bounded read of the whole
     * topic.
     */
    private static double[] bounded(
            EmbeddedZeta zeta,
            KafkaTestBroker broker,
            int lane,
            String topic,
            long total,
            String runId)
            throws Exception {
        // Less the JIT compiler threads' CPU, as the Fake runner judges it (SteadyCpu).
        SteadyCpu cpu0 = SteadyCpu.now();
        long t0 = System.nanoTime();
        long jobId = zeta.submit(job("BATCH", source(lane, broker, topic, runId), runId));
        JobStatus status = zeta.awaitTerminal(jobId, Duration.ofMinutes(10));
        long wall = System.nanoTime() - t0;
        long cpuNanos = SteadyCpu.now().steadySince(cpu0);
        long rows = BenchSinkFactory.rows(runId).get();
        if (status != JobStatus.FINISHED || rows != total) {
            throw new IllegalStateException(
                    LANES[lane] + ": " + status + " with " + rows + " of " + total + " rows");
        }
        return new double[] {rows / (wall / 1e9), (cpuNanos / 1e9) / (rows / 1e6)};
    }

    /**
     * A 10 records/s trickle into a streaming job: produce-to-sink latencies and the checkpoints
     * completed meanwhile; then the process CPU while the job idles.
     */
    private static Trickle trickle(
            EmbeddedZeta zeta, KafkaTestBroker broker, int lane, int seconds, int idleSeconds)
            throws Exception {
        String topic = "bench-trickle-" + lane;
        String runId = "trickle-" + lane;
        broker.createTopic(topic, PARTITIONS);
        long jobId = zeta.submit(job("STREAMING", source(lane, broker, topic, runId), runId));
        // Warm-up: one record per partition, until all are through (the readers are assigned).
        for (int p = 0; p < PARTITIONS; p++) {
            broker.produce(topic, p, Arrays.asList("warmup-" + p));
        }
        await().atMost(Duration.ofMinutes(2))
                .until(() -> BenchSinkFactory.rows(runId).get() >= PARTITIONS);
        BenchSinkFactory.latencies(runId).clear();
        RuntimeStats.reset();
        EngineCheckpointSampler checkpoints =
                new EngineCheckpointSampler(System.currentTimeMillis());
        long period = TimeUnit.MILLISECONDS.toNanos(100);
        long next = System.nanoTime();
        int n = seconds * 10;
        for (int i = 0; i < n; i++) {
            LockSupport.parkNanos(next - System.nanoTime());
            broker.produce(topic, i % PARTITIONS, Arrays.asList(i + "|" + System.nanoTime()));
            next += period;
            // Checkpoints come every second; sampling every 100 ms sees each one.
            checkpoints.sample(zeta, jobId);
        }
        long[] runtimeWaits = lane == 1 ? RuntimeStats.barrierWaitsSorted() : new long[0];
        try {
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> BenchSinkFactory.latencies(runId).size() >= n);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // Reported as records seen: the stock 2.3.8 source stops at the end offsets it found
            // at start in a streaming job (apache/seatunnel#7971) and never sees the trickle.
            System.out.printf(
                    "%s saw %d of %d trickle records%n",
                    LANES[lane], BenchSinkFactory.latencies(runId).size(), n);
        }
        long[] lat =
                BenchSinkFactory.latencies(runId).stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(lat);
        long cpu0 = OS.getProcessCpuTime();
        long t0 = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(idleSeconds));
        double idle = 100.0 * (OS.getProcessCpuTime() - cpu0) / (System.nanoTime() - t0);
        zeta.cancel(jobId, Duration.ofSeconds(60));
        return new Trickle(
                lat, checkpoints.durations(), checkpoints.readerAcks(), runtimeWaits, idle);
    }
}
