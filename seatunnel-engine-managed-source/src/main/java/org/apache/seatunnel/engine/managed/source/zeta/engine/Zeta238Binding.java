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

package org.apache.seatunnel.engine.managed.source.zeta.engine;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.NodeEngine;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.env.EnvCommonOptions;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.common.constants.JobMode;
import org.apache.seatunnel.engine.common.Constant;
import org.apache.seatunnel.engine.common.config.JobConfig;
import org.apache.seatunnel.engine.core.job.JobImmutableInformation;
import org.apache.seatunnel.engine.core.job.JobInfo;
import org.apache.seatunnel.engine.server.SeaTunnelServer;
import org.apache.seatunnel.engine.server.checkpoint.operation.CheckpointErrorReportOperation;
import org.apache.seatunnel.engine.server.dag.physical.SubPlan;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.apache.seatunnel.engine.server.task.SeaTunnelSourceCollector;
import org.apache.seatunnel.engine.server.task.SourceSplitEnumeratorTask;
import org.apache.seatunnel.engine.server.task.context.SeaTunnelSplitEnumeratorContext;
import org.apache.seatunnel.engine.server.task.context.SourceReaderContext;
import org.apache.seatunnel.engine.server.task.flow.IntermediateQueueFlowLifeCycle;
import org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle;
import org.apache.seatunnel.engine.server.task.group.queue.AbstractIntermediateQueue;

/**
 * The engine binding for SeaTunnel Zeta 2.3.8: every private field and internal service Lane A uses
 * on that release.
 *
 * <p>Threading: stateless; any thread (the handles it returns too).
 *
 * <p>Each private path is pinned to 2.3.8's field names and fails with a message naming the field,
 * so a binding used on the wrong engine breaks loudly at a task's open, not silently while it runs.
 * The same paths are unchanged through 2.3.13 except three public API moves (the schema-change
 * event package in 2.3.9; {@code EnvCommonOptions} and {@code CommonOptions} in 2.3.10), which a
 * binding for those releases compiles against.
 */
final class Zeta238Binding implements EngineBinding {
    static final String VERSION = "2.3.8";

    // The name SeaTunnel's job config starts with before a job's env sets one (its LOGO).
    private static final String UNNAMED = "SeaTunnel";

    @Override
    public String builtFor() {
        return VERSION;
    }

    @Override
    public ReaderTask readerTask(SourceReader.Context context) {
        if (!(context instanceof SourceReaderContext)) {
            throw new IllegalStateException(
                    "Lane A needs the Zeta 2.3.8 reader context, got "
                            + context.getClass().getName());
        }
        return new Reader((SourceFlowLifeCycle<?, ?>) read(context, "sourceActionLifeCycle"));
    }

    @Override
    public EnumeratorTask enumeratorTask(SourceSplitEnumerator.Context<?> context) {
        if (!(context instanceof SeaTunnelSplitEnumeratorContext)) {
            throw new IllegalStateException(
                    "Lane A needs the Zeta 2.3.8 enumerator context, got "
                            + context.getClass().getName());
        }
        return new Enumerator((SourceSplitEnumeratorTask<?>) read(context, "task"));
    }

    @Override
    public OutputQueues outputQueues(Object collector) {
        if (!(collector instanceof SeaTunnelSourceCollector)) {
            return null;
        }
        List<?> outputs = (List<?>) read(collector, "outputs");
        List<BlockingQueue<?>> queues = new ArrayList<>();
        int capacity = Integer.MAX_VALUE;
        for (Object o : outputs) {
            if (!(o instanceof IntermediateQueueFlowLifeCycle)) {
                return null;
            }
            Object q = ((AbstractIntermediateQueue<?>) read(o, "queue")).getIntermediateQueue();
            if (!(q instanceof BlockingQueue)) {
                return null;
            }
            BlockingQueue<?> bq = (BlockingQueue<?>) q;
            long cap = (long) bq.remainingCapacity() + bq.size();
            capacity = (int) Math.min(capacity, Math.min(Integer.MAX_VALUE, cap));
            queues.add(bq);
        }
        return queues.isEmpty() ? null : new OutputQueues(queues, capacity);
    }

    @Override
    public JobPlan jobPlan(long jobId) {
        for (HazelcastInstance hz : Hazelcast.getAllHazelcastInstances()) {
            if (!hz.getLifecycleService().isRunning()) {
                continue;
            }
            IMap<Long, JobInfo> running = hz.getMap(Constant.IMAP_RUNNING_JOB_INFO);
            JobInfo info = running.get(jobId);
            if (info == null) {
                return null;
            }
            Data data = info.getJobImmutableInformation();
            JobImmutableInformation job =
                    ((SerializationServiceSupport) hz).getSerializationService().toObject(data);
            JobConfig config = job.getJobConfig();
            boolean enabled = checkpointsEnabled(config);
            return new JobPlan(
                    config.getName(),
                    enabled,
                    enabled ? checkpointIntervalMillis(config, engineCheckpointInterval(hz)) : 0);
        }
        return null;
    }

