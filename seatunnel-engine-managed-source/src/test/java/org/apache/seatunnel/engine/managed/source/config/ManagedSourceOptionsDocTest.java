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

package org.apache.seatunnel.engine.managed.source.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.seatunnel.api.configuration.Option;
import org.junit.jupiter.api.Test;

/**
 * The user docs carry the option table generated from the single declaration, in both languages.
 */
class ManagedSourceOptionsDocTest {

    @Test
    void englishAndChineseDocsContainTheGeneratedOptionTable() throws Exception {
        String table = ManagedSourceOptionsDoc.markdownTable();
        for (String lang : new String[] {"en", "zh"}) {
            String doc =
                    new String(
                            Files.readAllBytes(Paths.get("..", "docs", lang, "configuration.md")),
                            StandardCharsets.UTF_8);
            assertTrue(
                    doc.contains(table),
                    "docs/"
                            + lang
                            + "/configuration.md is stale; regenerate it from"
                            + " ManagedSourceOptionsDoc.markdownTable():\n"
                            + table);
        }
    }

    @Test
    void everyOptionHasADescriptionAndADefault() {
        for (Option<?> o : ManagedSourceOptions.all()) {
            assertTrue(o.getDescription() != null && !o.getDescription().isEmpty(), o.key());
            assertTrue(o.defaultValue() != null, o.key());
        }
    }
}
