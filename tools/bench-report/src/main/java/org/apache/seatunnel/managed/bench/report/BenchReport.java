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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One runner's report: a JSON tree of figures (written with jackson-databind) and the panels of its
 * latency plot, written side by side as {@code <name>.json} and {@code <name>.svg}.
 *
 * <p>Threading: not thread-safe; the runner's main thread builds and writes it.
 */
public final class BenchReport {
    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String title;
    private final ObjectNode root = MAPPER.createObjectNode();
    private final List<LatencyPlot.Panel> panels = new ArrayList<>();
    private final List<XyPlot.Panel> linePanels = new ArrayList<>();

    public BenchReport(String title) {
        this.title = title;
        root.put("title", title);
    }

    /** The JSON tree; the runner adds its figures here. */
    public ObjectNode json() {
        return root;
    }

    /** Adds a plot panel: one CDF curve per series. */
    public void panel(String panelTitle, List<LatencyPlot.Series> series) {
        panels.add(new LatencyPlot.Panel(panelTitle, series));
    }

    /** Adds a line panel: figures against a parameter, drawn by {@link XyPlot}. */
    public void linePanel(XyPlot.Panel panel) {
        linePanels.add(panel);
    }

    /**
     * A distribution as JSON: {@code n}, {@code p50Ms}, {@code p99Ms}, {@code maxMs} (null when
     * empty) and, when {@code withSamples}, every sample in milliseconds so the plot can be redrawn
     * from the JSON alone.
     */
    public static ObjectNode distribution(long[] sortedNanos, boolean withSamples) {
        ObjectNode d = MAPPER.createObjectNode();
        d.put("n", sortedNanos.length);
        if (sortedNanos.length == 0) {
            d.putNull("p50Ms");
            d.putNull("p99Ms");
            d.putNull("maxMs");
        } else {
            d.put("p50Ms", percentile(sortedNanos, 50) / 1e6);
            d.put("p99Ms", percentile(sortedNanos, 99) / 1e6);
            d.put("maxMs", sortedNanos[sortedNanos.length - 1] / 1e6);
        }
        if (withSamples) {
            ArrayNode samples = d.putArray("samplesMs");
            for (long v : sortedNanos) {
                samples.add(v / 1e6);
            }
        }
        return d;
    }

    /** Nearest-rank percentile of sorted values; the array must not be empty. */
    public static long percentile(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** "p50 / p99 (n=N)" of sorted nanoseconds in milliseconds, or "n/a (n=0)". */
    public static String p50p99(long[] sortedNanos) {
        if (sortedNanos.length == 0) {
            return "n/a (n=0)";
        }
        return String.format(
                Locale.ROOT,
                "%s / %s (n=%d)",
                millis(percentile(sortedNanos, 50)),
                millis(percentile(sortedNanos, 99)),
                sortedNanos.length);
    }

    /** Milliseconds with two decimals below 10 ms, none above. */
    public static String millis(long nanos) {
        return String.format(Locale.ROOT, nanos < 10_000_000 ? "%.2f" : "%.0f", nanos / 1e6);
    }

    /** The median (upper middle for an even count); the array is not changed. */
    public static double median(double[] values) {
        double[] c = values.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    /** Appends every value to {@code array}. */
    public static void addAll(ArrayNode array, double[] values) {
        for (double v : values) {
            array.add(v);
        }
    }

    /**
     * Writes {@code dir/name.json} and {@code dir/name.svg} (the latency panels, or the line panels
     * when there are none), plus {@code dir/name-lines.svg} when there are both; returns the paths.
     */
    public Path[] write(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        Path json = dir.resolve(name + ".json");
        MAPPER.writeValue(json.toFile(), root);
        out.add(json);
        Path svg = dir.resolve(name + ".svg");
        if (panels.isEmpty() && !linePanels.isEmpty()) {
            Files.write(svg, XyPlot.svg(title, linePanels).getBytes(StandardCharsets.UTF_8));
            out.add(svg);
        } else {
            Files.write(svg, LatencyPlot.svg(title, panels).getBytes(StandardCharsets.UTF_8));
            out.add(svg);
            if (!linePanels.isEmpty()) {
                Path lines = dir.resolve(name + "-lines.svg");
                Files.write(lines, XyPlot.svg(title, linePanels).getBytes(StandardCharsets.UTF_8));
                out.add(lines);
            }
        }
        return out.toArray(new Path[0]);
    }
}
