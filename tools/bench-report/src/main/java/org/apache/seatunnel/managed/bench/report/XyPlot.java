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
 * Draws figures against a parameter as an SVG of line panels, by hand so the runners need no
 * plotting library: x on a linear or log scale (parallelism, elapsed seconds), y linear from zero,
 * one polyline with point markers per series and a legend under each panel.
 *
 * <p>Threading: stateless.
 */
public final class XyPlot {
    /** A named curve: {@code x[i]} against {@code y[i]}. */
    public record Series(String name, double[] x, double[] y) {
        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException(
                        "series " + name + ": " + x.length + " x values, " + y.length + " y");
            }
        }
    }

    /** One chart: a title, axis labels, whether x is on a log scale, and its curves. */
    public record Panel(
            String title, String xLabel, String yLabel, boolean logX, List<Series> series) {}

    private static final String[] COLORS = {
        "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"
    };
    private static final int W = 560;
    private static final int H = 330;
    private static final int LEFT = 70;
    private static final int RIGHT = 15;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;
    private static final int LEGEND_LINE = 15;
    private static final int Y_TICKS = 5;

    private XyPlot() {}

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
            panel(s, panels.get(i), (i % cols) * W, 40 + (i / cols) * panelH);
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static void panel(StringBuilder s, Panel p, int x0, int y0) {
        double xLo = Double.MAX_VALUE;
        double xHi = -Double.MAX_VALUE;
        double yHi = 0;
        for (Series series : p.series()) {
            for (int i = 0; i < series.x().length; i++) {
                double x = p.logX() ? Math.log10(Math.max(1e-9, series.x()[i])) : series.x()[i];
                xLo = Math.min(xLo, x);
                xHi = Math.max(xHi, x);
                yHi = Math.max(yHi, series.y()[i]);
            }
        }
        if (xLo > xHi) {
            xLo = 0;
            xHi = 1;
        }
        if (xHi == xLo) {
            xHi = xLo + 1;
        }
        yHi = niceCeiling(yHi);
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
        for (int t = 0; t <= Y_TICKS; t++) {
            double v = yHi * t / Y_TICKS;
            double y = py + ph - (double) t / Y_TICKS * ph;
            s.append(
                    f(
                            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                            px, y, px + pw, y));
            s.append(
                    f(
                            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                            px - 4, y + 4, number(v)));
        }
        for (double tick : xTicks(p, xLo, xHi)) {
            double x = px + (tick - xLo) / (xHi - xLo) * pw;
            s.append(
                    f(
                            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                            x, py, x, py + ph));
            s.append(
                    f(
                            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                            x, py + ph + 14, number(p.logX() ? Math.pow(10, tick) : tick)));
        }
        s.append(
                f(
                        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                        px + pw / 2, py + ph + 30, esc(p.xLabel() + (p.logX() ? " (log)" : ""))));
        s.append(
                f(
                        "<text transform=\"translate(%d %d) rotate(-90)\""
                                + " text-anchor=\"middle\">%s</text>\n",
                        x0 + 14, py + ph / 2, esc(p.yLabel())));
        for (int k = 0; k < p.series().size(); k++) {
            Series series = p.series().get(k);
            String color = COLORS[k % COLORS.length];
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < series.x().length; i++) {
                double xv = p.logX() ? Math.log10(Math.max(1e-9, series.x()[i])) : series.x()[i];
                double x = px + (xv - xLo) / (xHi - xLo) * pw;
                double y = py + ph - (yHi == 0 ? 0 : series.y()[i] / yHi) * ph;
                points.append(f("%.1f,%.1f ", x, y));
                s.append(
                        f(
                                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                                x, y, color));
            }
            s.append(
                    f(
                            "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
                                    + " stroke-width=\"1.5\"/>\n",
                            points.toString().trim(), color));
            int ly = y0 + H + k * LEGEND_LINE;
            s.append(
                    f(
                            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                                    + " stroke-width=\"2\"/>\n",
                            px, ly - 4, px + 20, ly - 4, color));
            s.append(f("<text x=\"%d\" y=\"%d\">%s</text>\n", px + 26, ly, esc(series.name())));
        }
        s.append("</g>\n");
    }

    /** Decades on a log axis; five even steps on a linear one. */
    private static double[] xTicks(Panel p, double lo, double hi) {
        if (p.logX()) {
            int a = (int) Math.ceil(lo - 1e-9);
            int b = (int) Math.floor(hi + 1e-9);
            if (b < a) {
                return new double[] {lo, hi};
            }
            double[] t = new double[b - a + 1];
            for (int i = 0; i < t.length; i++) {
                t[i] = a + i;
            }
            return t;
        }
        double[] t = new double[6];
        for (int i = 0; i < t.length; i++) {
            t[i] = lo + (hi - lo) * i / 5;
        }
        return t;
    }

    /** The smallest 1, 2 or 5 times a power of ten at or above {@code v} (1 for 0). */
    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * mag >= v) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String number(double v) {
        double a = Math.abs(v);
        if (a >= 1e6) {
            return f("%.1fM", v / 1e6);
        }
        if (a >= 1e4) {
            return f("%.0fk", v / 1e3);
        }
        if (a == Math.rint(a)) {
            return f("%.0f", v);
        }
        return f("%.2f", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
