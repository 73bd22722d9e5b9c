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

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.lane.LaneSelector;

/**
 * An operator's {@code managed-source} section that does not load, with what can still be read of
 * it: whether it says {@code enabled: true} and which jobs it allows. A job the section as written
 * could never put on Lane A (not enabled, or a list of allowed jobs without it) keeps running on
 * Lane B while the section is broken; any other Managed job fails at planning with this message,
 * because running it on Lane B would quietly ignore the operator's intent.
 *
 * <p>Threading: immutable, any thread.
 */
public final class InvalidManagedSourceSettings extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final boolean enabledTrue;
    // Null when the section has no readable list of allowed jobs.
    private final List<String> allowedJobs;

    InvalidManagedSourceSettings(String message, Map<?, ?> section, Throwable cause) {
        super(message, cause);
        this.enabledTrue = section != null && Boolean.TRUE.equals(section.get("enabled"));
        Object jobs = section == null ? null : section.get("allowed-jobs");
        if (jobs instanceof List) {
            List<String> names = new ArrayList<>();
            for (Object o : (List<?>) jobs) {
                names.add(String.valueOf(o));
            }
            this.allowedJobs = Collections.unmodifiableList(names);
        } else {
            this.allowedJobs = null;
        }
    }

    /** Whether the section, however broken, could never put {@code job} on Lane A. */
    public boolean neverLaneA(String job) {
        if (!enabledTrue) {
            return true;
        }
        return allowedJobs != null
                && !allowedJobs.contains(LaneSelector.WILDCARD)
                && !allowedJobs.contains(job);
    }

    /**
     * Settings that decide such a job as the section would (Lane B, for the reason it gives): only
     * the readable {@code enabled} and {@code allowed-jobs}.
     */
    public ManagedSourceConfig laneBSettings() {
        Map<String, Object> m = new HashMap<>();
        m.put("enabled", enabledTrue);
        if (allowedJobs != null) {
            m.put("allowed-jobs", allowedJobs);
        }
        return ManagedSourceConfig.fromMap(m);
    }
}