    /**
     * 2.3.8's own rule ({@code JobMaster#createJobCheckpointConfig}): a job checkpoints
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

    /**
     * The job's {@code checkpoint.interval}, else the engine's ({@code seatunnel.engine.checkpoint
     * .interval}), as {@code JobMaster#createJobCheckpointConfig} chooses it; 0 if neither is
     * known.
     */
    static long checkpointIntervalMillis(JobConfig config, long engineDefault) {
        Map<String, Object> env = config.getEnvOptions();
        Object v = env == null ? null : env.get(EnvCommonOptions.CHECKPOINT_INTERVAL.key());
        if (v instanceof Number) {
            return Math.max(0, ((Number) v).longValue());
        }
        if (v != null) {
            try {
                return Math.max(0, Long.parseLong(v.toString().trim()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return Math.max(0, engineDefault);
    }

    private long engineCheckpointInterval(HazelcastInstance hz) {
        try {
            SeaTunnelServer server = nodeEngine(hz).getServiceOrNull(SeaTunnelServer.SERVICE_NAME);
            return server == null
                    ? 0
                    : server.getSeaTunnelConfig()
                            .getEngineConfig()
                            .getCheckpointConfig()
                            .getCheckpointInterval();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    @Override
    public boolean isDefaultJobName(String name) {
        return name.equals(UNNAMED) || name.equals(EnvCommonOptions.JOB_NAME.defaultValue());
    }

    /**
     * A member is either a {@link HazelcastInstanceProxy} (from {@code
     * Hazelcast.newHazelcastInstance}) or the {@link HazelcastInstanceImpl} behind it (what {@code
     * SeaTunnelServerStarter} returns); {@code HazelcastInstanceImpl.node} is public, and {@code
     * node.getNodeEngine()} holds the services.
     */
    @Override
    public NodeEngine nodeEngine(HazelcastInstance instance) {
        HazelcastInstanceImpl impl;
        if (instance instanceof HazelcastInstanceProxy) {
            // Throws HazelcastInstanceNotActiveException once the member has shut down.
            impl = ((HazelcastInstanceProxy) instance).getOriginal();
        } else if (instance instanceof HazelcastInstanceImpl) {
            impl = (HazelcastInstanceImpl) instance;
        } else {
            throw new IllegalArgumentException(
                    "not a member instance (a client?): " + instance.getClass().getName());
        }
        return impl.node.getNodeEngine();
    }

    @Override
    public boolean failJobIfMaster(NodeEngine nodeEngine, long jobId, String reason) {
        SeaTunnelServer server = nodeEngine.getServiceOrNull(SeaTunnelServer.SERVICE_NAME);
        if (server == null || !server.isMasterNode()) {
            return false;
        }
        JobMaster master = server.getCoordinatorService().getJobMaster(jobId);
        if (master == null || master.getPhysicalPlan() == null) {
            return false;
        }
        master.neverNeedRestore();
        // Each pipeline records the reason as its first error (compare-and-set) and turns
        // FAILING, which cancels its tasks and ends it FAILED; the job then ends FAILED with the
        // first pipeline error. (Failing the job itself would end it CANCELED.)
        IllegalStateException error = new IllegalStateException(reason);
        for (SubPlan pipeline : master.getPhysicalPlan().getPipelineList()) {
            if (!pipeline.getPipelineState().isEndState()) {
                pipeline.makePipelineFailing(error);
            }
        }
        return true;
    }

    @Override
    public String runningJobMapName() {
        return Constant.IMAP_RUNNING_JOB_INFO;
    }

    private static final class Reader implements ReaderTask {
        private final SourceFlowLifeCycle<?, ?> lifecycle;

        Reader(SourceFlowLifeCycle<?, ?> lifecycle) {
            this.lifecycle = lifecycle;
        }

        @Override
        public HazelcastInstance member() {
            return lifecycle.getRunningTask().getExecutionContext().getInstance();
        }

        @Override
        public long jobId() {
            return lifecycle.getRunningTask().getTaskLocation().getJobId();
        }

        @Override
        public Address enumeratorAddress() {
            return (Address) read(lifecycle, "enumeratorTaskAddress");
        }

        @Override
        public boolean prepareClose() {
            Boolean b = lifecycle.getPrepareClose();
            return b != null && b;
        }

        @Override
        @SuppressWarnings("unchecked")
        public AtomicReference<Object> schemaChangePhase() {
            return (AtomicReference<Object>) read(lifecycle, "schemaChangePhase");
        }

        @Override
        public long schemaChangeCheckpoint(Object phase) {
            return ((Number) read(phase, "checkpointId")).longValue();
        }
    }

    private static final class Enumerator implements EnumeratorTask {
        private final SourceSplitEnumeratorTask<?> task;

        Enumerator(SourceSplitEnumeratorTask<?> task) {
            this.task = task;
        }

        @Override
        public HazelcastInstance member() {
            return task.getExecutionContext().getInstance();
        }

        @Override
        public long jobId() {
            return task.getTaskLocation().getJobId();
        }

        /**
         * The engine's by-index lookup throws until the reader registered (it looks up a null
         * location in a concurrent map); it records the member before the index, so a known index
         * always has its member.
         */
        @Override
        public Address readerMember(int subtask) {
            return task.getTaskMemberLocationByIndex(subtask) == null
                    ? null
                    : task.getTaskMemberAddressByIndex(subtask);
        }

        @Override
        public void reportFailureToMaster(Throwable cause) {
            task.getExecutionContext()
                    .sendToMaster(
                            new CheckpointErrorReportOperation(task.getTaskLocation(), cause));
        }
    }

    private static Object read(Object target, String fieldName) {
        Class<?> c = target.getClass();
        while (c != null) {
            try {
                Field f = c.getDeclaredField(fieldName);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                c = c.getSuperclass();
            } catch (IllegalAccessException | RuntimeException e) {
                throw new IllegalStateException(
                        "Cannot read "
                                + target.getClass().getName()
                                + "."
                                + fieldName
                                + " (this engine binding is for Zeta "
                                + VERSION
                                + ")",
                        e);
            }
        }
        throw new IllegalStateException(
                "No field "
                        + fieldName
                        + " in "
                        + target.getClass().getName()
                        + " (this engine binding is for Zeta "
                        + VERSION
                        + ")");
    }
}
