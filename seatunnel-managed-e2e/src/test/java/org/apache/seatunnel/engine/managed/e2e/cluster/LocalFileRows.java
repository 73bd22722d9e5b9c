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

package org.apache.seatunnel.engine.managed.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What SeaTunnel's LocalFile sink (text, comma-separated, with transactions) committed of a
 * ManagedFake job: every committed file under the output folder, rows {@code id,split,seq,...}.
 * Stateless.
 */
final class LocalFileRows {
    private static final Pattern ROW = Pattern.compile("^\\d+,(\\d+),(\\d+),");

    private LocalFileRows() {}

    /** Rows committed so far. */
    static long committed(Path out) throws IOException {
        long n = 0;
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                n += Files.readAllLines(f, StandardCharsets.UTF_8).size();
            }
        }
        return n;
    }

    /** {rows, duplicate (split, seq) pairs, missing seqs below each split's maximum}. */
    static long[] check(Path out) throws IOException {
        Map<Integer, Map<Long, Integer>> seen = new HashMap<>();
        long rows = 0;
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    Matcher m = ROW.matcher(line);
                    assertTrue(m.find(), "unexpected line in " + f + ": " + line);
                    rows++;
                    seen.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new HashMap<>())
                            .merge(Long.parseLong(m.group(2)), 1, Integer::sum);
                }
            }
        }
        long duplicates = 0;
        long gaps = 0;
        for (Map<Long, Integer> split : seen.values()) {
            long max = -1;
            for (Map.Entry<Long, Integer> e : split.entrySet()) {
                duplicates += e.getValue() - 1;
                max = Math.max(max, e.getKey());
            }
            gaps += (max + 1) - split.size();
        }
        return new long[] {rows, duplicates, gaps};
    }
}
