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

package org.apache.seatunnel.engine.managed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Everything that ships into an engine runs on SeaTunnel 2.3.x's Java 8: every class file of the
 * shipped modules must be major version 52. The testkit is held to the same, so that authors who
 * build their connectors for SeaTunnel 2.3.x on Java 8 can test with it.
 */
class ShippedBytecodeTest {
    private static final String[] SHIPPED = {
        "seatunnel-api-managed",
        "seatunnel-engine-managed-source",
        "connector-managed-common",
        "connector-managed-kafka",
        "seatunnel-managed-testkit"
    };

    @Test
    void shippedModulesAreJava8ClassFiles() throws IOException {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (String module : SHIPPED) {
            Path classes = Paths.get("..", module, "target", "classes");
            assertTrue(Files.isDirectory(classes), "build " + module + " first: " + classes);
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path p :
                        (Iterable<Path>)
                                files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    checked++;
                    int major = major(p);
                    if (major != 52) {
                        wrong.add(p + " -> " + major);
                    }
                }
            }
        }
        assertTrue(checked > 50, "found only " + checked + " class files");
        assertEquals(new ArrayList<String>(), wrong, "class files that are not Java 8");
    }

    private static int major(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile);
                DataInputStream data = new DataInputStream(in)) {
            if (data.readInt() != 0xCAFEBABE) {
                throw new IOException("not a class file: " + classFile);
            }
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }
}
