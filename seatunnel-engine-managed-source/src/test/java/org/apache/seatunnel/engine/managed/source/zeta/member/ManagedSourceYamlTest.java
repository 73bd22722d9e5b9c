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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.config.LaneFallback;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.junit.jupiter.api.Test;

/** Loading the managed-source section of seatunnel.yaml, and refusing bad config at load. */
class ManagedSourceYamlTest {

    private static String section(String body) {
        return "seatunnel:\n  engine:\n    managed-source:\n" + body;
    }

    @Test
    void theShippedSampleConfigLoadsWithItsDocumentedValues() throws Exception {
        Path sample = Paths.get("..", "config", "seatunnel.yaml");
        ManagedSourceConfig c = ManagedSourceYaml.load(sample);
        assertTrue(c.enabled());
        assertTrue(c.allowedJobs().contains("managed-demo"));
        assertTrue(c.allowedConnectors().contains("ManagedFake"));
        assertEquals(LaneFallback.LANE_B, c.fallback());
        assertEquals(1024, c.mailboxLimits().maxCommands());
        assertEquals(4L << 20, c.mailboxLimits().maxBytes());
        assertEquals(64, c.mailboxLimits().reservedCommands());
        assertEquals(256L << 10, c.mailboxLimits().reservedBytes());
        assertEquals(512 << 10, c.mailboxLimits().maxPayloadBytes());
        assertEquals(256L << 20, c.workerMailboxBytes());
        assertEquals(64, c.pollBudget().maxRecords());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(5), c.pollBudget().softNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(1), c.pollBudget().hardNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(30), c.pollBudget().cancellationNanos());
        assertEquals(10, c.retryInitialMillis());
        assertEquals(1000, c.retryMaxMillis());
        assertEquals(4, c.asyncMaxConcurrency());
        assertEquals(100_000, c.trackerMaxEntries());
        assertEquals(64L << 20, c.trackerMaxBytes());
        assertFalse(c.offLoopCheckEnabled());
        assertEquals(10, c.offLoopCheckInterval());
    }

    @Test
    void aMissingSectionMeansLaneAOff() {
        ManagedSourceConfig c =
                ManagedSourceYaml.parse("seatunnel:\n  engine:\n    backup-count: 1\n");
        assertFalse(c.enabled());
        assertEquals(ManagedSourceConfig.defaults().toString(), c.toString());
    }

    @Test
    void anUnknownKeyFailsAtLoadNamingTheKey() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ManagedSourceYaml.parse(section("      enabeld: true\n")));
        assertTrue(
                e.getMessage().contains("seatunnel.engine.managed-source.enabeld"), e.getMessage());
    }

    @Test
    void aNegativeBoundFailsAtLoadNamingTheKey() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                ManagedSourceYaml.parse(
                                        section(
                                                "      reader-mailbox:\n        max-commands: -5\n")));
        assertTrue(
                e.getMessage()
                        .contains("seatunnel.engine.managed-source.reader-mailbox.max-commands"),
                e.getMessage());
        assertTrue(e.getMessage().contains("-5"), e.getMessage());
    }

    @Test
    void anUnknownLaneFailsAtLoadNamingTheKey() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                ManagedSourceYaml.parse(
                                        section("      ineligible-fallback: LANE_C\n")));
        assertTrue(
                e.getMessage().contains("seatunnel.engine.managed-source.ineligible-fallback"),
                e.getMessage());
    }

    @Test
    void crossFieldRulesNameTheirKeys() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                ManagedSourceYaml.parse(
                                        section(
                                                "      poll:\n        soft-duration: 2s\n"
                                                        + "        hard-duration: 1s\n")));
        assertTrue(e.getMessage().contains("poll.soft-duration"), e.getMessage());
    }

    private static String refusal(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> ManagedSourceYaml.parse(yaml))
                .getMessage();
    }

    @Test
    void nothingIsCoercedTheKeyAndTheValueAreNamed() {
        String one = refusal(section("      enabled: 1\n"));
        assertTrue(one.contains("managed-source.enabled") && one.contains("1 (Integer)"), one);
        String yes = refusal(section("      enabled: yes\n"));
        assertTrue(yes.contains("must be true or false, not \"yes\""), yes);
        String csv = refusal(section("      allowed-jobs: \"orders,payments\"\n"));
        assertTrue(
                csv.contains("managed-source.allowed-jobs")
                        && csv.contains("must be a list of names")
                        && csv.contains("\"orders,payments\""),
                csv);
        String blank = refusal(section("      allowed-connectors: [ ManagedFake, '' ]\n"));
        assertTrue(blank.contains("managed-source.allowed-connectors"), blank);
        String lower = refusal(section("      ineligible-fallback: lane_b\n"));
        assertTrue(lower.contains("\"lane_b\"") && lower.contains("case matters"), lower);
        // Exact values load.
        ManagedSourceConfig c =
                ManagedSourceYaml.parse(
                        section(
                                "      enabled: true\n      allowed-jobs: [ orders, payments ]\n"
                                        + "      ineligible-fallback: FAIL\n"));
        assertTrue(c.enabled());
        assertEquals(2, c.allowedJobs().size());
        assertEquals(LaneFallback.FAIL, c.fallback());
    }

    @Test
    void aSectionThatIsNotAMapIsRefusedAndAnEmptyOneMeansDefaults() {
        String e = refusal("seatunnel:\n  engine:\n    managed-source: true\n");
        assertTrue(e.contains("seatunnel.engine.managed-source must be a map"), e);
        assertFalse(
                ManagedSourceYaml.parse("seatunnel:\n  engine:\n    managed-source:\n").enabled());
    }

    @Test
    void aYamlSyntaxErrorNamesTheFile() throws Exception {
        Path yaml = Files.createTempFile("seatunnel-", ".yaml");
        try {
            Files.write(
                    yaml,
                    section("      enabled: true\n     allowed-jobs: [ orders\n")
                            .getBytes(StandardCharsets.UTF_8));
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class, () -> ManagedSourceYaml.load(yaml));
            assertTrue(e.getMessage().startsWith(yaml + " is not valid YAML"), e.getMessage());
        } finally {
            Files.deleteIfExists(yaml);
        }
    }

    @Test
    void theLoadedSettingsNameTheAllowedJobsSoATypoShows() {
        ManagedSourceConfig c =
                ManagedSourceYaml.parse(section("      allowed-jobs: [ ordres ]\n"));
        assertTrue(c.toString().contains("allowedJobs=[ordres]"), c.toString());
    }
}
