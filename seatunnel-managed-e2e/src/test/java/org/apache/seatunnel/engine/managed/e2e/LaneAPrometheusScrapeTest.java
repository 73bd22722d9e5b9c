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

package org.apache.seatunnel.engine.managed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.seatunnel.engine.managed.source.transport.MemberMetric;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceTelemetry;
import org.apache.seatunnel.engine.managed.source.zeta.member.MemberTaskTotals;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a member serves Prometheus after a Lane A job: every member metric at {@code
 * /hazelcast/rest/instance/metrics} with its kind and help, a scrape that {@code promtool check
 * metrics} parses with no lint problem on our metrics but the PascalCase names SeaTunnel's style
 * requires, and why the docs do not name {@code /openmetrics}.
 *
 * <p>The only test class of this module that starts an engine with telemetry: Zeta registers its
 * own exporters once per JVM (see {@link EmbeddedZeta.Builder#telemetry()}).
 */
class LaneAPrometheusScrapeTest {
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String JOB_NAME = "lane-a-prometheus";
    private static final String STREAMING_JOB = "lane-a-prometheus-streaming";
    // promtool's one lint on names that are not snake_case: what PascalCase names get.
    private static final String CAMEL_CASE_LINT =
            "metric names should be written in 'snake_case' not 'camelCase'";
    private static final String METRICS = "/hazelcast/rest/instance/metrics";
    private static EmbeddedZeta zeta;
    private static long unsignalled;

    @BeforeAll
    static void startEngineAndRunAJob() throws Exception {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList(JOB_NAME, STREAMING_JOB));
        cfg.put("allowed-connectors", Arrays.asList(SafetyNetSource.IDENTIFIER, "ManagedFake"));
        cfg.put("reader.idle-wait", "100ms");
        LaneASettings.install(cfg);
        zeta = EmbeddedZeta.builder("lane-a-prometheus", 24970).telemetry().start();
        RuntimeStats.reset();
        // Readers that never signal availability: the member's sum of that reader metric is one
        // of the series the alert rules use, and it must keep the closed readers' counts.
        ManagedJobs.finish5x20ExactlyOnce(
                zeta, ManagedJobs.unsignalled5x20(JOB_NAME, JOB_NAME), JOB_NAME, BOUND);
        unsignalled = RuntimeStats.total(RuntimeStats.Counter.AVAILABILITY_NOT_SIGNALLED);
    }

    @AfterAll
    static void stopEngine() {
        if (zeta != null) {
            zeta.close();
        }
        LaneASettings.clear();
    }

    /** Status, content type and body of a GET on member 0's REST port. */
    private static String[] get(String path) throws IOException {
        HttpURLConnection c =
                (HttpURLConnection)
                        new URL("http://127.0.0.1:" + zeta.restPort(0) + path).openConnection();
        c.setConnectTimeout(10_000);
        c.setReadTimeout(30_000);
        try (InputStream in = c.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
            return new String[] {
                String.valueOf(c.getResponseCode()),
                c.getContentType(),
                new String(out.toByteArray(), StandardCharsets.UTF_8)
            };
        } finally {
            c.disconnect();
        }
    }

    private static double sample(String scrape, String name) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{address=\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no sample of " + name + " in the scrape");
    }

    /** The value of the job's {@code ManagedSourceJobLaneA} series, or null without one. */
    private static Double jobLaneA(String scrape, long jobId) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(MemberTaskTotals.JOB_LANE_A + "{")
                    && line.contains("job_id=\"" + jobId + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    @Test
    void aRunningLaneAJobHasItsLaneSeriesUntilItEnds() throws Exception {
        long jobId =
                zeta.submit(
                        ManagedJobs.streaming(
                                STREAMING_JOB, "    rows.per.second = 50\n", STREAMING_JOB));
        try {
            await().atMost(BOUND)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Double.valueOf(1.0).equals(jobLaneA(get(METRICS)[2], jobId)));
        } finally {
            zeta.cancelAndAwaitEnd(jobId, BOUND);
        }
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> jobLaneA(get(METRICS)[2], jobId) == null);
    }

    @Test
    void everyMemberMetricIsServedAtInstanceMetricsWithItsKindAndHelp() throws Exception {
        String[] r = get("/hazelcast/rest/instance/metrics");
        assertEquals("200", r[0]);
        String scrape = r[2];
        List<String> lines = Arrays.asList(scrape.split("\n"));
        for (MemberMetric<?> d : ManagedSourceTelemetry.metrics()) {
            if (!d.extraLabels().isEmpty()) {
                // Per-job series exist only while a job runs (the next test); none runs now.
                continue;
            }
            String kind = d.kind().name().toLowerCase(Locale.ROOT);
            assertTrue(lines.contains("# TYPE " + d.exportedName() + " " + kind), d.toString());
            assertTrue(lines.contains("# HELP " + d.exportedName() + " " + d.help()), d.toString());
            sample(scrape, d.exportedName());
        }
        assertTrue(sample(scrape, "ManagedSourceCommandsSent_total") > 0, "the job sent commands");
        assertTrue(unsignalled >= 2, "both readers went unsignalled: " + unsignalled);
        assertEquals(
                (double) unsignalled,
                sample(scrape, MemberTaskTotals.AVAILABILITY_NOT_SIGNALLED + "_total"),
                "the member's sum keeps the counts of the job's closed readers");
        assertEquals(
                0.0,
                sample(scrape, MemberTaskTotals.TRACKER_ASSIGNMENTS),
                "no coordinator runs after the job: its tracker left the member's level");
        System.out.printf(
                "[LaneAPrometheusScrapeTest] %d Lane A families on /instance/metrics (%s),"
                        + " ManagedSourceMemberAvailabilityNotSignalled_total %d%n",
                ManagedSourceTelemetry.metrics().size(), r[1], unsignalled);
    }

    @Test
    void promtoolParsesTheWholeScrapeAndFlagsOurMetricsOnlyForPascalCase() throws Exception {
        Optional<Path> promtool = Promtool.find();
        Assumptions.assumeTrue(promtool.isPresent(), Promtool.MISSING);
        String scrape = get("/hazelcast/rest/instance/metrics")[2];
        Promtool.Result result =
                Promtool.run(
                        promtool.get(),
                        scrape.getBytes(StandardCharsets.UTF_8),
                        "check",
                        "metrics");
        assertTrue(
                result.exitCode == 0 || result.exitCode == Promtool.LINT_PROBLEMS,
                "promtool could not parse the scrape: " + result);
        TreeSet<String> ours = new TreeSet<>();
        List<String> stock = new ArrayList<>();
        for (String line : result.lines()) {
            int space = line.indexOf(' ');
            String name = space < 0 ? line : line.substring(0, space);
            if (space < 0 || !name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
                fail("not a lint problem of a metric: " + line + "\n" + result);
            }
            if (name.startsWith("ManagedSource")) {
                assertEquals(CAMEL_CASE_LINT, line.substring(space + 1), line);
                ours.add(name);
            } else {
                stock.add(line);
            }
        }
        TreeSet<String> served = new TreeSet<>();
        for (MemberMetric<?> d : ManagedSourceTelemetry.metrics()) {
            // Per-job series exist only while a job runs; none runs now.
            if (d.extraLabels().isEmpty()) {
                served.add(d.exportedName());
            }
        }
        assertEquals(
                served, ours, "the PascalCase lint for every one of our metrics, and no other");
        System.out.printf(
                "[LaneAPrometheusScrapeTest] promtool check metrics: exit %d, %d lines; ours: %d"
                        + " x \"%s\"; engine's own metrics: %s%n",
                result.exitCode, result.lines().size(), ours.size(), CAMEL_CASE_LINT, stock);
    }

    @Test
    void openMetricsPathServesOpenMetricsTextAsPlainTextWhichPrometheusCannotParse()
            throws Exception {
        String[] r = get("/hazelcast/rest/instance/openmetrics");
        assertEquals("200", r[0]);
        assertTrue(r[1].startsWith("text/plain"), "served as " + r[1]);
        // The registry lists its collectors in no fixed order, so jvm may be the first family.
        assertTrue(
                Arrays.asList(r[2].split("\n")).contains("# TYPE jvm info"),
                "OpenMetrics' info type, which the text format 0.0.4 does not have");
        assertTrue(r[2].trim().endsWith("# EOF"), "OpenMetrics text");
        Optional<Path> promtool = Promtool.find();
        if (promtool.isPresent()) {
            Promtool.Result result =
                    Promtool.run(
                            promtool.get(),
                            r[2].getBytes(StandardCharsets.UTF_8),
                            "check",
                            "metrics");
            assertEquals(1, result.exitCode, "promtool parses it as 0.0.4 and fails: " + result);
            System.out.printf(
                    "[LaneAPrometheusScrapeTest] /openmetrics is %s; promtool: %s%n",
                    r[1], result.output.trim());
        }
    }
}
