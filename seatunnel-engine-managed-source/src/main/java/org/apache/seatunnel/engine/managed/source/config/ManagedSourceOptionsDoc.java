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

import java.time.Duration;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;

/**
 * Renders the option table of the user documentation from the one declaration in {@link
 * ManagedSourceOptions}, so the docs cannot drift from the code (a test compares them).
 *
 * <p>Threading: stateless, any thread.
 */
public final class ManagedSourceOptionsDoc {
    public static final String BEGIN =
            "<!-- options:begin (generated from ManagedSourceOptions) -->";
    public static final String END = "<!-- options:end -->";

    private ManagedSourceOptionsDoc() {}

    public static String markdownTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(
                "| key (under `seatunnel.engine.managed-source`) | default | allowed | description"
                        + " |\n");
        sb.append("|---|---|---|---|\n");
        for (Option<?> o : ManagedSourceOptions.all()) {
            sb.append("| `")
                    .append(o.key())
                    .append("` | `")
                    .append(render(o.defaultValue()))
                    .append("` | ")
                    .append(allowed(o))
                    .append(" | ")
                    .append(o.getDescription().replace("|", "\\|"))
                    .append(" |\n");
        }
        return sb.toString();
    }

    private static String allowed(Option<?> o) {
        OptionRanges.Range r = OptionRanges.of(o);
        return r == null ? "" : r.describe();
    }

    private static String render(Object v) {
        if (v instanceof Duration) {
            Duration d = (Duration) v;
            return d.toMillis() % 1000 == 0 ? d.getSeconds() + "s" : d.toMillis() + "ms";
        }
        if (v instanceof List) {
            return v.toString();
        }
        return String.valueOf(v);
    }

    public static void main(String[] args) {
        System.out.print(markdownTable());
    }
}
