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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.seatunnel.engine.managed.source.fault.FaultInjection;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
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

    /**
     * The fault seam stays inert in production: no shipped class implements {@link FaultInjection},
     * and nothing an operator installs or starts (the plugin distribution's files, the example
     * configuration, the cluster tool) sets the property that would name one.
     */
    @Test
    void nothingThatShipsInstallsAFaultInjection() throws Exception {
        List<String> found = new ArrayList<>();
        for (String module : SHIPPED) {
            Path classes = Paths.get("..", module, "target", "classes");
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path p :
                        (Iterable<Path>)
                                files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    if (interfacesOf(p).contains(INJECTION)) {
                        found.add(classes.relativize(p).toString());
                    }
                }
            }
        }
        assertEquals(new ArrayList<String>(), found, "shipped FaultInjection implementations");
        assertEquals(
                List.of(INJECTION),
                interfacesOf(
                        Paths.get(
                                "target/test-classes/org/apache/seatunnel/engine/managed/e2e"
                                        + "/faults/ArmedFaults.class")),
                "the reader finds the test's own implementation");
        for (String dir :
                new String[] {
                    "seatunnel-managed-dist/src", "config", "tools/cluster", "run-demo.sh"
                }) {
            try (Stream<Path> files = Files.walk(Paths.get("..", dir))) {
                Stream<Path> sources =
                        files.filter(Files::isRegularFile)
                                .filter(f -> !f.toString().contains("/target/"));
                for (Path p : (Iterable<Path>) sources::iterator) {
                    String text = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                    assertTrue(!text.contains(FaultSeam.PROPERTY), p + " names a fault injection");
                }
            }
        }
        assertTrue(
                FaultSeam.INSTALLED != null,
                "this test JVM is the one that sets it: the engine tests' ArmedFaults");
    }

    private static final String INJECTION = FaultInjection.class.getName().replace('.', '/');

    /**
     * The interfaces a class file declares, read from its header (JVMS 4.1): the constant pool,
     * then access flags, this and super class, and the interface indexes. Reading the bytes instead
     * of loading the class works for modules whose dependencies this test does not have.
     */
    static List<String> interfacesOf(Path classFile) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(classFile))) {
            in.readInt();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNameIndex = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1:
                        utf8[i] = in.readUTF();
                        break;
                    case 7:
                        classNameIndex[i] = in.readUnsignedShort();
                        break;
                    case 8:
                    case 16:
                    case 19:
                    case 20:
                        in.readUnsignedShort();
                        break;
                    case 15:
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                        break;
                    case 3:
                    case 4:
                    case 9:
                    case 10:
                    case 11:
                    case 12:
                    case 17:
                    case 18:
                        in.readInt();
                        break;
                    case 5:
                    case 6:
                        in.readLong();
                        i++; // eight-byte constants take two slots
                        break;
                    default:
                        throw new IOException("constant tag " + tag + " in " + classFile);
                }
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int interfaces = in.readUnsignedShort();
            List<String> out = new ArrayList<>();
            for (int i = 0; i < interfaces; i++) {
                out.add(utf8[classNameIndex[in.readUnsignedShort()]]);
            }
            return out;
        }
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
