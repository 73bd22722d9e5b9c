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

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.shade.com.typesafe.config.ConfigFactory;
import org.apache.seatunnel.shade.com.typesafe.config.ConfigValueFactory;

/**
 * Prints a SeaTunnel job config (HOCON) as the JSON body that 2.3.8's REST submit-job takes: the
 * env block as is, each of source/transform/sink as a list of plugin configs with plugin_name.
 */
public class HoconToJson {
    @SuppressWarnings("unchecked")
    public static void main(String[] args) {
        Map<String, Object> job =
                ConfigFactory.parseFile(new File(args[0])).resolve().root().unwrapped();
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : job.entrySet()) {
            Object v = e.getValue();
            if (!"env".equals(e.getKey()) && v instanceof Map) {
                List<Object> plugins = new ArrayList<>();
                for (Map.Entry<String, Object> p : ((Map<String, Object>) v).entrySet()) {
                    Map<String, Object> plugin = new LinkedHashMap<>();
                    plugin.put("plugin_name", p.getKey());
                    plugin.putAll((Map<String, Object>) p.getValue());
                    plugins.add(plugin);
                }
                v = plugins;
            }
            out.put(e.getKey(), v);
        }
        System.out.println(ConfigValueFactory.fromAnyRef(out).render(
                org.apache.seatunnel.shade.com.typesafe.config.ConfigRenderOptions.concise()));
    }
}
