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

package org.apache.seatunnel.connectors.managed.enumerator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The guide documents every discovery option and the metrics docs every discovery metric. */
class DiscoveryDocsTest {
    private static final List<String> METRICS =
            Arrays.asList(
                    DiscoveryMetrics.RUNS,
                    DiscoveryMetrics.FAILURES,
                    DiscoveryMetrics.PAUSES,
                    DiscoveryMetrics.DISCOVERED,
                    DiscoveryMetrics.PENDING);

    private static String read(String path) throws IOException {
        return new String(Files.readAllBytes(Path.of(path)), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"en", "zh"})
    void optionsAndMetricsAreDocumented(String lang) throws IOException {
        String guide = read("../docs/" + lang + "/connector-guide.md");
        for (Option<?> o : DiscoveryOptions.ALL) {
            String row = "| `" + o.key() + "` | ";
            assertTrue(guide.contains(row), lang + " guide lacks the option row of " + o.key());
        }
        String metrics = read("../docs/" + lang + "/metrics.md");
        for (String m : METRICS) {
            assertTrue(metrics.contains("| `" + m + "` |"), lang + " metrics lack " + m);
            assertTrue(guide.contains("`" + m + "`"), lang + " guide lacks " + m);
        }
    }
}
