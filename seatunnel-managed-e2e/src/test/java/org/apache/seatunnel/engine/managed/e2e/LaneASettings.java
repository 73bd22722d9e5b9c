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

package org.apache.seatunnel.engine.managed.e2e;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSourceSettings;

/** Installs the managed-source settings the end-to-end tests plan their jobs with. */
final class LaneASettings {
    private LaneASettings() {}

    /** Lane A on, for exactly these job names and the ManagedFake connector. */
    static void allow(String... jobNames) {
        install(true, jobNames);
    }

    /** The kill switch as given, for exactly these job names and the ManagedFake connector. */
    static void install(boolean enabled, String... jobNames) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", enabled);
        cfg.put("allowed-jobs", Arrays.asList(jobNames));
        cfg.put("allowed-connectors", Arrays.asList("ManagedFake"));
        ManagedSourceSettings.install(ManagedSourceConfig.fromMap(cfg));
    }

    static void clear() {
        ManagedSourceSettings.install(null);
    }
}
