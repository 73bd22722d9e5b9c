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

package org.apache.seatunnel.engine.managed.source.zeta.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lane A runs only on the engine version the binding was built for. */
class EngineVersionTest {

    @Test
    void theEngineOnTheClassPathIsTheOneTheBindingWasBuiltFor() {
        assertEquals(EngineVersion.BUILT_FOR, EngineVersion.running());
        assertEquals("", EngineVersion.refusal());
    }

    @Test
    void anotherEngineVersionIsRefusedNamingBoth() {
        String why = EngineVersion.refusal("2.3.9");

        assertTrue(why.contains("built for SeaTunnel Zeta 2.3.8"), why);
        assertTrue(why.contains("the engine is 2.3.9"), why);
    }

    @Test
    void anEngineWithoutAVersionIsUnknownAndRefused(@TempDir Path dir) throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertEquals(EngineVersion.UNKNOWN, EngineVersion.read(empty));
        }
        assertEquals(EngineVersion.UNKNOWN, EngineVersion.read(null));
        assertTrue(EngineVersion.refusal(EngineVersion.UNKNOWN).contains("unknown"));
    }

    @Test
    void theVersionIsReadFromTheEnginesVersionFile(@TempDir Path dir) throws Exception {
        Files.write(
                dir.resolve(EngineVersion.RESOURCE),
                "project.version=2.3.10\n".getBytes(StandardCharsets.ISO_8859_1));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertEquals("2.3.10", EngineVersion.read(loader));
        }
    }
}
