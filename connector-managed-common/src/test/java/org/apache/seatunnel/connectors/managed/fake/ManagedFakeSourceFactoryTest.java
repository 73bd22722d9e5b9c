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

package org.apache.seatunnel.connectors.managed.fake;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.junit.jupiter.api.Test;

class ManagedFakeSourceFactoryTest {

    private static TableSourceFactoryContext context(Map<String, Object> options) {
        return new TableSourceFactoryContext(
                ReadonlyConfig.fromMap(options),
                ManagedFakeSourceFactoryTest.class.getClassLoader());
    }

    @Test
    void aMisspeltOptionFailsPlanningNamingIt() {
        Map<String, Object> options = new HashMap<>();
        options.put("splitcount", 4);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new ManagedFakeSourceFactory().createSource(context(options)));
        assertTrue(e.getMessage().contains("[splitcount]"), e.getMessage());
        assertTrue(
                e.getMessage().contains("split.count"), "names what it accepts: " + e.getMessage());
    }

    @Test
    void itsOwnTheReaderBasesAndTheWrappersKeysAreAccepted() {
        Map<String, Object> options = new HashMap<>();
        options.put("split.count", 4);
        options.put("reader.fetch-queue.max-records", 64);
        options.put("connector", "ManagedFake");
        options.put("job-name", "orders");
        options.put("plugin_name", "Managed");
        options.put("parallelism", 2);
        assertNotNull(new ManagedFakeSourceFactory().createSource(context(options)).createSource());
    }
}
