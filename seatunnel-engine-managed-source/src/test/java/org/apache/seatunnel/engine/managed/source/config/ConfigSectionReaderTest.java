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

package org.apache.seatunnel.engine.managed.source.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ConfigSectionReader}: flattening, the unknown-key refusal and the strict reads. */
class ConfigSectionReaderTest {

    @Test
    void nestedMapsAndDottedKeysReadAlike() {
        Map<String, Object> mailbox = new HashMap<>();
        mailbox.put("max-commands", 128);
        ConfigSectionReader nested =
                ConfigSectionReader.of(Collections.singletonMap("reader-mailbox", mailbox));
        ConfigSectionReader dotted =
                ConfigSectionReader.of(
                        Collections.singletonMap("reader-mailbox.max-commands", 128));
        assertEquals(128, nested.count(ManagedSourceOptions.MAILBOX_MAX_COMMANDS));
        assertEquals(128, dotted.count(ManagedSourceOptions.MAILBOX_MAX_COMMANDS));
    }

    @Test
    void anUnknownKeyIsRefusedByItsFullName() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ConfigSectionReader.of(Collections.singletonMap("enabeld", true)));
        assertTrue(
                e.getMessage().contains("seatunnel.engine.managed-source.enabeld"), e.getMessage());
    }

    @Test
    void booleansAreTrueOrFalseOnly() {
        assertTrue(read("enabled", "true").bool(ManagedSourceOptions.ENABLED));
        assertFalse(read("enabled", false).bool(ManagedSourceOptions.ENABLED));
        for (Object bad : Arrays.<Object>asList("yes", 1, "TRUE")) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> read("enabled", bad).bool(ManagedSourceOptions.ENABLED));
            assertTrue(e.getMessage().contains("must be true or false"), e.getMessage());
        }
    }

    @Test
    void namesAreAListNeverACommaString() {
        assertEquals(
                new java.util.TreeSet<>(Arrays.asList("a", "b")),
                read("allowed-jobs", Arrays.asList(" b", "a"))
                        .names(ManagedSourceOptions.ALLOWED_JOBS));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> read("allowed-jobs", "a,b").names(ManagedSourceOptions.ALLOWED_JOBS));
        assertTrue(e.getMessage().contains("must be a list of names"), e.getMessage());
    }

    @Test
    void enumNamesMatchExactly() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        read(ManagedSourceOptions.INELIGIBLE_FALLBACK.key(), "lane_b")
                                .enumValue(
                                        ManagedSourceOptions.INELIGIBLE_FALLBACK,
                                        LaneFallback.class));
    }

    private static ConfigSectionReader read(String key, Object value) {
        return ConfigSectionReader.of(Collections.singletonMap(key, value));
    }
}
