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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where planning finds the operator's managed-source settings: the {@code seatunnel.yaml} named by
 * the system property {@value #CONFIG_PROPERTY}, else {@code
 * $SEATUNNEL_HOME/config/seatunnel.yaml}, else the defaults (Lane A off). Embedded engines (tests,
 * the demo) name their file through the same property, so they plan exactly as a member does.
 *
 * <p>Threading: any thread; the file cache is guarded by the class monitor.
 *
 * <p>A file that exists but is invalid fails loudly at first use. The file is read again when it
 * changed, at the next planning (a deployment or a restore), so an operator's edit needs no member
 * restart; the member's runtime limits (read once when the member starts, {@code
 * ManagedSourceMemberService}) are the exception.
 */
public final class OperatorSettings {
    public static final String CONFIG_PROPERTY = "seatunnel.config";

    private static final Logger LOG = LoggerFactory.getLogger(OperatorSettings.class);

    // Guarded by the class monitor (fromFile).
    private static FileSettings fileSettings;

    private OperatorSettings() {}

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
        known.addAll(mappedSourceConnectors());
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

    /**
     * Source connectors a SeaTunnel home maps to jars in {@code connectors/} (its {@code
     * plugin-mapping.properties}): they load per job, so the class path alone does not list them.
     */
    static java.util.Set<String> mappedSourceConnectors() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        String home = System.getProperty("SEATUNNEL_HOME", System.getenv("SEATUNNEL_HOME"));
        if (home == null) {
            return names;
        }
        Path mapping = Paths.get(home, "connectors", "plugin-mapping.properties");
        if (!Files.isRegularFile(mapping)) {
            return names;
        }
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Files.newInputStream(mapping)) {
            p.load(in);
        } catch (IOException e) {
            LOG.warn("Cannot read {}", mapping, e);
            return names;
        }
        String prefix = "seatunnel.source.";
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(prefix)) {
                names.add(key.substring(prefix.length()));
            }
        }
        return names;
    }

    public static ManagedSourceConfig current() {
        ManagedSourceConfig c = operatorConfig();
        return c == null ? ManagedSourceConfig.defaults() : c;
    }

    /**
     * The file-loaded settings, or null when the operator gave none (so programmatic member
     * settings keep precedence over the defaults).
     */
    public static ManagedSourceConfig operatorConfig() {
        Path file = locate();
        if (file == null) {
            return null;
        }
        return fromFile(file);
    }

    /**
     * The file's settings, read again whenever its modification time or size changed since the last
     * read: an operator's edit (e.g. the kill switch) applies to the next planning without a member
     * restart. One stat per planning; a file that fails to parse keeps failing planning (loudly)
     * until it is fixed, never falls back to older settings.
     */
    private static synchronized ManagedSourceConfig fromFile(Path file) {
        long modified;
        long size;
        try {
            modified = Files.getLastModifiedTime(file).toMillis();
            size = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        FileSettings cached = fileSettings;
        if (cached != null && cached.matches(file, modified, size)) {
            return cached.config;
        }
        ManagedSourceConfig c;
        try {
            c = ManagedSourceYaml.load(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        LOG.info(
                "Managed source settings {} from {}: {}",
                cached == null ? "loaded" : "reloaded",
                file,
                c);
        // Checked again whenever the list changed: an edit can bring a typo as well as the first
        // load (listing the factories costs a class-path scan, so not on every reload).
        java.util.Set<String> unmatched =
                cached != null && cached.config.allowedConnectors().equals(c.allowedConnectors())
                        ? cached.unmatchedConnectors
                        : reportUnmatchedConnectors(
                                c, Thread.currentThread().getContextClassLoader());
        fileSettings = new FileSettings(file, modified, size, c, unmatched);
        return c;
    }

    /**
     * The names of the operator file's {@code allowed-connectors} that match no installed source
     * connector, as last reported; empty before the file was read.
     */
    public static synchronized java.util.Set<String> unmatchedConnectorsOfTheFile() {
        FileSettings f = fileSettings;
        return f == null ? java.util.Collections.<String>emptySet() : f.unmatchedConnectors;
    }

    /** The settings read from one version of the operator's file. */
    private static final class FileSettings {
        final Path file;
        final long modifiedMillis;
        final long size;
        final ManagedSourceConfig config;
        final java.util.Set<String> unmatchedConnectors;

        FileSettings(
                Path file,
                long modifiedMillis,
                long size,
                ManagedSourceConfig config,
                java.util.Set<String> unmatchedConnectors) {
            this.file = file;
            this.modifiedMillis = modifiedMillis;
            this.size = size;
            this.config = config;
            this.unmatchedConnectors = unmatchedConnectors;
        }

        boolean matches(Path f, long modified, long s) {
            return file.equals(f) && modifiedMillis == modified && size == s;
        }
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
