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

package org.apache.seatunnel.managed.testkit.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSourceSettings;

/**
 * Installs the managed-source settings that an embedded engine in this JVM plans its jobs with, the
 * programmatic equivalent of the {@code managed-source} section of {@code seatunnel.yaml}.
 *
 * <p>Threading: any thread. The settings are one JVM-wide value ({@link ManagedSourceSettings}):
 * install them before submitting a job (the lane is chosen when the job is planned, inside {@link
 * EmbeddedZeta#submit}) and {@link #clear()} them when the test class ends. Test classes that run
 * in parallel in one JVM would overwrite each other's settings; surefire's default (one class at a
 * time per fork) is fine.
 */
public final class LaneASettings {
    private LaneASettings() {}

    /** Lane A on for exactly the named jobs and connectors (factory identifiers). */
    public static void enable(Collection<String> jobNames, Collection<String> connectorNames) {
        install(true, jobNames, connectorNames);
    }

    /**
     * The kill switch as given, with the allowlists as given. With {@code enabled == false} every
     * job plans on Lane B, allowlisted or not: that is how a test runs the same job on Lane B.
     */
    public static void install(
            boolean enabled, Collection<String> jobNames, Collection<String> connectorNames) {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", enabled);
        cfg.put("allowed-jobs", new ArrayList<>(jobNames));
        cfg.put("allowed-connectors", new ArrayList<>(connectorNames));
        ManagedSourceSettings.install(ManagedSourceConfig.fromMap(cfg));
    }

    /**
     * Uninstalls, so jobs planned later read the settings from {@code seatunnel.yaml} (system
     * property {@code seatunnel.config} or {@code $SEATUNNEL_HOME/config}) or the defaults (Lane A
     * off).
     */
    public static void clear() {
        ManagedSourceSettings.install(null);
    }
}
