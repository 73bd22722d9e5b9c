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

import com.hazelcast.internal.yaml.YamlCollection;
import com.hazelcast.internal.yaml.YamlLoader;
import com.hazelcast.internal.yaml.YamlMapping;
import com.hazelcast.internal.yaml.YamlNameNodePair;
import com.hazelcast.internal.yaml.YamlNode;
import com.hazelcast.internal.yaml.YamlScalar;
import com.hazelcast.internal.yaml.YamlSequence;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;

/**
 * Threading: stateless, any thread.
 *
 * <p>Reads the {@code seatunnel.engine.managed-source} section out of an operator's {@code
 * seatunnel.yaml}, with the YAML parser the engine itself ships (the engine's own parser only warns
 * about the section and skips it). A missing section means every default: Lane A off.
 */
public final class ManagedSourceYaml {
    private ManagedSourceYaml() {}

    public static ManagedSourceConfig load(Path seatunnelYaml) throws IOException {
        try (InputStream in = Files.newInputStream(seatunnelYaml)) {
            return fromNode(YamlLoader.load(in), seatunnelYaml.toString());
        }
    }

    public static ManagedSourceConfig parse(String yaml) {
        return fromNode(YamlLoader.load(new StringReader(yaml)), "<string>");
    }

    private static ManagedSourceConfig fromNode(YamlNode root, String source) {
        YamlMapping section = null;
        if (root instanceof YamlMapping) {
            YamlMapping st = ((YamlMapping) root).childAsMapping("seatunnel");
            YamlMapping engine = st == null ? null : st.childAsMapping("engine");
            section = engine == null ? null : engine.childAsMapping(ManagedSourceOptions.SECTION);
        }
        if (section == null) {
            return ManagedSourceConfig.defaults();
        }
        try {
            return ManagedSourceConfig.fromMap(toMap(section));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> toMap(YamlMapping m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (YamlNameNodePair p : m.childrenPairs()) {
            Object v = value(p.childNode());
            if (v != null) {
                // An empty YAML value means "use the default", as SeaTunnel's own parser does.
                out.put(p.nodeName(), v);
            }
        }
        return out;
    }

    private static Object value(YamlNode n) {
        if (n instanceof YamlMapping) {
            return toMap((YamlMapping) n);
        }
        if (n instanceof YamlSequence) {
            List<Object> list = new ArrayList<>();
            for (YamlNode c : ((YamlCollection) n).children()) {
                Object v = value(c);
                list.add(v == null ? null : String.valueOf(v));
            }
            return list;
        }
        if (n instanceof YamlScalar) {
            return ((YamlScalar) n).nodeValue();
        }
        return null;
    }
}
