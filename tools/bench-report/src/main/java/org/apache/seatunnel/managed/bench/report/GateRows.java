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

package org.apache.seatunnel.managed.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * STIP-31's performance exit criteria as rows of one table: each measured point of a side-by-side
 * runner adds the criteria it can judge, with both lanes' figures and pass or fail; the runner
 * prints the rows last and writes them to its JSON ({@code gates}). The Fake, Kafka and Iceberg
 * runners each keep their own rows, and {@link #main} prints the rows of several runs' JSON as one
 * table ({@code tools/run-gate-matrix.sh}). The criteria:
 *
 * <ul>
 *   <li>{@link Criterion#THROUGHPUT}: Lane A's steady-state rows/s (splits/s for a split storm) at
 *       least 0.97 × Lane B's;
 *   <li>{@link Criterion#CPU}: Lane A's steady-state CPU, or that CPU per row at saturation, at
 *       most 1.05 × Lane B's; where the lanes' checkpoints differ a row can compare equal
 *       checkpoint counts ({@link #ratioAtCheckpoints});
 *   <li>{@link Criterion#HEAP}: heap after a full collection, the job in its steady state, at most
 *       1.05 × Lane B's;
 *   <li>{@link Criterion#CHECKPOINT_P99}: the checkpoint p99 at most Lane B's plus max(5 %, 100
 *       ms);
 *   <li>{@link Criterion#ADMISSION_P99}: at most 1 % of the commands took longer than 5 ms;
 *   <li>{@link Criterion#MAILBOX_BOUNDED}: the fullest reader mailbox within its bound;
 *   <li>{@link Criterion#IDLE_LATENCY}: Lane A's idle row due → emitted p99 ≤ 10 ms;
 *   <li>{@link Criterion#RUNTIME_CHECKPOINT}: the runtime checkpoint p50 at most Lane B's;
 *   <li>{@link Criterion#EXACTLY_ONCE}: every run of both lanes delivered each row exactly once;
 *   <li>{@link Criterion#BASELINE}: not judged; a figure shown next to Lane B's.
 * </ul>
 *
 * <p>Threading: not thread-safe; a runner's main thread adds, prints and writes the rows.
 */
public class GateRows {
    public enum Criterion {
        THROUGHPUT("throughput >= 0.97 x B"),
        CPU("CPU <= 1.05 x B"),
        HEAP("heap after GC <= 1.05 x B"),
        CHECKPOINT_P99("ckpt p99 <= B + max(5 %, 100 ms)"),
        ADMISSION_P99("admission p99 <= 5 ms"),
        MAILBOX_BOUNDED("mailbox bytes <= bound"),
        IDLE_LATENCY("idle due->emitted p99 <= 10 ms"),
        RUNTIME_CHECKPOINT("runtime ckpt p50 <= B"),
        EXACTLY_ONCE("every row exactly once"),
        BASELINE("baseline (not judged)");

        public final String rule;

        Criterion(String rule) {
            this.rule = rule;
        }
    }

    /** One judged figure. */
    public record Row(
            String point, Criterion criterion, String laneB, String laneA, String verdict) {
        public boolean failed() {
            return verdict.startsWith("FAIL");
        }

        public boolean judged() {
            return !verdict.equals("-");
        }
    }

    private final List<Row> rows = new ArrayList<>();

    public List<Row> rows() {
        return rows;
    }

    /** A ratio criterion (throughput, CPU, heap): Lane A / Lane B against the criterion's limit. */
    public void ratio(String point, Criterion c, double laneB, double laneA, String format) {
        add(point, c, fmt(format, laneB), fmt(format, laneA), ratioVerdict(c, laneB, laneA));
    }

    static String ratioVerdict(Criterion c, double laneB, double laneA) {
        double r = laneA / laneB;
        boolean pass;
        switch (c) {
            case THROUGHPUT:
                pass = r >= 0.97;
                break;
            case CPU:
            case HEAP:
                pass = r <= 1.05;
                break;
            default:
                throw new IllegalArgumentException(c + " is not a ratio criterion");
        }
        return verdict(pass, fmt("%.3f x", r));
    }

    /**
     * Throughput and CPU of a point with data always there, from each lane's runs ({@code [0]} Lane
     * B, {@code [1]} Lane A): the medians of the runs' per-second figures and of their CPU-seconds
     * per million; NaN, so a failed row, for a lane without a run. {@code unit} names what is
     * counted ("rows", "splits").
     */
    public void saturated(
            String point, double[][] perSecond, double[][] cpuPerMillion, String unit) {
        ratio(
                point,
                Criterion.THROUGHPUT,
                medianOrNaN(perSecond[0]),
                medianOrNaN(perSecond[1]),
                "%,.0f " + unit + "/s");
        ratio(
                point,
                Criterion.CPU,
                medianOrNaN(cpuPerMillion[0]),
                medianOrNaN(cpuPerMillion[1]),
                "%.2f CPU-s/M " + unit);
    }

    private static double medianOrNaN(double[] values) {
        return values.length == 0 ? Double.NaN : BenchReport.median(values);
    }

    /** The p99 of sorted nanoseconds in milliseconds; NaN if there is none (no checkpoint). */
    public static double p99Millis(long[] sortedNanos) {
        return sortedNanos.length == 0 ? Double.NaN : BenchReport.percentile(sortedNanos, 99) / 1e6;
    }

    /**
     * A ratio criterion whose figures are only comparable when Lane A did at least Lane B's
     * checkpoint work: both lanes' values show the checkpoints each completed. Lane A completing
     * fewer (by more than one) fails the row, as the comparison would favour it; Lane A completing
     * more is judged on the ratio, which then charges Lane A for the checkpoints Lane B did not
     * complete (with slow data Lane B's readers hold the checkpoint lock while they wait, so its
     * checkpoints come late and the engine skips some).
     */
    public void ratioAtCheckpoints(
            String point,
            Criterion c,
            double laneB,
            double laneA,
            String format,
            double laneBCheckpoints,
            double laneACheckpoints) {
        String b = fmt(format, laneB) + fmt(" (%.0f cp)", laneBCheckpoints);
        String a = fmt(format, laneA) + fmt(" (%.0f cp)", laneACheckpoints);
        boolean fewer = laneBCheckpoints - laneACheckpoints > 1;
        add(
                point,
                c,
                b,
                a,
                fewer
                        ? verdict(false, "Lane A completed fewer checkpoints")
                        : ratioVerdict(c, laneB, laneA));
    }

    /**
     * The checkpoint p99 of both lanes, in milliseconds; NaN for a lane that completed no
     * checkpoint in its window.
     */
    public void checkpointP99(String point, double laneBMs, double laneAMs) {
        add(
                point,
                Criterion.CHECKPOINT_P99,
                Double.isNaN(laneBMs) ? "none completed" : fmt("%.0f ms", laneBMs),
                Double.isNaN(laneAMs) ? "none completed" : fmt("%.0f ms", laneAMs),
                checkpointP99Verdict(laneBMs, laneAMs));
    }

    /**
     * A lane that completed no checkpoint in its window took longer than the window for each: Lane
     * A fails then, and passes when only Lane B completed none (with slow data Lane B's readers
     * hold the checkpoint lock while they wait, and a quick run's window is a few seconds).
     */
    public static String checkpointP99Verdict(double laneBMs, double laneAMs) {
        if (Double.isNaN(laneAMs)) {
            return verdict(false, "Lane A completed no checkpoint");
        }
        if (Double.isNaN(laneBMs)) {
            return verdict(true, "Lane B completed no checkpoint in its window");
        }
        double allowed = laneBMs + Math.max(0.05 * laneBMs, 100);
        return verdict(laneAMs <= allowed, fmt("limit %.0f ms", allowed));
    }

    /** Lane A's runtime checkpoint p50 against Lane B's, in milliseconds. */
    public void runtimeCheckpoint(String point, double laneBMs, double laneAMs) {
        add(
                point,
                Criterion.RUNTIME_CHECKPOINT,
                fmt("%.1f ms", laneBMs),
                fmt("%.1f ms", laneAMs),
                verdict(laneAMs <= laneBMs, fmt("%.2f x", laneAMs / laneBMs)));
    }

    /** Lane A's idle row due → emitted p99 (Lane B's shown, not judged). */
    public void idleLatency(String point, double laneBMs, double laneAMs) {
        add(
                point,
                Criterion.IDLE_LATENCY,
                fmt("%.1f ms", laneBMs),
                fmt("%.1f ms", laneAMs),
                verdict(laneAMs <= 10, "limit 10 ms"));
    }

    /** Whether every run of each lane delivered every row exactly once ({@code runs} per lane). */
    public void exactlyOnce(String point, int runs, int laneBBad, int laneABad) {
        add(
                point,
                Criterion.EXACTLY_ONCE,
                fmt("%d of %d runs", runs - laneBBad, runs),
                fmt("%d of %d runs", runs - laneABad, runs),
                verdict(laneBBad == 0 && laneABad == 0, "every run checked"));
    }

    /** A figure shown next to Lane B's for reference. */
    public void baseline(String point, String stock, String laneB) {
        add(point, Criterion.BASELINE, laneB, "stock: " + stock, "-");
    }

    public void add(String point, Criterion c, String laneB, String laneA, String verdict) {
        rows.add(new Row(point, c, laneB, laneA, verdict));
    }

    public static String verdict(boolean pass, String detail) {
        return (pass ? "PASS" : "FAIL") + " (" + detail + ")";
    }

    /** Prints the rows under {@code title}; returns how many failed. */
    public long print(String title) {
        return print(title, rows);
    }

    static long print(String title, List<Row> rows) {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"point", "criterion", "Lane B", "Lane A", "verdict"});
        for (Row g : rows) {
            cells.add(
                    new String[] {
                        g.point(), g.criterion().rule, g.laneB(), g.laneA(), g.verdict()
                    });
        }
        int[] w = new int[5];
        for (String[] r : cells) {
            for (int i = 0; i < 5; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        System.out.println();
        System.out.println(title);
        for (int k = 0; k < cells.size(); k++) {
            StringBuilder b = new StringBuilder("|");
            for (int i = 0; i < 5; i++) {
                b.append(' ').append(pad(cells.get(k)[i], w[i])).append(" |");
            }
            System.out.println(b);
            if (k == 0) {
                StringBuilder s = new StringBuilder("|");
                for (int i = 0; i < 5; i++) {
                    s.append("-".repeat(w[i] + 2)).append('|');
                }
                System.out.println(s);
            }
        }
        long failed = rows.stream().filter(Row::failed).count();
        long judged = rows.stream().filter(Row::judged).count();
        System.out.printf("%d of %d judged rows pass%n", judged - failed, judged);
        return failed;
    }

    /** Writes the rows as {@code gates}: one object per row. */
    public void write(ObjectNode json) {
        ArrayNode a = json.putArray("gates");
        for (Row g : rows) {
            ObjectNode o = a.addObject();
            o.put("point", g.point());
            o.put("criterion", g.criterion().name());
            o.put("rule", g.criterion().rule);
            o.put("laneB", g.laneB());
            o.put("laneA", g.laneA());
            o.put("verdict", g.verdict());
        }
    }

    /**
     * The rows a runner wrote to {@code json}'s {@code gates}.
     *
     * @throws IllegalArgumentException if it has none, or a row names no known criterion
     */
    public static List<Row> read(JsonNode json) {
        JsonNode a = json.get("gates");
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException("no gate rows (\"gates\") in this report");
        }
        List<Row> out = new ArrayList<>();
        for (JsonNode o : a) {
            out.add(
                    new Row(
                            text(o, "point"),
                            Criterion.valueOf(text(o, "criterion")),
                            text(o, "laneB"),
                            text(o, "laneA"),
                            text(o, "verdict")));
        }
        return out;
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("a gate row without \"" + field + "\"");
        }
        return v.asText();
    }

    /**
     * Prints the gate rows of the given reports ({@code side-by-side.json}, {@code
     * kafka-side-by-side.json}, ...) as one table, each report's rows in its order; with {@code
     * --out FILE} first, also writes them to FILE as one report's {@code gates}. Exits 1 if a row
     * failed, 2 if a report is missing or has no rows.
     */
    public static void main(String[] args) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        int first = 0;
        Path out = null;
        if (args.length >= 2 && args[0].equals("--out")) {
            out = Paths.get(args[1]);
            first = 2;
        }
        GateRows all = new GateRows();
        for (int i = first; i < args.length; i++) {
            Path p = Paths.get(args[i]);
            try {
                all.rows.addAll(read(mapper.readTree(Files.readAllBytes(p))));
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("cannot read the gate rows of " + p + ": " + e);
                System.exit(2);
            }
        }
        long failed = all.print("STIP-31 exit criteria, the whole matrix (gate table)");
        if (out != null) {
            ObjectNode json = mapper.createObjectNode();
            all.write(json);
            Files.write(out, mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
            System.out.println("written " + out.toAbsolutePath());
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(Math.max(0, w - s.length()));
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
