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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.org.snakeyaml.engine.v2.api.Load;
import com.hazelcast.org.snakeyaml.engine.v2.api.LoadSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceTelemetry;
import org.apache.seatunnel.engine.managed.source.zeta.member.MemberTaskTotals;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard and the Prometheus alert rules in {@code docs/prometheus} use only metrics
 * the members export, under the names the scrape shows ({@code _total} on counters), and the rules
 * alert on what the docs say they do; {@code promtool check rules} accepts the rules (skipped
 * without promtool).
 */
class PrometheusDashboardAndRulesTest {
    private static final Path DIR = Path.of("..", "docs", "prometheus");
    private static final Path RULES = DIR.resolve("lane-a-alerts.yml");
    private static final Path DASHBOARD = DIR.resolve("lane-a-dashboard.json");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    // PromQL words that are neither metrics nor functions (a function is followed by "(").
    private static final Set<String> KEYWORDS =
            new HashSet<>(
                    Arrays.asList(
                            "by",
                            "without",
                            "on",
                            "ignoring",
                            "group_left",
                            "group_right",
                            "bool",
                            "and",
                            "or",
                            "unless",
                            "offset"));

    /**
     * The metric names of one PromQL expression: identifiers outside label matchers, ranges and
     * strings that are neither functions nor keywords. {@code label_values(metric, label)} names
     * its metric first and a label second.
     */
    static Set<String> metricsOf(String expr) {
        String e = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", " ");
        e = e.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^\\]]*]", " ");
        // Label lists of aggregations and vector matching: "by (address)", "on (address)".
        e = e.replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        e = e.replaceAll("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,[^)]*\\)", " $1 ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(e);
        while (m.find()) {
            if (m.start() > 0 && Character.isDigit(e.charAt(m.start() - 1))) {
                continue; // the exponent of a number such as 1e-9
            }
            String rest = e.substring(m.end()).trim();
            if (rest.startsWith("(") || KEYWORDS.contains(m.group())) {
                continue;
            }
            names.add(m.group());
        }
        return names;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() throws IOException {
        Map<String, Object> doc =
                (Map<String, Object>)
                        new Load(LoadSettings.builder().build())
                                .loadFromString(
                                        new String(
                                                Files.readAllBytes(RULES), StandardCharsets.UTF_8));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) doc.get("groups")) {
            out.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return out;
    }

    private static void dashboardExpressions(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields()
                    .forEachRemaining(
                            f -> {
                                if ((f.getKey().equals("expr") || f.getKey().equals("definition"))
                                        && f.getValue().isTextual()) {
                                    out.add(f.getValue().asText());
                                } else if (f.getKey().equals("query") && f.getValue().isTextual()) {
                                    out.add(f.getValue().asText());
                                } else {
                                    dashboardExpressions(f.getValue(), out);
                                }
                            });
        } else if (node.isArray()) {
            node.forEach(n -> dashboardExpressions(n, out));
        }
    }

    @Test
    void extractsMetricNamesFromPromQl() {
        assertEquals(
                new TreeSet<>(Arrays.asList("A_total", "B")),
                metricsOf(
                        "rate(A_total{address=~\"$address\", x=\"y\"}[5m]) / clamp_min(B, 1e-9)"
                                + " > 0 and on (address) B"));
        assertEquals(
                new TreeSet<>(Arrays.asList("C_total")),
                metricsOf("label_values(C_total, address)"));
    }

    @Test
    void alertRulesUseOnlyExportedMetricsAndCoverTheDocumentedAlerts() throws IOException {
        Set<String> exported = new HashSet<>(ManagedSourceTelemetry.exportedNames());
        Set<String> used = new TreeSet<>();
        List<String> alerts = new ArrayList<>();
        for (Map<String, Object> rule : rules()) {
            alerts.add((String) rule.get("alert"));
            Set<String> names = metricsOf((String) rule.get("expr"));
            assertFalse(names.isEmpty(), "no metric in " + rule.get("expr"));
            for (String n : names) {
                assertTrue(exported.contains(n), n + " in alert " + rule.get("alert"));
            }
            used.addAll(names);
        }
        assertEquals(
                new TreeSet<>(
                        Arrays.asList(
                                ManagedSourceTelemetry.RESTORES_REFUSED + "_total",
                                "ManagedSourceCommandRetriesExhausted_total",
                                MemberTaskTotals.SNAPSHOT_TIMEOUTS + "_total",
                                MemberTaskTotals.OLDEST_UNCHECKPOINTED_AGE,
                                MemberTaskTotals.TRACKER_BYTES,
                                MemberTaskTotals.AVAILABILITY_NOT_SIGNALLED + "_total",
                                MemberTaskTotals.OFF_LOOP_STATE_CHANGES + "_total")),
                used,
                "restores refused, retries exhausted, snapshot timeouts, tracker growth,"
                        + " availability not signalled, off-loop state changes: "
                        + alerts);
    }

    @Test
    void dashboardUsesOnlyExportedMetrics() throws IOException {
        Set<String> exported = new HashSet<>(ManagedSourceTelemetry.exportedNames());
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> exprs = new ArrayList<>();
        dashboardExpressions(dashboard.path("panels"), exprs);
        dashboardExpressions(dashboard.path("templating"), exprs);
        assertTrue(exprs.size() > 10, "expressions found: " + exprs);
        Set<String> used = new TreeSet<>();
        for (String expr : exprs) {
            Set<String> names = metricsOf(expr);
            assertFalse(names.isEmpty(), "no metric in " + expr);
            for (String n : names) {
                assertTrue(exported.contains(n), n + " in dashboard expression " + expr);
            }
            used.addAll(names);
        }
        for (Map<String, Object> rule : rules()) {
            for (String n : metricsOf((String) rule.get("expr"))) {
                assertTrue(used.contains(n), "every alert's metric is on the dashboard: " + n);
            }
        }
    }

    @Test
    void promtoolAcceptsTheAlertRules() throws Exception {
        Optional<Path> promtool = Promtool.find();
        Assumptions.assumeTrue(promtool.isPresent(), Promtool.MISSING);
        Promtool.Result r =
                Promtool.run(promtool.get(), new byte[0], "check", "rules", RULES.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("SUCCESS: " + rules().size() + " rules found"), r.output);
    }
}
