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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class XyPlotTest {

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void drawsOneLinePerSeriesSpanningALogAxisAsWellFormedSvg() throws Exception {
        String svg =
                XyPlot.svg(
                        "splits/s <A & B>",
                        List.of(
                                new XyPlot.Panel(
                                        "1M splits",
                                        "parallelism",
                                        "splits/s",
                                        true,
                                        List.of(
                                                new XyPlot.Series(
                                                        "Lane B",
                                                        new double[] {1, 16, 512},
                                                        new double[] {10, 20, 30}),
                                                new XyPlot.Series(
                                                        "Lane A",
                                                        new double[] {1, 512},
                                                        new double[] {40, 50})))));
        Document doc = parse(svg);
        NodeList lines = doc.getElementsByTagName("polyline");
        assertEquals(2, lines.getLength());
        assertTrue(svg.contains("splits/s &lt;A &amp; B&gt;"), svg);
        // On a log axis x = 1 is the plot's left edge and x = 512 its right edge, whatever the
        // gaps.
        String[] b = ((Element) lines.item(0)).getAttribute("points").split(" ");
        String[] a = ((Element) lines.item(1)).getAttribute("points").split(" ");
        assertEquals(3, b.length);
        assertEquals(b[0].split(",")[0], a[0].split(",")[0]);
        assertEquals(b[2].split(",")[0], a[1].split(",")[0]);
        double left = Double.parseDouble(b[0].split(",")[0]);
        double mid = Double.parseDouble(b[1].split(",")[0]);
        double right = Double.parseDouble(b[2].split(",")[0]);
        assertEquals(4.0 / 9.0, (mid - left) / (right - left), 0.01, "log10(16) / log10(512)");
        // y runs from zero to the nice ceiling of the largest value (50): a higher y is drawn
        // higher.
        assertTrue(Double.parseDouble(a[1].split(",")[1]) < Double.parseDouble(b[2].split(",")[1]));
    }

    @Test
    void niceCeilingIsOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(1, XyPlot.niceCeiling(0));
        assertEquals(50, XyPlot.niceCeiling(41));
        assertEquals(200, XyPlot.niceCeiling(101));
        assertEquals(1_000_000, XyPlot.niceCeiling(1_000_000));
    }

    @Test
    void aSeriesWithUnequalCoordinatesIsRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new XyPlot.Series("x", new double[] {1, 2}, new double[] {1}));
    }

    @Test
    void aReportWithOnlyLinePanelsWritesThemAsItsPlot(@TempDir Path dir) throws Exception {
        BenchReport r = new BenchReport("storm");
        r.json().put("figure", 1);
        r.linePanel(
                new XyPlot.Panel(
                        "p",
                        "x",
                        "y",
                        false,
                        List.of(new XyPlot.Series("s", new double[] {0, 1}, new double[] {0, 1}))));
        Path[] written = r.write(dir, "storm");
        assertEquals(2, written.length);
        String svg = Files.readString(written[1]);
        assertEquals(1, parse(svg).getElementsByTagName("polyline").getLength());
    }
}
