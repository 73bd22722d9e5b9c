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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The install and uninstall commands of install.md (en, zh), run as written on a stock-like home
 * with the plugin archive this build made: install adds only the archive's files and mapping lines,
 * every mapping line finds its jar, every jar a managed connector's manifest names is there, and
 * uninstall leaves the home as it was.
 */
class InstallDocTest {
    private static final List<String> STOCK_MAPPING =
            Arrays.asList(
                    "seatunnel.source.Kafka = connector-kafka",
                    "seatunnel.sink.Kafka = connector-kafka",
                    "seatunnel.sink.Console = connector-console");

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/install.md", "../docs/zh/install.md"})
    void installThenUninstallAsDocumented(String doc) throws Exception {
        Path archive = archive();
        List<String> lines = Files.readAllLines(Paths.get(doc), StandardCharsets.UTF_8);
        Path home = stockHome();
        TreeSet<String> before = files(home);
        String mappingBefore = mapping(home);

        run(bashBlockAfter(lines, "## Install", "## 安装"), archive.getParent(), home);

        List<String> mappingLines =
                Files.readAllLines(home.resolve("connectors/plugin-mapping.properties"));
        for (String line : mappingLines) {
            assertFalse(line.trim().startsWith("#"), "no comment appended: " + line);
        }
        assertEquals(STOCK_MAPPING, mappingLines.subList(0, STOCK_MAPPING.size()));
        List<String> added = mappingLines.subList(STOCK_MAPPING.size(), mappingLines.size());
        assertTrue(
                added.contains("seatunnel.source.Managed = connector-managed-common"),
                added.toString());
        assertTrue(
                added.contains("seatunnel.source.ManagedKafka = connector-managed-kafka"),
                added.toString());
        for (String line : mappingLines) {
            String prefix = line.substring(line.indexOf('=') + 1).trim();
            assertFalse(
                    jarsStartingWith(home.resolve("connectors"), prefix).isEmpty(),
                    "a jar for " + line);
        }
        for (Path jar : jarsStartingWith(home.resolve("connectors"), "connector-managed-")) {
            for (String named : manifestClassPath(jar)) {
                assertTrue(
                        Files.isRegularFile(jar.resolveSibling(named)),
                        jar.getFileName() + " names " + named + ", which must be in connectors/");
            }
        }
        assertFalse(
                jarsStartingWith(home.resolve("lib"), "seatunnel-engine-managed-source").isEmpty());

        run(bashBlockAfter(lines, "- Uninstall:", "- 卸载："), archive.getParent(), home);

        assertEquals(before, files(home), "uninstall removes every file install added");
        assertEquals(mappingBefore, mapping(home), "and every mapping line");
    }

    private static Path archive() throws IOException {
        Path target = Paths.get("../seatunnel-managed-dist/target");
        try (Stream<Path> s = Files.list(target)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tar.gz"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no plugin archive in " + target));
        }
    }

    private static Path stockHome() throws IOException {
        Path home = Files.createTempDirectory("install-doc-");
        Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("connectors"));
        Files.createDirectories(home.resolve("config"));
        Files.write(home.resolve("lib/seatunnel-starter.jar"), new byte[0]);
        Files.write(home.resolve("connectors/connector-kafka-2.3.8.jar"), new byte[0]);
        Files.write(home.resolve("connectors/connector-iceberg-2.3.8.jar"), new byte[0]);
        Files.write(home.resolve("connectors/connector-console-2.3.8.jar"), new byte[0]);
        Files.write(home.resolve("connectors/plugin-mapping.properties"), STOCK_MAPPING);
        Files.write(
                home.resolve("config/seatunnel.yaml"),
                "seatunnel:\n  engine:\n    backup-count: 1\n".getBytes(StandardCharsets.UTF_8));
        return home;
    }

    /**
     * The first fenced bash block after the first line that starts with a heading (or has a word).
     */
    private static String bashBlockAfter(List<String> lines, String en, String zh) {
        int i = 0;
        while (i < lines.size()
                && !(lines.get(i).startsWith(en)
                        || lines.get(i).contains(en)
                        || lines.get(i).contains(zh))) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).trim().equals("```bash")) {
            i++;
        }
        List<String> block = new ArrayList<>();
        for (i++; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
            String line = lines.get(i).trim();
            if (!line.startsWith("export SEATUNNEL_HOME=")) {
                block.add(line);
            }
        }
        assertFalse(block.isEmpty(), "no bash block after '" + en + "'");
        return String.join("\n", block);
    }

    private static void run(String script, Path dir, Path home) throws Exception {
        ProcessBuilder pb =
                new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
                        .directory(dir.toFile())
                        .redirectErrorStream(true);
        pb.environment().put("SEATUNNEL_HOME", home.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the documented commands did not end");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), script + "\n" + out);
    }

    private static TreeSet<String> files(Path home) throws IOException {
        try (Stream<Path> s = Files.walk(home)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> home.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static String mapping(Path home) throws IOException {
        return new String(
                Files.readAllBytes(home.resolve("connectors/plugin-mapping.properties")),
                StandardCharsets.UTF_8);
    }

    private static List<Path> jarsStartingWith(Path dir, String prefix) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, prefix + "*.jar")) {
            s.forEach(jars::add);
        }
        return jars;
    }

    private static List<String> manifestClassPath(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            String cp = f.getManifest().getMainAttributes().getValue("Class-Path");
            return cp == null ? new ArrayList<>() : Arrays.asList(cp.trim().split("\\s+"));
        }
    }
}
