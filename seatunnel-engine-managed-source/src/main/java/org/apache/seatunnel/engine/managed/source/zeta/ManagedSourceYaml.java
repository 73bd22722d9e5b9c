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

package org.apache.seatunnel.engine.managed.source.zeta;

import com.hazelcast.org.snakeyaml.engine.v2.api.Load;
import com.hazelcast.org.snakeyaml.engine.v2.api.LoadSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        try (InputStream in = Files.newInputStream(seatunnelYaml)) {
            return fromTree(newLoad().loadFromInputStream(in), seatunnelYaml.toString());
        }
    }

    public static ManagedSourceConfig parse(String yaml) {
        return fromTree(newLoad().loadFromString(yaml), "<string>");
    }

    private static Load newLoad() {
        return new Load(LoadSettings.builder().build());
    }

    private static ManagedSourceConfig fromTree(Object root, String source) {
        Map<?, ?> section =
                child(child(child(root, "seatunnel"), "engine"), ManagedSourceOptions.SECTION);
        if (section == null) {
            return ManagedSourceConfig.defaults();
        }
        try {
            return ManagedSourceConfig.fromMap(toMap(section));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
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
