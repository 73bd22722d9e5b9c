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

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import java.util.Map;
import org.apache.seatunnel.api.env.EnvCommonOptions;
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
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
 * Both travel in the job's {@link JobImmutableInformation}, which the engine puts into its
 * running-job map before the master deserializes the plan, so a member that plans the job can read
 * them there.
 */
final class JobFacts {
    private static final Logger LOG = LoggerFactory.getLogger(JobFacts.class);

    /** What an unknown job looks like: no name of its own, checkpoint settings unknown. */
    static final JobFacts UNKNOWN = new JobFacts(null, null);

    private final String envJobName;
    private final Boolean checkpointsEnabled;

    private JobFacts(String envJobName, Boolean checkpointsEnabled) {
        this.envJobName = envJobName;
        this.checkpointsEnabled = checkpointsEnabled;
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
        for (HazelcastInstance hz : Hazelcast.getAllHazelcastInstances()) {
            if (!hz.getLifecycleService().isRunning()) {
                continue;
            }
            try {
                IMap<Long, JobInfo> running = hz.getMap(Constant.IMAP_RUNNING_JOB_INFO);
                JobInfo info = running.get(id);
                if (info == null) {
                    return UNKNOWN;
                }
                Data data = info.getJobImmutableInformation();
                JobImmutableInformation job =
                        ((SerializationServiceSupport) hz).getSerializationService().toObject(data);
                JobConfig config = job.getJobConfig();
                return new JobFacts(realName(config.getName()), checkpointsEnabled(config));
            } catch (RuntimeException e) {
                LOG.warn("Could not read job {} from the running-job map", jobId, e);
                return UNKNOWN;
            }
        }
        return UNKNOWN;
    }

    /**
     * Zeta 2.3.8's own rule ({@code JobMaster#createJobCheckpointConfig}): a job checkpoints
     * periodically unless it is a BATCH job without {@code checkpoint.interval} in its env.
     */
    static boolean checkpointsEnabled(JobConfig config) {
        Map<String, Object> env = config.getEnvOptions();
        if (env != null && env.containsKey(EnvCommonOptions.CHECKPOINT_INTERVAL.key())) {
            return true;
        }
        return config.getJobContext() == null
                || config.getJobContext().getJobMode() != JobMode.BATCH;
    }

    /** The job's {@code env.job.name}, or null when it has none of its own. */
    String envJobName() {
        return envJobName;
    }

    /** Whether the job checkpoints periodically; null when its plan could not be read. */
    Boolean checkpointsEnabled() {
        return checkpointsEnabled;
    }

    /** The name SeaTunnel's job config starts with before a job's env sets one (its LOGO). */
    private static final String UNNAMED = "SeaTunnel";

    /** Null for SeaTunnel's default job names, which name no job in particular. */
    static String realName(String name) {
        if (name == null
                || name.trim().isEmpty()
                || name.equals(UNNAMED)
                || name.equals(EnvCommonOptions.JOB_NAME.defaultValue())) {
            return null;
        }
        return name;
    }
}
