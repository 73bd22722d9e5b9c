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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class LatencyPlotTest {

    @Test
    void drawsOneCurvePerNonEmptySeriesAsWellFormedSvgEvenWithMarkupInNames() throws Exception {
        String svg =
                LatencyPlot.svg(
                        "lanes <A & B>",
                        List.of(
                                new LatencyPlot.Panel(
                                        "barrier wait \"0 ms\"",
                                        List.of(
                                                new LatencyPlot.Series(
                                                        "Lane B", new long[] {3_000_000, 0, 1}),
                                                new LatencyPlot.Series(
                                                        "Lane A", new long[] {40_000, 2_000_000}))),
                                new LatencyPlot.Panel(
                                        "empty",
                                        List.of(new LatencyPlot.Series("Lane A", new long[0])))));
        Document doc =
                DocumentBuilderFactory.newInstance()
                        .newDocumentBuilder()
                        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertEquals(2, doc.getElementsByTagName("polyline").getLength());
        assertTrue(svg.contains("lanes &lt;A &amp; B&gt;"), svg);
        assertTrue(svg.contains("no samples"), svg);
    }

    @Test
    void distributionJsonHasNearestRankPercentiles() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = (i + 1) * 1_000_000L;
        }
        var d = BenchReport.distribution(sorted, false);
        assertEquals(100, d.get("n").asInt());
        assertEquals(50.0, d.get("p50Ms").asDouble());
        assertEquals(99.0, d.get("p99Ms").asDouble());
        assertTrue(BenchReport.distribution(new long[0], true).get("p99Ms").isNull());
    }
}
