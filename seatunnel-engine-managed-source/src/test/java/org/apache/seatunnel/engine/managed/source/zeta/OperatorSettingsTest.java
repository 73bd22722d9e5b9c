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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;
import org.apache.seatunnel.engine.managed.source.lane.LaneReason;
import org.apache.seatunnel.engine.managed.source.lane.LaneSelector;
import org.apache.seatunnel.engine.managed.source.zeta.member.InvalidManagedSourceSettings;
import org.apache.seatunnel.engine.managed.source.zeta.member.OperatorSettings;
import org.junit.jupiter.api.Test;

/** Allowlisted connector names that match no installed connector are reported, never fatal. */
class OperatorSettingsTest {

    @Test
    void allowlistedConnectorThatMatchesNothingIsReported() {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", true);
        m.put("allowed-connectors", Arrays.asList("Managed", "NoSuchConnector", "*"));
        assertEquals(
                Collections.singleton("NoSuchConnector"),
                OperatorSettings.reportUnmatchedConnectors(
                        ManagedSourceConfig.fromMap(m), getClass().getClassLoader()));
    }

    /** A test body run with the members' settings file at {@code yaml}. */
    private interface WithSettingsFile {
        void run(java.nio.file.Path yaml) throws Exception;
    }

    private static void withSettingsFile(WithSettingsFile body) throws Exception {
        java.nio.file.Path yaml = java.nio.file.Files.createTempFile("seatunnel", ".yaml");
        String before = System.getProperty(OperatorSettings.CONFIG_PROPERTY);
        try {
            System.setProperty(OperatorSettings.CONFIG_PROPERTY, yaml.toString());
            body.run(yaml);
        } finally {
            if (before == null) {
                System.clearProperty(OperatorSettings.CONFIG_PROPERTY);
            } else {
                System.setProperty(OperatorSettings.CONFIG_PROPERTY, before);
            }
            java.nio.file.Files.deleteIfExists(yaml);
        }
    }

    @Test
    void anEditedSettingsFileAppliesToTheNextPlanningWithoutARestart() throws Exception {
        withSettingsFile(
                yaml -> {
                    write(yaml, "true", 1_000_000L);
                    assertEquals(true, OperatorSettings.current().enabled());
                    write(yaml, "false", 2_000_000L);
                    assertEquals(
                            false, OperatorSettings.current().enabled(), "kill switch flipped");
                    assertEquals(false, OperatorSettings.current().enabled(), "and stays read");
                });
    }

    @Test
    void aTypoAnEditBringsIntoAllowedConnectorsIsReportedAtTheReload() throws Exception {
        withSettingsFile(
                yaml -> {
                    write(yaml, "true\n      allowed-connectors: [ Managed ]", 1_000_000L);
                    OperatorSettings.current();
                    assertEquals(
                            Collections.emptySet(),
                            OperatorSettings.unmatchedConnectorsOfTheFile());
                    write(
                            yaml,
                            "true\n      allowed-connectors: [ Managed, ManagedKafak ]",
                            2_000_000L);
                    OperatorSettings.current();
                    assertEquals(
                            Collections.singleton("ManagedKafak"),
                            OperatorSettings.unmatchedConnectorsOfTheFile());
                    write(
                            yaml,
                            "false\n      allowed-connectors: [ Managed, ManagedKafak ]",
                            3_000_000L);
                    assertEquals(false, OperatorSettings.current().enabled());
                    assertEquals(
                            Collections.singleton("ManagedKafak"),
                            OperatorSettings.unmatchedConnectorsOfTheFile(),
                            "an unchanged list keeps its finding");
                });
    }

    @Test
    void anInvalidSectionFailsOnlyTheJobsItMightPutOnLaneA() throws Exception {
        withSettingsFile(
                yaml -> {
                    write(
                            yaml,
                            "true\n      allowed-jobs: [ orders ]\n"
                                    + "      reader-mailbox.dedup-window: 1",
                            1_000_000L);
                    InvalidManagedSourceSettings refused =
                            assertThrows(
                                    InvalidManagedSourceSettings.class,
                                    () -> PendingLaneSource.settingsFor("orders"));
                    assertTrue(
                            refused.getMessage().contains("reader-mailbox.dedup-window")
                                    && refused.getMessage().contains(yaml.toString()),
                            refused.getMessage());
                    LaneDecision other =
                            LaneSelector.decide(
                                    PendingLaneSource.settingsFor("payments"),
                                    "payments",
                                    "ManagedFake",
                                    null);
                    assertEquals(Lane.B, other.lane());
                    assertEquals(LaneReason.JOB_NOT_ALLOWED, other.reasonCode());

                    write(
                            yaml,
                            "false\n      allowed-jobs: [ orders ]\n"
                                    + "      reader-mailbox.dedup-window: 1",
                            2_000_000L);
                    LaneDecision off =
                            LaneSelector.decide(
                                    PendingLaneSource.settingsFor("orders"),
                                    "orders",
                                    "ManagedFake",
                                    null);
                    assertEquals(LaneReason.DISABLED, off.reasonCode(), "the kill switch holds");

                    write(yaml, "true\n      allowed-jobs: \"orders\"\n", 3_000_000L);
                    assertThrows(
                            InvalidManagedSourceSettings.class,
                            () -> PendingLaneSource.settingsFor("payments"),
                            "no readable list of jobs: any job might be meant");
                });
    }

    private static void write(java.nio.file.Path yaml, String enabled, long mtime)
            throws java.io.IOException {
        java.nio.file.Files.write(
                yaml,
                ("seatunnel:\n  engine:\n    managed-source:\n      enabled: " + enabled + "\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // File systems with coarse timestamps: the test sets distinct times instead of waiting.
        java.nio.file.Files.setLastModifiedTime(
                yaml, java.nio.file.attribute.FileTime.fromMillis(mtime));
    }
}
