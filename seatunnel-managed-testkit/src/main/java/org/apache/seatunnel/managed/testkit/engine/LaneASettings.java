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

package org.apache.seatunnel.managed.testkit.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.zeta.member.OperatorSettings;

/**
 * Gives the embedded engines of this JVM the managed-source settings they plan jobs with, the way
 * an operator does: as the {@code managed-source} section of a {@code seatunnel.yaml}, here a
 * temporary file named by the system property {@value OperatorSettings#CONFIG_PROPERTY}.
 *
 * <p>Threading: any thread. The property is one JVM-wide value: install the settings before
 * submitting a job (the lane is chosen when the job is planned, inside {@link EmbeddedZeta#submit})
 * and {@link #clear()} them when the test class ends. Test classes that run in parallel in one JVM
 * would overwrite each other's settings; surefire's default (one class at a time per fork) is fine.
 * A member reads its runtime limits (payload and mailbox bounds, retry) when it starts, so install
 * those before starting the engine.
 */
public final class LaneASettings {
    private static String propertyBefore;
    private static boolean installed;
    // The section last installed, so a run can change the allowlists and keep the rest.
    private static Map<String, Object> current = Collections.emptyMap();

    private LaneASettings() {}

    /** Lane A on for exactly the named jobs and connectors (factory identifiers). */
    public static void enable(Collection<String> jobNames, Collection<String> connectorNames) {
        install(true, jobNames, connectorNames);
    }

    /**
     * The kill switch as given, with the allowlists as given. With {@code enabled == false} every
     * job plans on Lane B, allowlisted or not: that is how a test runs the same job on Lane B.
     */
    public static void install(
            boolean enabled, Collection<String> jobNames, Collection<String> connectorNames) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("enabled", enabled);
        cfg.put("allowed-jobs", new ArrayList<>(jobNames));
        cfg.put("allowed-connectors", new ArrayList<>(connectorNames));
        install(cfg);
    }

    /**
     * Any {@code managed-source} section, keys as in {@code seatunnel.yaml} (for example {@code
     * "poll.soft-duration" -> "200ms"}); values are booleans, numbers, strings or lists of strings.
     * The section is validated here, so a bad key fails the test at once.
     */
    public static synchronized void install(Map<String, ?> section) {
        ManagedSourceConfig.fromMap(section);
        current = Collections.unmodifiableMap(new LinkedHashMap<>(section));
        Path yaml;
        try {
            yaml = Files.createTempFile("managed-source-", ".yaml");
            Files.write(yaml, yaml(section).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the managed-source settings", e);
        }
        yaml.toFile().deleteOnExit();
        if (!installed) {
            propertyBefore = System.getProperty(OperatorSettings.CONFIG_PROPERTY);
            installed = true;
        }
        System.setProperty(OperatorSettings.CONFIG_PROPERTY, yaml.toString());
    }

    /** The section installed last (empty after {@link #clear()}). */
    public static synchronized Map<String, Object> current() {
        return current;
    }

    /**
     * {@link #current()} with the kill switch and both allowlists replaced: every other setting
     * (poll bounds, idle wait, …) stays as the test installed it.
     */
    public static synchronized void installLane(
            boolean enabled, Collection<String> jobNames, Collection<String> connectorNames) {
        Map<String, Object> cfg = new LinkedHashMap<>(current);
        cfg.put("enabled", enabled);
        cfg.put("allowed-jobs", new ArrayList<>(jobNames));
        cfg.put("allowed-connectors", new ArrayList<>(connectorNames));
        install(cfg);
    }

    /**
     * Gives the property back its value from before the first {@link #install}, so jobs planned
     * later read the settings from the operator's {@code seatunnel.yaml} or the defaults (Lane A
     * off).
     */
    public static synchronized void clear() {
        current = Collections.emptyMap();
        if (installed) {
            if (propertyBefore == null) {
                System.clearProperty(OperatorSettings.CONFIG_PROPERTY);
            } else {
                System.setProperty(OperatorSettings.CONFIG_PROPERTY, propertyBefore);
            }
            installed = false;
            propertyBefore = null;
        }
    }

    static String yaml(Map<String, ?> section) {
        StringBuilder b = new StringBuilder("seatunnel:\n  engine:\n    managed-source:\n");
        for (Map.Entry<String, ?> e : section.entrySet()) {
            b.append("      ").append(quoted(e.getKey())).append(": ");
            Object v = e.getValue();
            if (v instanceof Collection) {
                List<String> items = new ArrayList<>();
                for (Object item : (Collection<?>) v) {
                    items.add(quoted(String.valueOf(item)));
                }
                b.append('[').append(String.join(", ", items)).append(']');
            } else if (v instanceof Boolean || v instanceof Number) {
                b.append(v);
            } else {
                b.append(quoted(String.valueOf(v)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** A YAML double-quoted scalar (JSON escapes are valid YAML). */
    private static String quoted(String s) {
        StringBuilder b = new StringBuilder();
        RowKeys.appendQuoted(b, s);
        return b.toString();
    }
}
