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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threading: any thread; the installed value is published through a volatile field.
 *
 * <p>Where planning finds the operator's managed-source settings: an explicitly installed config
 * (embedded engines, tests, the demo), else the {@code seatunnel.yaml} named by the system property
 * {@value #CONFIG_PROPERTY}, else {@code $SEATUNNEL_HOME/config/seatunnel.yaml}, else the defaults
 * (Lane A off). A file that exists but is invalid fails loudly at first use.
 */
public final class ManagedSourceSettings {
    public static final String CONFIG_PROPERTY = "seatunnel.config";

    private static final Logger LOG = LoggerFactory.getLogger(ManagedSourceSettings.class);
    private static volatile ManagedSourceConfig installed;

    private ManagedSourceSettings() {}

    /** Installs the settings for this JVM (embedded engines); null uninstalls. */
    public static void install(ManagedSourceConfig config) {
        installed = config;
        if (config != null) {
            LOG.info("Managed source settings installed: {}", config);
            reportUnmatchedConnectors(config, Thread.currentThread().getContextClassLoader());
        }
    }

    /**
     * Names in {@code allowed-connectors} that match no source factory on the classpath: reported
     * (never failed) so an operator sees a typo at startup instead of a job silently on Lane B.
     *
     * @return the unmatched names, sorted
     */
    public static java.util.Set<String> reportUnmatchedConnectors(
            ManagedSourceConfig config, ClassLoader loader) {
        java.util.Set<String> known = new java.util.TreeSet<>();
        try {
            for (org.apache.seatunnel.api.table.factory.Factory f :
                    org.apache.seatunnel.api.table.factory.FactoryUtil.discoverFactories(
                            loader,
                            org.apache.seatunnel.api.table.factory.TableSourceFactory.class)) {
                known.add(f.factoryIdentifier());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Could not list source factories to check managed-source.allowed-connectors",
                    e);
            return java.util.Collections.emptySet();
        }
        java.util.Set<String> unmatched = new java.util.TreeSet<>();
        for (String name : config.allowedConnectors()) {
            if (!org.apache.seatunnel.engine.managed.source.lane.LaneSelector.WILDCARD.equals(name)
                    && !known.contains(name)) {
                unmatched.add(name);
            }
        }
        if (!unmatched.isEmpty()) {
            LOG.warn(
                    "managed-source.allowed-connectors names no installed source connector: {}"
                            + " (installed: {}); those entries have no effect",
                    unmatched,
                    known);
        }
        return unmatched;
    }

    public static ManagedSourceConfig current() {
        ManagedSourceConfig c = operatorConfig();
        return c == null ? ManagedSourceConfig.defaults() : c;
    }

    /**
     * The installed or file-loaded settings, or null when the operator gave none (so programmatic
     * member settings keep precedence over the defaults).
     */
    public static ManagedSourceConfig operatorConfig() {
        ManagedSourceConfig c = installed;
        if (c != null) {
            return c;
        }
        Path file = locate();
        if (file == null) {
            return null;
        }
        try {
            c = ManagedSourceYaml.load(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        installed = c;
        LOG.info("Managed source settings loaded from {}: {}", file, c);
        reportUnmatchedConnectors(c, Thread.currentThread().getContextClassLoader());
        return c;
    }

    private static Path locate() {
        String prop = System.getProperty(CONFIG_PROPERTY);
        if (prop != null && Files.isRegularFile(Paths.get(prop))) {
            return Paths.get(prop);
        }
        String home = System.getenv("SEATUNNEL_HOME");
        if (home != null) {
            Path p = Paths.get(home, "config", "seatunnel.yaml");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }
}
