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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kill switch as install.md (en, zh) writes it, run by bash on a member's {@code
 * seatunnel.yaml}: it turns Lane A off and changes no other {@code enabled:} line, wherever the
 * telemetry section stands.
 */
class KillSwitchDocTest {
    private static final String YAML =
            "seatunnel:\n"
                    + "  engine:\n"
                    + "    telemetry:\n"
                    + "      metric:\n"
                    + "        enabled: true\n"
                    + "    managed-source:\n"
                    + "      allowed-jobs: [ orders ]\n"
                    + "      enabled: true\n"
                    + "      allowed-connectors: [ ManagedFake ]\n"
                    + "    http:\n"
                    + "      enabled: true\n";

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/install.md", "../docs/zh/install.md"})
    void theDocumentedCommandTurnsOnlyLaneAOff(String doc) throws Exception {
        String command = documentedCommand(Paths.get(doc));
        Path home = Files.createTempDirectory("kill-switch-");
        Path yaml = home.resolve("config/seatunnel.yaml");
        Files.createDirectories(yaml.getParent());
        Files.write(yaml, YAML.getBytes(StandardCharsets.UTF_8));
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true);
        pb.environment().put("SEATUNNEL_HOME", home.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "sed did not end");
        assertEquals(0, p.exitValue(), new String(readAll(p), StandardCharsets.UTF_8));
        String after = new String(Files.readAllBytes(yaml), StandardCharsets.UTF_8);
        assertEquals(
                YAML.replace(
                        "      allowed-jobs: [ orders ]\n      enabled: true\n",
                        "      allowed-jobs: [ orders ]\n      enabled: false\n"),
                after,
                "only managed-source.enabled changed");
    }

    private static byte[] readAll(Process p) throws Exception {
        return p.getInputStream().readAllBytes();
    }

    /** The kill-switch command of the doc's "Roll back" section, continuation lines joined. */
    private static String documentedCommand(Path doc) throws Exception {
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("sed -i") && lines.get(i).contains("enabled:")) {
                int j = i;
                String line = lines.get(j).trim();
                while (line.endsWith("\\")) {
                    command.add(line.substring(0, line.length() - 1));
                    line = lines.get(++j).trim();
                }
                command.add(line);
                return String.join(" ", command);
            }
        }
        throw new AssertionError("no kill-switch command in " + doc);
    }
}
