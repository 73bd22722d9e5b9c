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

package org.apache.seatunnel.connectors.managed.fake;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.seatunnel.api.configuration.Option;
import org.junit.jupiter.api.Test;

/** The ManagedFake page (en, zh) carries the option table generated from the declarations. */
class ManagedFakeOptionsDocTest {

    static String markdownTable() {
        StringBuilder sb = new StringBuilder("| key | type | default | description |\n");
        sb.append("|---|---|---|---|\n");
        for (Option<?> o : ManagedFakeSourceOptions.ALL) {
            Object d = o.defaultValue();
            sb.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(o.typeReference().getType().getTypeName().replace("java.lang.", ""))
                    .append(" | `")
                    .append(d instanceof String && ((String) d).isEmpty() ? "\"\"" : d)
                    .append("` | ")
                    .append(o.getDescription().replace("|", "\\|"))
                    .append(" |\n");
        }
        return sb.toString();
    }

    @Test
    void englishAndChinesePagesContainTheGeneratedOptionTable() throws Exception {
        String table = markdownTable();
        for (String lang : new String[] {"en", "zh"}) {
            String doc =
                    new String(
                            Files.readAllBytes(Paths.get("..", "docs", lang, "managed-fake.md")),
                            StandardCharsets.UTF_8);
            assertTrue(
                    doc.contains(table),
                    "docs/" + lang + "/managed-fake.md is stale; its option table is:\n" + table);
        }
    }
}
