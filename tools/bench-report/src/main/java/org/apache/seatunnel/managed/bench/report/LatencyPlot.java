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

import java.util.List;
import java.util.Locale;

/**
 * Draws latency distributions as an SVG of CDF panels, by hand so the runners need no plotting
 * library: x is milliseconds on a log scale (the figures span microseconds to seconds), y the
 * fraction of samples at or below x, one step curve per series, with p50 and p99 guide lines.
 *
 * <p>Threading: stateless.
 */
public final class LatencyPlot {
    /** A named sample of durations in nanoseconds (any order). */
    public record Series(String name, long[] nanos) {}

    /** One chart: a title and its curves. */
    public record Panel(String title, List<Series> series) {}

    private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
    private static final int W = 560;
    private static final int H = 330;
    private static final int LEFT = 55;
    private static final int RIGHT = 15;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;
    private static final int LEGEND_LINE = 15;
    private static final double FLOOR_MS = 0.001;

    private LatencyPlot() {}

    /** The whole document: panels two per row under a title. */
    public static String svg(String title, List<Panel> panels) {
        int cols = Math.min(2, Math.max(1, panels.size()));
        int maxSeries = panels.stream().mapToInt(p -> p.series().size()).max().orElse(0);
        int panelH = H + maxSeries * LEGEND_LINE;
        int rows = (panels.size() + cols - 1) / cols;
        int width = cols * W;
        int height = 40 + rows * panelH;
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(
                f(
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
                                + " font-size=\"11\">\n",
                        width, height, width, height));
        s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
        s.append(
                f(
                        "<text x=\"%d\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">%s</text>\n",
                        width / 2, esc(title)));
        for (int i = 0; i < panels.size(); i++) {
            int x0 = (i % cols) * W;
            int y0 = 40 + (i / cols) * panelH;
            panel(s, panels.get(i), x0, y0);
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static void panel(StringBuilder s, Panel p, int x0, int y0) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Series series : p.series()) {
            for (long v : series.nanos()) {
                double ms = Math.max(FLOOR_MS, v / 1e6);
                lo = Math.min(lo, ms);
                hi = Math.max(hi, ms);
            }
        }
        if (hi == 0) {
            lo = 0.1;
            hi = 10;
        }
        int decLo = (int) Math.floor(Math.log10(lo));
        int decHi = Math.max(decLo + 1, (int) Math.ceil(Math.log10(hi)));
        int px = x0 + LEFT;
        int py = y0 + TOP;
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        s.append(f("<g><title>%s</title>\n", esc(p.title())));
        s.append(
                f(
                        "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">%s</text>\n",
                        px + pw / 2, y0 + 18, esc(p.title())));
        s.append(
                f(
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                                + " stroke=\"#444\"/>\n",
                        px, py, pw, ph));
        for (int d = decLo; d <= decHi; d++) {
            double x = px + (double) (d - decLo) / (decHi - decLo) * pw;
            s.append(
                    f(
                            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                            x, py, x, py + ph));
            s.append(
                    f(
                            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                            x, py + ph + 14, tick(d)));
        }
        s.append(
                f(
                        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">ms (log scale)</text>\n",
                        px + pw / 2, py + ph + 30));
        s.append(
                f(
                        "<text transform=\"translate(%d %d) rotate(-90)\""
                                + " text-anchor=\"middle\">fraction of samples &#8804; x</text>\n",
                        x0 + 14, py + ph / 2));
        for (double q : new double[] {0, 0.5, 0.99, 1}) {
            double y = py + ph - q * ph;
            boolean guide = q == 0.5 || q == 0.99;
            s.append(
                    f(
                            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbb\"%s/>\n",
                            px, y, px + pw, y, guide ? " stroke-dasharray=\"4 3\"" : ""));
            if (guide) {
                s.append(
                        f(
                                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\""
                                        + " fill=\"#888\">%s</text>\n",
                                px + pw - 3, y - 3, q == 0.5 ? "p50" : "p99"));
            }
            if (q != 0.99) {
                s.append(
                        f(
                                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                                px - 4, y + 4, q == 0.5 ? "0.5" : f("%.0f", q)));
            }
        }
        for (int k = 0; k < p.series().size(); k++) {
            Series series = p.series().get(k);
            String color = COLORS[k % COLORS.length];
            long[] v = series.nanos().clone();
            java.util.Arrays.sort(v);
            if (v.length > 0) {
                StringBuilder pts = new StringBuilder();
                double prevY = py + ph;
                for (int i = 0; i < v.length; i++) {
                    double x = xOf(v[i], decLo, decHi, px, pw);
                    double y = py + ph - (double) (i + 1) / v.length * ph;
                    pts.append(f("%.1f,%.1f %.1f,%.1f ", x, prevY, x, y));
                    prevY = y;
                }
                pts.append(f("%d,%.1f", px + pw, prevY));
                s.append(
                        f(
                                "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\""
                                        + " points=\"%s\"/>\n",
                                color, pts.toString().trim()));
            }
            int ly = y0 + H + k * LEGEND_LINE - 2;
            s.append(
                    f(
                            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                                    + " stroke-width=\"3\"/>\n",
                            px, ly - 4, px + 18, ly - 4, color));
            s.append(
                    f(
                            "<text x=\"%d\" y=\"%d\">%s</text>\n",
                            px + 24, ly, esc(series.name() + " — " + summary(v))));
        }
        s.append("</g>\n");
    }

    private static double xOf(long nanos, int decLo, int decHi, int px, int pw) {
        double ms = Math.max(FLOOR_MS, nanos / 1e6);
        return px + (Math.log10(ms) - decLo) / (decHi - decLo) * pw;
    }

    private static String summary(long[] sorted) {
        if (sorted.length == 0) {
            return "no samples";
        }
        return f(
                "n=%d, p50 %s ms, p99 %s ms",
                sorted.length,
                ms(BenchReport.percentile(sorted, 50)),
                ms(BenchReport.percentile(sorted, 99)));
    }

    private static String ms(long nanos) {
        return f(nanos < 10_000_000 ? "%.2f" : "%.0f", nanos / 1e6);
    }

    private static String tick(int decade) {
        double v = Math.pow(10, decade);
        return decade < 0 ? f("%." + (-decade) + "f", v) : f("%.0f", v);
    }

    static String esc(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
