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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code coordinator.snapshot-timeout} and {@code coordinator.snapshot-slow-threshold}: defaults,
 * values as written, and the declared ranges.
 */
class CoordinatorSnapshotOptionsTest {

    private static ManagedSourceConfig with(String key, Object value) {
        Map<String, Object> coordinator = new HashMap<>();
        coordinator.put(key, value);
        Map<String, Object> section = new HashMap<>();
        section.put("coordinator", coordinator);
        return ManagedSourceConfig.fromMap(section);
    }

    @Test
    void defaultsAreTenSecondsAndOneSecond() {
        ManagedSourceConfig c = ManagedSourceConfig.defaults();
        assertEquals(TimeUnit.SECONDS.toNanos(10), c.snapshotTimeoutNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(1), c.snapshotSlowNanos());
    }

    @Test
    void valuesAreReadAsWritten() {
        assertEquals(
                TimeUnit.MILLISECONDS.toNanos(250),
                with("snapshot-timeout", "250ms").snapshotTimeoutNanos());
        assertEquals(
                TimeUnit.SECONDS.toNanos(2),
                with("snapshot-slow-threshold", "2s").snapshotSlowNanos());
    }

    @Test
    void valuesOutsideTheRangeAreRefusedWithTheirKey() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> with("snapshot-timeout", "11m"));
        assertTrue(
                e.getMessage()
                        .contains("seatunnel.engine.managed-source.coordinator.snapshot-timeout"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> with("snapshot-slow-threshold", "0ms"));
    }
}
