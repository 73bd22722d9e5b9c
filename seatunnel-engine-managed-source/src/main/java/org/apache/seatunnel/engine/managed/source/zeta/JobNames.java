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
import org.apache.seatunnel.api.env.EnvCommonOptions;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a job's real name ({@code env.job.name}) on the cluster, by its id.
 *
 * <p>Threading: stateless; blocks on one cluster map read, so callers must not be Hazelcast
 * operation or IO threads (the engine plans on its coordinator and cached threads).
 *
 * <p>SeaTunnel 2.3.8 never hands a source the job's name: the client or REST member parses the job
 * and only the job id travels in the source's {@code JobContext}. The name does travel in the job's
 * {@link JobImmutableInformation}, which the engine puts into its running-job map before the master
 * deserializes the plan, so a member that plans the job can read it there.
 */
final class JobNames {
    private static final Logger LOG = LoggerFactory.getLogger(JobNames.class);

    private JobNames() {}

    /**
     * The job's {@code env.job.name}, or null when the job has none of its own (SeaTunnel's default
     * name), when no member runs in this JVM, or when the job is not (yet) in the running-job map.
     */
    static String envJobName(String jobId) {
        if (jobId == null || jobId.isEmpty()) {
            return null;
        }
        long id;
        try {
            id = Long.parseLong(jobId);
        } catch (NumberFormatException e) {
            return null;
        }
        for (HazelcastInstance hz : Hazelcast.getAllHazelcastInstances()) {
            if (!hz.getLifecycleService().isRunning()) {
                continue;
            }
            try {
                IMap<Long, JobInfo> running = hz.getMap(Constant.IMAP_RUNNING_JOB_INFO);
                JobInfo info = running.get(id);
                if (info == null) {
                    return null;
                }
                Data data = info.getJobImmutableInformation();
                JobImmutableInformation job =
                        ((SerializationServiceSupport) hz).getSerializationService().toObject(data);
                return realName(job.getJobConfig().getName());
            } catch (RuntimeException e) {
                LOG.warn("Could not read the name of job {} from the running-job map", jobId, e);
                return null;
            }
        }
        return null;
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
