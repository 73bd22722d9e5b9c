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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.apache.seatunnel.managed.bench.report.GateRows.Criterion;
import org.junit.jupiter.api.Test;

/**
 * The gate rows' verdicts (the checkpoint p99 criterion, including a lane that completed no
 * checkpoint in its window; the ratio limits; exactly once) and their JSON round trip.
 */
class GateRowsTest {
    @Test
    void laneAIsAllowedLaneBsP99PlusTheLargerOfFivePercentAndOneHundredMilliseconds() {
        assertEquals("PASS (limit 110 ms)", GateRows.checkpointP99Verdict(10, 110));
        assertEquals("FAIL (limit 110 ms)", GateRows.checkpointP99Verdict(10, 111));
        assertEquals("PASS (limit 4200 ms)", GateRows.checkpointP99Verdict(4000, 4200));
    }

    @Test
    void aLaneWithoutACompletedCheckpointFailsOnlyIfItIsLaneA() {
        assertEquals(
                "PASS (Lane B completed no checkpoint in its window)",
                GateRows.checkpointP99Verdict(Double.NaN, 5));
        assertEquals(
                "FAIL (Lane A completed no checkpoint)",
                GateRows.checkpointP99Verdict(13, Double.NaN));
        assertEquals(
                "FAIL (Lane A completed no checkpoint)",
                GateRows.checkpointP99Verdict(Double.NaN, Double.NaN));
    }

    @Test
    void ratiosPassAtTheirLimitsAndFailJustPastThem() {
        GateRows g = new GateRows();
        g.ratio("t", Criterion.THROUGHPUT, 100, 97, "%.0f");
        g.ratio("t", Criterion.THROUGHPUT, 100, 96.9, "%.1f");
        g.ratio("c", Criterion.CPU, 100, 105, "%.0f");
        g.ratio("c", Criterion.CPU, 100, 105.1, "%.1f");
        g.ratio("h", Criterion.HEAP, 100, 105.1, "%.1f");
        List<String> verdicts = g.rows().stream().map(GateRows.Row::verdict).toList();
        assertEquals(
                List.of(
                        "PASS (0.970 x)",
                        "FAIL (0.969 x)",
                        "PASS (1.050 x)",
                        "FAIL (1.051 x)",
                        "FAIL (1.051 x)"),
                verdicts);
        assertThrows(
                IllegalArgumentException.class,
                () -> g.ratio("x", Criterion.ADMISSION_P99, 1, 1, "%.0f"));
    }

    @Test
    void fewerCheckpointsOnLaneAFailTheRowWhateverItsRatio() {
        GateRows g = new GateRows();
        g.ratioAtCheckpoints("s", Criterion.CPU, 5, 4, "%.1f %%", 10, 8);
        g.ratioAtCheckpoints("s", Criterion.CPU, 5, 4, "%.1f %%", 10, 9);
        assertEquals("FAIL (Lane A completed fewer checkpoints)", g.rows().get(0).verdict());
        assertEquals("PASS (0.800 x)", g.rows().get(1).verdict());
        assertEquals("4.0 % (9 cp)", g.rows().get(1).laneA());
    }

    @Test
    void oneRunThatLostOrDuplicatedARowFailsExactlyOnce() {
        GateRows g = new GateRows();
        g.exactlyOnce("storm", 3, 0, 0);
        g.exactlyOnce("storm", 3, 1, 0);
        g.exactlyOnce("storm", 3, 0, 1);
        assertTrue(!g.rows().get(0).failed());
        assertTrue(g.rows().get(1).failed(), "Lane B's runs are checked too");
        assertTrue(g.rows().get(2).failed());
        assertEquals("2 of 3 runs", g.rows().get(2).laneA());
    }

    @Test
    void rowsReadBackFromTheJsonTheyWereWrittenTo() throws Exception {
        GateRows g = new GateRows();
        g.ratio("Kafka p=2", Criterion.CPU, 2.0, 1.5, "%.2f CPU-s/M");
        g.baseline("stock", "1 rows/s", "2 rows/s");
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode json = mapper.createObjectNode();
        g.write(json);
        JsonNode back = mapper.readTree(mapper.writeValueAsBytes(json));
        assertEquals(g.rows(), GateRows.read(back));
        assertTrue(!GateRows.read(back).get(1).judged(), "a baseline is shown, not judged");
        assertThrows(
                IllegalArgumentException.class,
                () -> GateRows.read(mapper.createObjectNode()),
                "a report without gate rows");
        ObjectNode bad = mapper.createObjectNode();
        bad.putArray("gates").addObject().put("point", "p");
        assertThrows(IllegalArgumentException.class, () -> GateRows.read(bad));
    }

    @Test
    void aLaneWithoutAFinishedRunFailsBothSaturatedRows() {
        GateRows g = new GateRows();
        g.saturated(
                "storm", new double[][] {{100, 120, 110}, {}}, new double[][] {{2}, {}}, "splits");
        assertEquals(2, g.rows().size());
        assertEquals("110 splits/s", g.rows().get(0).laneB(), "Lane B's median run");
        assertTrue(g.rows().get(0).failed() && g.rows().get(1).failed());
        assertEquals(Double.NaN, GateRows.p99Millis(new long[0]));
        assertEquals(7.0, GateRows.p99Millis(new long[] {1_000_000, 7_000_000}));
    }
}
