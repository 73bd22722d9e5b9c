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

package org.apache.seatunnel.connectors.managed.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.junit.jupiter.api.Test;

/** The reader base's options load within their ranges and fail naming key, value and range. */
class ManagedReaderConfigTest {

    @Test
    void valuesAtTheBoundsLoad() {
        Map<String, Object> m = new HashMap<>();
        m.put("reader.fetch-queue.max-records", 1);
        m.put("reader.fetch-queue.max-bytes", 1024);
        m.put("reader.close-timeout-ms", 1L);
        ManagedReaderConfig c = ManagedReaderConfig.from(ReadonlyConfig.fromMap(m));
        assertEquals(1, c.fetchQueueMaxRecords());
        assertEquals(1024, c.fetchQueueMaxBytes());
        assertEquals(Duration.ofMillis(1).toNanos(), c.closeTimeoutNanos());
    }

    @Test
    void aValueOutOfRangeNamesTheKeyTheValueAndTheRange() {
        Map<String, Object> m = new HashMap<>();
        m.put("reader.fetch-queue.max-bytes", 1023);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ManagedReaderConfig.from(ReadonlyConfig.fromMap(m)));
        assertEquals(
                "Source option 'reader.fetch-queue.max-bytes' = 1023 is out of range [1024,"
                        + " 17179869184]",
                e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> ManagedReaderConfig.builder().legacyPollIdleWait(Duration.ofSeconds(11)));
    }
}
