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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every "hazard N", "invariant N" and "fault point N" that a comment in this repository cites is an
 * entry of {@code docs/en/architecture.md}, and the Chinese page has the same entries, so a reader
 * of the code can always look the number up.
 */
class ArchitectureDocReferencesTest {
    private static final Pattern CITATION =
            Pattern.compile("(?i)\\b(hazard|invariant|fault point)s? (\\d+)");

    @Test
    void everyCitedHazardInvariantAndFaultPointIsDocumentedInBothLanguages() throws IOException {
        Path root = repositoryRoot();
        Set<String> cited = citations(root);
        assertFalse(cited.isEmpty(), "no citations found: the scan is broken");

        Set<String> en = entries(read(root.resolve("docs/en/architecture.md")), "en");
        Set<String> zh = entries(read(root.resolve("docs/zh/architecture.md")), "zh");
        for (String c : cited) {
            assertTrue(
                    en.contains(c), c + " is cited in the code but not in docs/en/architecture.md");
        }
        assertEquals(en, zh, "docs/en and docs/zh architecture pages number different entries");
        assertEquals(7, count(en, "hazard"));
        assertEquals(14, count(en, "invariant"));
        assertEquals(11, count(en, "fault point"));
    }

    /**
     * The architecture pages name every runtime and SPI class over 200 lines, so a reader of the
     * page finds each large type's job and thread owner there.
     */
    @Test
    void everyLargeRuntimeClassIsNamedOnBothArchitecturePages() throws IOException {
        Path root = repositoryRoot();
        String en = read(root.resolve("docs/en/architecture.md"));
        String zh = read(root.resolve("docs/zh/architecture.md"));
        List<String> missing = new ArrayList<>();
        int large = 0;
        for (String module :
                new String[] {"seatunnel-engine-managed-source", "seatunnel-api-managed"}) {
            List<Path> sources;
            try (Stream<Path> walk = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                sources =
                        walk.filter(p -> p.toString().endsWith(".java"))
                                .collect(Collectors.toList());
            }
            for (Path p : sources) {
                if (Files.readAllLines(p, StandardCharsets.UTF_8).size() <= 200) {
                    continue;
                }
                large++;
                String name = p.getFileName().toString().replace(".java", "");
                Pattern named = Pattern.compile("\\b" + name + "\\b");
                if (!named.matcher(en).find()) {
                    missing.add("en: " + name);
                }
                if (!named.matcher(zh).find()) {
                    missing.add("zh: " + name);
                }
            }
        }
        assertTrue(large > 20, "too few large classes found: the scan is broken");
        assertEquals(new ArrayList<String>(), missing);
    }

    private static Set<String> citations(Path root) throws IOException {
        Set<String> out = new TreeSet<>();
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(root)) {
            sources =
                    walk.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> !p.toString().contains("/target/"))
                            .filter(p -> !p.toString().contains("/.git/"))
                            .collect(Collectors.toList());
        }
        for (Path p : sources) {
            Matcher m = CITATION.matcher(read(p));
            while (m.find()) {
                out.add(m.group(1).toLowerCase() + " " + m.group(2));
            }
        }
        return out;
    }

    /** Hazards are a numbered list, invariants and fault points numbered table rows. */
    private static Set<String> entries(String page, String lang) {
        String[] sections =
                lang.equals("en")
                        ? new String[] {"## Hazards", "## Invariants", "## Fault points"}
                        : new String[] {"## 风险", "## 不变量", "## 故障点"};
        String[] kinds = {"hazard", "invariant", "fault point"};
        Set<String> out = new TreeSet<>();
        for (int i = 0; i < sections.length; i++) {
            int start = page.indexOf(sections[i]);
            assertTrue(start >= 0, lang + ": no section " + sections[i]);
            int end = page.indexOf("\n## ", start + 1);
            String body = page.substring(start, end < 0 ? page.length() : end);
            Pattern entry =
                    i == 0
                            ? Pattern.compile("(?m)^(\\d+)\\. \\*\\*")
                            : Pattern.compile("(?m)^\\| (\\d+) \\|");
            Matcher m = entry.matcher(body);
            List<Integer> numbers = new ArrayList<>();
            while (m.find()) {
                numbers.add(Integer.parseInt(m.group(1)));
                out.add(kinds[i] + " " + m.group(1));
            }
            for (int n = 0; n < numbers.size(); n++) {
                assertEquals(n + 1, numbers.get(n), lang + " " + kinds[i] + " numbering");
            }
        }
        return out;
    }

    private static long count(Set<String> entries, String kind) {
        return entries.stream().filter(e -> e.startsWith(kind + " ")).count();
    }

    private static Path repositoryRoot() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("docs/en/architecture.md"))) {
            p = p.getParent();
        }
        assertTrue(p != null, "docs/en/architecture.md not found above the working directory");
        return p;
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }
}
