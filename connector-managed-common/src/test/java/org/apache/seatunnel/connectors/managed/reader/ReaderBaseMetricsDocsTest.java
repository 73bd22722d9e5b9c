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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reader base's metrics table in the docs lists exactly the names the base registers. */
class ReaderBaseMetricsDocsTest {
    private static final Pattern NAME = Pattern.compile("`(ManagedSource[A-Za-z]+)`");

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/metrics.md", "../docs/zh/metrics.md"})
    void docsListExactlyTheReaderBaseMetrics(String doc) throws IOException {
        String text = new String(Files.readAllBytes(Path.of(doc)), StandardCharsets.UTF_8);
        // Sections in order: reader, reader base, coordinator, member.
        String section = text.split("\n## ")[2];
        TreeSet<String> documented = new TreeSet<>();
        for (String line : section.split("\n")) {
            if (line.startsWith("| `")) {
                Matcher m = NAME.matcher(line.substring(1, line.indexOf('|', 1)));
                while (m.find()) {
                    documented.add(m.group(1));
                }
            }
        }
        TreeSet<String> registered =
                new TreeSet<>(
                        Arrays.asList(
                                ReaderBaseMetrics.FETCH_QUEUE_RECORDS,
                                ReaderBaseMetrics.FETCH_QUEUE_BYTES,
                                ReaderBaseMetrics.FETCH_QUEUE_FULL_WAITS,
                                ReaderBaseMetrics.FETCH_QUEUE_PEAK_RECORDS,
                                ReaderBaseMetrics.ASSIGNED_SPLITS,
                                ReaderBaseMetrics.FINISHED_SPLITS,
                                ReaderBaseMetrics.DUPLICATE_SPLITS,
                                ReaderBaseMetrics.FINISHED_SPLITS_FORGOTTEN));
        assertEquals(documented, registered, doc);
    }
}
