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

import com.hazelcast.spi.impl.NodeEngineImpl;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.commons.lang3.tuple.ImmutablePair;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.env.EnvCommonOptions;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.common.utils.IdGenerator;
import org.apache.seatunnel.engine.core.dag.actions.Action;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDag;
import org.apache.seatunnel.engine.core.dag.logical.LogicalDagGenerator;
import org.apache.seatunnel.engine.core.job.AbstractJobEnvironment;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.parse.MultipleTableJobConfigParser;
import org.apache.seatunnel.engine.server.SeaTunnelServer;

/**
 * Turns a job file into what the engine's coordinator takes, in-process, the way the engine's own
 * REST path does: parse, logical DAG, {@link JobImmutableInformation}.
 *
 * <p>Threading: stateless; any test thread.
 */
final class JobPlans {
    private JobPlans() {}

    /** The plan of the job in {@code file}, to submit under {@code jobId}. */
    static JobImmutableInformation plan(
            SeaTunnelServer master, Path file, long jobId, boolean restore) {
        NodeEngineImpl nodeEngine = master.getNodeEngine();

        JobConfig jobConfig = new JobConfig();
        jobConfig.setJobContext(new JobContext(jobId));
        // No name of our own: the parser takes the job's env.job.name (or SeaTunnel's default),
        // which the managed-source allowlist matches, as on a real cluster.
        // Test-friendly defaults; the job's own env block overrides them during parsing.
        jobConfig.getEnvOptions().put(EnvCommonOptions.JOB_RETRY_INTERVAL_SECONDS.key(), 1);

        List<URL> commonJars = new ArrayList<>();
        MultipleTableJobConfigParser parser =
                new MultipleTableJobConfigParser(
                        file.toString(), new IdGenerator(), jobConfig, commonJars, restore);
        ImmutablePair<List<Action>, Set<URL>> parsed = parser.parse(master.getClassLoaderService());
        List<Action> actions = parsed.getLeft();
        Set<URL> jars = new java.util.HashSet<>(commonJars);
        jars.addAll(parsed.getRight());
        for (Action action : actions) {
            AbstractJobEnvironment.addCommonPluginJarsToAction(
                    action, new java.util.HashSet<>(commonJars), Collections.emptySet());
        }
        LogicalDag dag =
                new LogicalDagGenerator(actions, jobConfig, new IdGenerator(), restore).generate();
        JobImmutableInformation info =
                new JobImmutableInformation(
                        jobId,
                        jobConfig.getName(),
                        restore,
                        nodeEngine.getSerializationService().toData(dag),
                        jobConfig,
                        new ArrayList<>(jars),
                        new ArrayList<>());
        return info;
    }
}
