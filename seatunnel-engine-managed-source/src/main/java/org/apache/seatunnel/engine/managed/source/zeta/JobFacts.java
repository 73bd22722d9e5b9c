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

import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the plan of a job says beyond what the engine hands a source: its real name ({@code
 * env.job.name}) and whether it takes periodic checkpoints, read on the cluster by the job's id.
 *
 * <p>Threading: immutable values; {@link #of} blocks on one cluster map read, so callers must not
 * be Hazelcast operation or IO threads (the engine plans on its coordinator and cached threads).
 *
 * <p>SeaTunnel 2.3.8 never hands a source the job's name or checkpoint settings: the client or REST
 * member parses the job and only the job id and mode travel in the source's {@code JobContext}.
 * Both travel in the job's immutable information, which the engine puts into its running-job map
 * before the master deserializes the plan, so a member that plans the job can read them there
 * ({@link EngineBinding#jobPlan}).
 */
final class JobFacts {
    private static final Logger LOG = LoggerFactory.getLogger(JobFacts.class);

    /** What an unknown job looks like: no name of its own, checkpoint settings unknown. */
    static final JobFacts UNKNOWN = new JobFacts(null, null, 0);

    private final String envJobName;
    private final Boolean checkpointsEnabled;
    private final long checkpointIntervalMillis;

    private JobFacts(String envJobName, Boolean checkpointsEnabled, long checkpointIntervalMillis) {
        this.envJobName = envJobName;
        this.checkpointsEnabled = checkpointsEnabled;
        this.checkpointIntervalMillis = checkpointIntervalMillis;
    }

    /**
     * The facts of job {@code jobId}; {@link #UNKNOWN} when no member runs in this JVM or the job
     * is not (yet) in the running-job map.
     */
    static JobFacts of(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            return UNKNOWN;
        }
        long id;
        try {
            id = Long.parseLong(jobId);
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
        try {
            EngineBinding.JobPlan plan = EngineBinding.running().jobPlan(id);
            return plan == null
                    ? UNKNOWN
                    : new JobFacts(
                            realName(plan.name()),
                            plan.checkpointsEnabled(),
                            plan.checkpointIntervalMillis());
        } catch (RuntimeException e) {
            LOG.warn("Could not read job {} from the running-job map", jobId, e);
            return UNKNOWN;
        }
    }

    /** The job's {@code env.job.name}, or null when it has none of its own. */
    String envJobName() {
        return envJobName;
    }

    /** Whether the job checkpoints periodically; null when its plan could not be read. */
    Boolean checkpointsEnabled() {
        return checkpointsEnabled;
    }

    /** The interval of the job's periodic checkpoints; 0 without them or when unknown. */
    long checkpointIntervalMillis() {
        return checkpointIntervalMillis;
    }

    /** Null for the engine's default job names, which name no job in particular. */
    static String realName(String name) {
        if (name == null
                || name.trim().isEmpty()
                || EngineBinding.running().isDefaultJobName(name)) {
            return null;
        }
        return name;
    }
}
