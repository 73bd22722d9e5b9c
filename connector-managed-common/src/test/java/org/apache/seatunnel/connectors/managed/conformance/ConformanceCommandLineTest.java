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

package org.apache.seatunnel.connectors.managed.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.managed.testkit.conformance.ConformanceMain;
import org.apache.seatunnel.managed.testkit.conformance.ConformanceRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line of the conformance suite, as an author outside this repository runs it: a JVM
 * whose class path holds the testkit and its dependencies but not this connector, given the
 * connector's jar (this module's classes, packed as the build packs them), a factory identifier and
 * a fixture file. ManagedFake passes every rule with exit status 0; a jar of a connector that
 * checkpoints splits with Java serialization fails SERIALIZERS_ROUND_TRIP, by name, with status 1.
 */
class ConformanceCommandLineTest {

    private static final String FIXTURE =
            "split.count = 3\nrows.per.split = 80\nbounded = true\nconformance { parallelism = 2 }\n";

    @Test
    void managedFakesJarPassesEveryRule(@TempDir Path dir) throws Exception {
        Path jar = connectorJar(dir.resolve("managed-fake.jar"), null);
        Result r = runCommandLine(dir, jar, "ManagedFake");
        assertEquals(0, r.exit, r.output);
        for (ConformanceRule rule : ConformanceRule.values()) {
            String line = rule == ConformanceRule.ENUMERATOR_CURSOR_MONOTONIC ? "SKIP  " : "PASS  ";
            assertTrue(r.output.contains(line + rule.name()), rule + " in:\n" + r.output);
        }
        assertTrue(r.output.contains("20 passed, 0 failed, 1 skipped"), r.output);
    }

    @Test
    void aJavaSerializedSplitFailsSerializersRoundTripByName(@TempDir Path dir) throws Exception {
        Path jar =
                connectorJar(
                        dir.resolve("java-serialized-fake.jar"),
                        JavaSerializedFakeSourceFactory.class);
        Result r = runCommandLine(dir, jar, "JavaSerializedFake");
        assertEquals(1, r.exit, r.output);
        assertTrue(
                r.output.contains("FAIL  SERIALIZERS_ROUND_TRIP  [SERIALIZERS_ROUND_TRIP]"),
                r.output);
        assertTrue(r.output.contains("PASS  SNAPSHOT_EMIT_ATOMIC"), r.output);
        assertTrue(r.output.contains("1 failed"), r.output);
    }

    @Test
    void anUnknownFactoryCannotStart(@TempDir Path dir) throws Exception {
        Path jar = connectorJar(dir.resolve("managed-fake.jar"), null);
        Files.write(dir.resolve("fixture.conf"), FIXTURE.getBytes(StandardCharsets.UTF_8));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int exit =
                ConformanceMain.run(
                        new String[] {
                            jar.toString(),
                            "NoSuchConnector",
                            dir.resolve("fixture.conf").toString()
                        },
                        new java.io.PrintStream(out, true, "UTF-8"));
        assertEquals(2, exit, out.toString("UTF-8"));
    }

    /** The connector jar: this module's main classes and services, plus {@code broken} if given. */
    private static Path connectorJar(Path jar, Class<?> broken) throws Exception {
        Path classes =
                Paths.get(
                        ManagedFakeSource.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                String name = classes.relativize(f).toString().replace(File.separatorChar, '/');
                if (broken != null && name.startsWith("META-INF/services/")) {
                    continue;
                }
                put(out, name, Files.readAllBytes(f));
            }
            if (broken != null) {
                Path test =
                        Paths.get(
                                broken.getProtectionDomain().getCodeSource().getLocation().toURI());
                String pkg = broken.getPackage().getName().replace('.', '/');
                try (Stream<Path> own = Files.list(test.resolve(pkg))) {
                    for (Path f : own.collect(Collectors.toList())) {
                        String simple = f.getFileName().toString();
                        if (simple.startsWith(broken.getSimpleName())) {
                            put(out, pkg + "/" + simple, Files.readAllBytes(f));
                        }
                    }
                }
                put(
                        out,
                        "META-INF/services/org.apache.seatunnel.api.table.factory.Factory",
                        (broken.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    private static final class Result {
        final int exit;
        final String output;

        Result(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /**
     * A JVM with this test's class path minus this module's own classes (the testkit, SeaTunnel's
     * API and what the connector's jar does not shade), running the command line.
     */
    private static Result runCommandLine(Path dir, Path jar, String identifier) throws Exception {
        Path conf = dir.resolve("fixture.conf");
        Files.write(conf, FIXTURE.getBytes(StandardCharsets.UTF_8));
        String own =
                Paths.get(
                                ManagedFakeSource.class
                                        .getProtectionDomain()
                                        .getCodeSource()
                                        .getLocation()
                                        .toURI())
                        .getParent()
                        .toString();
        String testPath =
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cp = new ArrayList<>();
        for (String e : testPath.split(File.pathSeparator)) {
            if (!e.startsWith(own)) {
                cp.add(e);
            }
        }
        Path output = dir.resolve("output.txt");
        Process p =
                new ProcessBuilder(
                                Paths.get(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-Xmx256m",
                                "-cp",
                                String.join(File.pathSeparator, cp),
                                ConformanceMain.class.getName(),
                                jar.toString(),
                                identifier,
                                conf.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
        try (OutputStream ignored = p.getOutputStream()) {
            // No input.
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the command line did not end within 5 minutes");
        }
        return new Result(
                p.exitValue(), new String(Files.readAllBytes(output), StandardCharsets.UTF_8));
    }
}
