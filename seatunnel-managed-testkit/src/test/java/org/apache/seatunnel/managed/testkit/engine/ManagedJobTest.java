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
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.shade.com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/**
 * The HOCON a {@link ManagedJob} writes parses, with SeaTunnel's own HOCON library (which keeps
 * dotted keys such as {@code job.mode} whole), back to the values it was given: any string survives
 * quoting, and the wrapper source names the connector and the job.
 */
class ManagedJobTest {

    @Test
    void hoconRoundTripsEveryValue() {
        String awkward = "a \"quoted\" \\ path,\n{not: hocon} ${X} ü";
        ManagedJob job =
                ManagedJob.source("MyRange")
                        .name("orders")
                        .parallelism(3)
                        .option("count", 100)
                        .option("ratio", 0.5)
                        .option("bounded", true)
                        .option("label", awkward)
                        .option("tags", Arrays.asList("x", 2))
                        .option("props", Collections.singletonMap("k.1", "v"))
                        .keyField("id")
                        .env("checkpoint.interval", 1000);

        Map<String, Object> c = parse(job.toHocon("run-\"7\""));

        Map<String, Object> env = section(c, "env");
        assertEquals("BATCH", env.get("job.mode"));
        assertEquals(3, env.get("parallelism"));
        assertEquals(1000, env.get("checkpoint.interval"));
        Map<String, Object> src = plugin(c, "source", "Managed");
        assertEquals("MyRange", src.get("connector"));
        assertEquals("orders", src.get("job-name"));
        assertEquals(100, src.get("count"));
        assertEquals(0.5, src.get("ratio"));
        assertEquals(true, src.get("bounded"));
        assertEquals(awkward, src.get("label"));
        assertEquals(Arrays.asList("x", 2), src.get("tags"));
        assertEquals(Collections.singletonMap("k.1", "v"), src.get("props"));
        Map<String, Object> sink = plugin(c, "sink", CollectingSink.IDENTIFIER);
        assertEquals("run-\"7\"", sink.get("run.id"));
        assertEquals("id", sink.get("key.field"));
    }

    @Test
    void theJobNameDefaultsToTheConnectorAndKeysAreChecked() {
        Map<String, Object> c = parse(ManagedJob.source("MyRange").toHocon("r"));
        assertEquals("MyRange", plugin(c, "source", "Managed").get("job-name"));
        assertEquals(1, section(c, "env").get("parallelism"));
        assertEquals("", plugin(c, "sink", CollectingSink.IDENTIFIER).get("key.field"));

        assertThrows(IllegalArgumentException.class, () -> ManagedJob.source("My Range"));
        assertThrows(
                IllegalArgumentException.class,
                () -> ManagedJob.source("MyRange").option("a = 1\nb", 2));
        assertThrows(
                IllegalArgumentException.class, () -> ManagedJob.source("MyRange").parallelism(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> ManagedJob.source("MyRange").env("job.mode", "STREAMING"));
    }

    private static Map<String, Object> parse(String hocon) {
        return ConfigFactory.parseString(hocon).root().unwrapped();
    }

    /** SeaTunnel's parser turns {@code source { Managed { ... } }} into a list of plugins. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> plugin(
            Map<String, Object> job, String section, String name) {
        List<Map<String, Object>> plugins = (List<Map<String, Object>>) job.get(section);
        assertEquals(1, plugins.size(), section + ": " + plugins);
        assertEquals(name, plugins.get(0).get("plugin_name"));
        return plugins.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.get(key);
    }
}
