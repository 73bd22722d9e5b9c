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

import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceYaml;
import org.junit.jupiter.api.Test;

/**
 * {@code reader.schema-change-timeout} reaches the configuration the reader host hands to its loop
 * (whose gate enforces it: {@code ReaderEventLoopSchemaChangeTest}), with its documented default.
 */
class SchemaChangeTimeoutOptionTest {

    @Test
    void theKeyFromSeatunnelYamlSetsTheBoundAndDefaultsToTenMinutes() {
        ManagedSourceConfig set =
                ManagedSourceYaml.parse(
                        "seatunnel:\n  engine:\n    managed-source:\n      reader:\n"
                                + "        schema-change-timeout: 2s\n");
        assertEquals(TimeUnit.SECONDS.toNanos(2), set.schemaChangeTimeoutNanos());
        ManagedSourceConfig dflt =
                ManagedSourceYaml.parse("seatunnel:\n  engine:\n    managed-source: {}\n");
        assertEquals(TimeUnit.MINUTES.toNanos(10), dflt.schemaChangeTimeoutNanos());
    }
}
