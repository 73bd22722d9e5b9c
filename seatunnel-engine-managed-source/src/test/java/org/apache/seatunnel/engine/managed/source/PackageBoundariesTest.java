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

package org.apache.seatunnel.engine.managed.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's package rules, read from its sources: the core is engine-agnostic, and every
 * engine-internal touch lives in the engine binding ({@code zeta.engine}), so a later engine
 * version is one new binding class.
 */
class PackageBoundariesTest {
    private static final String BASE = "org/apache/seatunnel/engine/managed/source/";

    // Engine internals: the server, the job model, engine constants, Hazelcast's member internals.
    private static final Pattern ENGINE_INTERNAL =
            Pattern.compile(
                    "org\\.apache\\.seatunnel\\.engine\\.(server|core|common)\\.[\\w.]+"
                            + "|com\\.hazelcast\\.instance\\.impl\\.[\\w.]+");
    private static final Pattern ANY_ENGINE =
            Pattern.compile(
                    "org\\.apache\\.seatunnel\\.engine\\.(server|core|common)\\.[\\w.]+"
                            + "|com\\.hazelcast\\.[\\w.]+"
                            + "|org\\.apache\\.seatunnel\\.engine\\.managed\\.source\\.zeta[\\w.]*");

    @Test
    void theCorePackagesReferenceNeitherTheEngineNorHazelcastNorTheZetaBinding()
            throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path p : sources()) {
            String rel = relative(p);
            if (rel.startsWith("zeta/")) {
                continue;
            }
            offenders.addAll(find(p, rel, ANY_ENGINE));
        }
        assertEquals(new ArrayList<String>(), offenders);
    }

    @Test
    void engineInternalsAndReflectionAreTouchedOnlyInTheEngineBinding() throws IOException {
        List<String> offenders = new ArrayList<>();
        int bindingTouches = 0;
        for (Path p : sources()) {
            String rel = relative(p);
            List<String> found = find(p, rel, ENGINE_INTERNAL);
            found.addAll(find(p, rel, Pattern.compile("getDeclaredField|setAccessible")));
            if (rel.startsWith("zeta/engine/")) {
                bindingTouches += found.size();
            } else if (rel.startsWith("zeta/ops/")) {
                // The operators' command runs in SeaTunnel's client, whose config it must read.
                continue;
            } else {
                offenders.addAll(found);
            }
        }
        assertTrue(bindingTouches > 0, "the scan found no touch in the binding: it is broken");
        assertEquals(new ArrayList<String>(), offenders);
    }

    /**
     * The Zeta binding's packages depend one way, so none of them needs another's internals back:
     * the hosts and lane sources ({@code zeta}) use the member runtime, the transport and the
     * engine binding; the member runtime sends the transport's operations; the transport reaches
     * the member only through {@code InboundRouter}; the binding uses nothing of the others.
     */
    @Test
    void theZetaPackagesDependOneWay() throws IOException {
        java.util.Map<String, java.util.Set<String>> allowed = new java.util.HashMap<>();
        allowed.put("zeta/member/", new java.util.HashSet<>(List.of("transport", "engine")));
        allowed.put("zeta/transport/", new java.util.HashSet<>(List.of("engine")));
        allowed.put("zeta/engine/", new java.util.HashSet<>());
        Pattern zetaRef =
                Pattern.compile(
                        "org\\.apache\\.seatunnel\\.engine\\.managed\\.source\\.zeta\\.(\\w+)");
        List<String> offenders = new ArrayList<>();
        for (Path p : sources()) {
            String rel = relative(p);
            for (java.util.Map.Entry<String, java.util.Set<String>> e : allowed.entrySet()) {
                if (!rel.startsWith(e.getKey())) {
                    continue;
                }
                String own = e.getKey().substring(5, e.getKey().length() - 1);
                List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = zetaRef.matcher(lines.get(i));
                    while (m.find()) {
                        String target = m.group(1);
                        if (!target.equals(own) && !e.getValue().contains(target)) {
                            offenders.add(rel + ":" + (i + 1) + " uses zeta." + target);
                        }
                    }
                }
            }
        }
        assertEquals(new ArrayList<String>(), offenders);
    }

    private static List<String> find(Path p, String rel, Pattern pattern) throws IOException {
        List<String> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.startsWith("*") || line.startsWith("/*") || line.startsWith("//")) {
                continue;
            }
            Matcher m = pattern.matcher(line);
            while (m.find()) {
                out.add(rel + ":" + (i + 1) + " " + m.group());
            }
        }
        return out;
    }

    private static List<Path> sources() throws IOException {
        Path root = mainSources();
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> out =
                    walk.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
            assertTrue(out.size() > 100, "too few sources under " + root);
            return out;
        }
    }

    private static String relative(Path p) {
        return mainSources().relativize(p).toString().replace('\\', '/');
    }

    private static Path mainSources() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null) {
            Path candidate =
                    p.resolve("seatunnel-engine-managed-source/src/main/java").resolve(BASE);
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
            Path here = p.resolve("src/main/java").resolve(BASE);
            if (Files.isDirectory(here)) {
                return here;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("runtime sources not found above the working directory");
    }
}
