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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import com.hazelcast.org.snakeyaml.engine.v2.api.Load;
import com.hazelcast.org.snakeyaml.engine.v2.api.LoadSettings;
import com.hazelcast.org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;

/**
 * Reads the {@code seatunnel.engine.managed-source} section out of an operator's {@code
 * seatunnel.yaml}, with the YAML parser the engine itself ships (the engine's own parser only warns
 * about the section and skips it). A missing section means every default: Lane A off.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Why the parser's plain object tree rather than Hazelcast's YAML DOM: the DOM refuses a number
 * past {@code Long.MAX_VALUE} with a parser error that names no key, where the section's own
 * validation names the key, the value and the allowed range.
 */
public final class ManagedSourceYaml {
    private ManagedSourceYaml() {}

    public static ManagedSourceConfig load(Path seatunnelYaml) throws IOException {
        Object tree;
        try (InputStream in = Files.newInputStream(seatunnelYaml)) {
            tree = parsed(() -> newLoad().loadFromInputStream(in), seatunnelYaml.toString());
        }
        return fromTree(tree, seatunnelYaml.toString());
    }

    public static ManagedSourceConfig parse(String yaml) {
        return fromTree(parsed(() -> newLoad().loadFromString(yaml), "<string>"), "<string>");
    }

    /** The parser's tree; its refusal named with the file, which its own message leaves out. */
    private static Object parsed(Supplier<Object> parse, String source) {
        try {
            return parse.get();
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException(source + " is not valid YAML: " + e.getMessage(), e);
        }
    }

    private static Load newLoad() {
        return new Load(LoadSettings.builder().build());
    }

    private static ManagedSourceConfig fromTree(Object root, String source) {
        Map<?, ?> engine = child(child(root, "seatunnel"), "engine");
        Object node = engine == null ? null : engine.get(ManagedSourceOptions.SECTION);
        if (node == null) {
            // Absent, or present and empty: every default.
            return ManagedSourceConfig.defaults();
        }
        if (!(node instanceof Map)) {
            throw new IllegalArgumentException(
                    source
                            + ": seatunnel.engine."
                            + ManagedSourceOptions.SECTION
                            + " must be a map of settings (enabled, allowed-jobs, ...), not "
                            + node);
        }
        Map<?, ?> section = (Map<?, ?>) node;
        Map<String, Object> values = toMap(section);
        try {
            return ManagedSourceConfig.fromMap(values);
        } catch (IllegalArgumentException e) {
            throw new InvalidManagedSourceSettings(source + ": " + e.getMessage(), values, e);
        }
    }

    private static Map<?, ?> child(Object node, String name) {
        if (!(node instanceof Map)) {
            return null;
        }
        Object c = ((Map<?, ?>) node).get(name);
        return c instanceof Map ? (Map<?, ?>) c : null;
    }

    private static Map<String, Object> toMap(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> p : m.entrySet()) {
            Object v = value(p.getValue());
            if (v != null) {
                // An empty YAML value means "use the default", as SeaTunnel's own parser does.
                out.put(String.valueOf(p.getKey()), v);
            }
        }
        return out;
    }

    private static Object value(Object n) {
        if (n instanceof Map) {
            return toMap((Map<?, ?>) n);
        }
        if (n instanceof List) {
            List<Object> list = new ArrayList<>();
            for (Object c : (List<?>) n) {
                Object v = value(c);
                list.add(v == null ? null : String.valueOf(v));
            }
            return list;
        }
        return n;
    }
}
