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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.zeta.member.OperatorSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Settings given through {@link LaneASettings} reach planning through the operator's path (a {@code
 * seatunnel.yaml} named by {@code seatunnel.config}) unchanged, and {@link LaneASettings#clear()}
 * gives the property back.
 */
class LaneASettingsTest {
    private final String before = System.getProperty(OperatorSettings.CONFIG_PROPERTY);

    @AfterEach
    void restore() {
        LaneASettings.clear();
        if (before == null) {
            System.clearProperty(OperatorSettings.CONFIG_PROPERTY);
        } else {
            System.setProperty(OperatorSettings.CONFIG_PROPERTY, before);
        }
    }

    @Test
    void aSectionWithDottedKeysListsAndQuotesPlansAsGiven() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("enabled", true);
        section.put("allowed-jobs", Arrays.asList("orders", "job \"quoted\" \\ one", "a: b"));
        section.put("allowed-connectors", Arrays.asList("ManagedFake"));
        section.put("poll.soft-duration", "200ms");
        section.put("command.max-payload-bytes", "1 MiB");

        LaneASettings.install(section);

        ManagedSourceConfig planned = OperatorSettings.current();
        ManagedSourceConfig expected = ManagedSourceConfig.fromMap(section);
        assertTrue(planned.enabled());
        assertEquals(new TreeSet<>(expected.allowedJobs()), new TreeSet<>(planned.allowedJobs()));
        assertEquals(expected.allowedConnectors(), planned.allowedConnectors());
        assertEquals(1 << 20, planned.maxPayloadBytes());
        assertEquals(expected.toString(), planned.toString());
    }

    @Test
    void theKillSwitchFlipsBetweenInstallsAndClearGivesThePropertyBack() {
        System.clearProperty(OperatorSettings.CONFIG_PROPERTY);
        LaneASettings.enable(Arrays.asList("j"), Arrays.asList("ManagedFake"));
        assertTrue(OperatorSettings.current().enabled());
        LaneASettings.install(false, Arrays.asList("j"), Arrays.asList("ManagedFake"));
        assertFalse(OperatorSettings.current().enabled());

        LaneASettings.clear();
        assertNull(System.getProperty(OperatorSettings.CONFIG_PROPERTY));
    }

    @Test
    void anUnknownKeyFailsAtInstall() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("no-such-key", 1);
        assertThrows(IllegalArgumentException.class, () -> LaneASettings.install(section));
    }
}
