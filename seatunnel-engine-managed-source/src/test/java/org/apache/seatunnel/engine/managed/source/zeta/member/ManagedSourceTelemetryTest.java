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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ManagedSourceTelemetryTest {
    private final TransportMetrics first = new TransportMetrics();
    private final TransportMetrics second = new TransportMetrics();

    @AfterEach
    void removeMembers() {
        ManagedSourceTelemetry.remove(first);
        ManagedSourceTelemetry.remove(second);
    }

    /** What the engine serves at /hazelcast/rest/instance/metrics, our families only. */
    private static List<String> scrape() throws IOException {
        StringWriter w = new StringWriter();
        TextFormat.write004(
                w,
                CollectorRegistry.defaultRegistry.filteredMetricFamilySamples(
                        new HashSet<>(ManagedSourceTelemetry.exportedNames())));
        return Arrays.asList(w.toString().split("\n"));
    }

    @Test
    void countersAreScrapedAsCountersWithTotalAndGaugesAsGauges() throws IOException {
        first.sent.addAndGet(3);
        MemberTaskTotals totals = new MemberTaskTotals();
        // A family without a series has no HELP line: one Lane A job, so every family has one.
        totals.coordinatorOpened(new CoordinatorMetrics(), "1");
        ManagedSourceTelemetry.add(
                "[127.0.0.1]:1", first, new SourceAsyncWorkerPool(Runnable::run), totals);
        List<String> lines = scrape();
        assertTrue(
                lines.contains("# TYPE ManagedSourceCommandsSent_total counter"), lines.toString());
        assertTrue(
                lines.contains("ManagedSourceCommandsSent_total{address=\"[127.0.0.1]:1\",} 3.0"),
                lines.toString());
        assertTrue(lines.contains("# TYPE ManagedSourceAsyncCoordinators gauge"), lines.toString());
        Set<String> helps =
                lines.stream()
                        .filter(l -> l.startsWith("# HELP "))
                        .map(l -> l.substring(l.indexOf(' ', 7)))
                        .collect(Collectors.toSet());
        assertEquals(
                ManagedSourceTelemetry.metrics().size(),
                helps.size(),
                "one help text per metric on the scrape");
    }

    @Test
    void restoresRefusedAreReportedOnceUnderTheJvmsFirstMember() throws IOException {
        ManagedSourceTelemetry.add(
                "[127.0.0.1]:1",
                first,
                new SourceAsyncWorkerPool(Runnable::run),
                new MemberTaskTotals());
        ManagedSourceTelemetry.add(
                "[127.0.0.1]:2",
                second,
                new SourceAsyncWorkerPool(Runnable::run),
                new MemberTaskTotals());
        long before = ManagedSourceTelemetry.restoresRefused();
        ManagedSourceTelemetry.restoreRefused();
        List<String> samples =
                scrape().stream()
                        .filter(l -> l.startsWith("ManagedSourceRestoresRefused_total{"))
                        .collect(Collectors.toList());
        assertEquals(
                Arrays.asList(
                        "ManagedSourceRestoresRefused_total{address=\"[127.0.0.1]:1\",} "
                                + (double) (before + 1)),
                samples,
                "one sample, so a sum over members does not count the JVM twice");
        ManagedSourceTelemetry.remove(first);
        assertTrue(
                scrape().contains(
                                "ManagedSourceRestoresRefused_total{address=\"[127.0.0.1]:2\",} "
                                        + (double) (before + 1)),
                "the next member reports it once the first one stopped");
    }

    @Test
    void memberTotalsKeepTheCountsOfClosedCoordinatorsButNotTheirLevels() {
        MemberTaskTotals totals = new MemberTaskTotals();
        CoordinatorMetrics c = new CoordinatorMetrics();
        totals.coordinatorOpened(c, "7");
        c.increment(CoordinatorMetrics.Counter.SNAPSHOT_TIMEOUTS);
        c.set(CoordinatorMetrics.Gauge.TRACKER_ASSIGNMENTS, 5);
        c.set(
                CoordinatorMetrics.Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS,
                System.currentTimeMillis() - 60_000);
        assertEquals(1, totals.snapshotTimeouts());
        assertEquals(5, totals.sumOf(CoordinatorMetrics.Gauge.TRACKER_ASSIGNMENTS));
        assertTrue(totals.oldestUncheckpointedAgeMillis() >= 60_000);
        totals.coordinatorClosed(c);
        totals.coordinatorClosed(c);
        assertEquals(1, totals.snapshotTimeouts(), "a closed coordinator's count stays, once");
        assertEquals(0, totals.sumOf(CoordinatorMetrics.Gauge.TRACKER_ASSIGNMENTS));
        assertEquals(0, totals.oldestUncheckpointedAgeMillis());
    }

    @Test
    void eachJobWithLaneACoordinatorsHereHasOneSeriesCountingThem() {
        MemberTaskTotals totals = new MemberTaskTotals();
        CoordinatorMetrics a1 = new CoordinatorMetrics();
        CoordinatorMetrics a2 = new CoordinatorMetrics();
        CoordinatorMetrics b = new CoordinatorMetrics();
        totals.coordinatorOpened(a1, "11");
        totals.coordinatorOpened(a2, "11");
        totals.coordinatorOpened(b, "12");
        java.util.Map<String, Double> series = new java.util.TreeMap<>();
        totals.sampleJobs((labels, value) -> series.put(labels.get(0), value));
        assertEquals(2.0, series.get("11"), "two Lane A sources of job 11");
        assertEquals(1.0, series.get("12"));
        totals.coordinatorClosed(a1);
        totals.coordinatorClosed(a2);
        series.clear();
        totals.sampleJobs((labels, value) -> series.put(labels.get(0), value));
        assertEquals(java.util.Collections.singleton("12"), series.keySet(), "job 11 ended here");
    }
}
