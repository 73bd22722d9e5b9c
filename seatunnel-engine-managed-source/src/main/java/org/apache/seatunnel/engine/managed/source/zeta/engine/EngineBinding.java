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
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.impl.NodeEngine;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * Everything Lane A needs from the engine that the connector SPI does not hand a source.
 *
 * <p>Threading: implementations are stateless and may be called from any thread; each method says
 * which threads the engine allows it on.
 *
 * <p>Why one interface: these touches read private fields and call internal services whose names
 * are pinned to one engine release. Kept together, an engine upgrade is one new implementation
 * (chosen by {@link #forVersion}) instead of a search through the hosts; an engine no binding was
 * built for keeps every job on Lane B ({@code EngineVersion}) rather than failing later and
 * obscurely.
 */
public interface EngineBinding {

    /** The engine release this binding was built and tested for, e.g. {@code 2.3.8}. */
    String builtFor();

    /** The reader task a reader context belongs to; fails naming the field on another engine. */
    ReaderTask readerTask(SourceReader.Context context);

    /** The enumerator task an enumerator context belongs to. */
    EnumeratorTask enumeratorTask(SourceSplitEnumerator.Context<?> context);

    /**
     * The bounded queues a source task's collector puts every row into; null when an output is not
     * such a queue (a chained transform, another queue type), whose room cannot be seen.
     */
    OutputQueues outputQueues(Object collector);

    /**
     * What the plan of a running job says about its name and checkpoints; null when the job is not
     * (yet) in the engine's running-job map of a member in this JVM. Blocks on one cluster map
     * read: never call it on a Hazelcast operation or IO thread.
     */
    JobPlan jobPlan(long jobId);

    /** Whether {@code name} is one of the engine's default job names (it names no job). */
    boolean isDefaultJobName(String name);

    /**
     * The node engine of a member instance (the proxy a starter returns, or the instance).
     *
     * @throws IllegalArgumentException for a client instance
     */
    NodeEngine nodeEngine(HazelcastInstance instance);

    /**
     * Fails {@code jobId} without restore if this member is the master and runs it, the way a
     * pipeline failure ends a job (FAILED, with {@code reason} as its error).
     *
     * @return false when the job is not known here (not the master, or no such job)
     */
    boolean failJobIfMaster(NodeEngine nodeEngine, long jobId, String reason);

    /** The name of the engine's running-job map, whose entries a cluster-wide store may key on. */
    String runningJobMapName();

    /** The binding for the engine on this class path; fails with the version refusal otherwise. */
    static EngineBinding running() {
        return Bindings.RUNNING;
    }

    /** The binding built for {@code engineVersion}, or null when there is none. */
    static EngineBinding forVersion(String engineVersion) {
        return Zeta238Binding.VERSION.equals(engineVersion) ? new Zeta238Binding() : null;
    }

    /** A source reader task, seen through the engine's internals. Any thread. */
    interface ReaderTask {
        HazelcastInstance member();

        long jobId();

        /** The member that runs the enumerator task; resolved by the engine before open(). */
        Address enumeratorAddress();

        /** True once the engine took a prepare-close barrier: no more records may be emitted. */
        boolean prepareClose();

        /**
         * Where the engine keeps the task's schema-change phase (null while none is in progress);
         * setting it to null ends the phase as the engine's end notification does.
         */
        AtomicReference<Object> schemaChangePhase();

        /** The checkpoint the engine bound {@code phase} to, -1 while it waits for its barrier. */
        long schemaChangeCheckpoint(Object phase);
    }

    /** A source enumerator task, seen through the engine's internals. Any thread. */
    interface EnumeratorTask {
        HazelcastInstance member();

        long jobId();

        /**
         * The member the engine recorded for reader {@code subtask}, or null before that reader's
         * registration reached the enumerator task.
         */
        Address readerMember(int subtask);

        /** Reports a failure to the master the way the engine's own task operations do. */
        void reportFailureToMaster(Throwable cause);
    }

    /** A job's name and checkpoint facts as its plan states them. */
    final class JobPlan {
        private final String name;
        private final boolean checkpointsEnabled;
        private final long checkpointIntervalMillis;

        public JobPlan(String name, boolean checkpointsEnabled, long checkpointIntervalMillis) {
            this.name = name;
            this.checkpointsEnabled = checkpointsEnabled;
            this.checkpointIntervalMillis = checkpointIntervalMillis;
        }

        /** The job's configured name, possibly one of the engine's defaults. */
        public String name() {
            return name;
        }

        /** Whether the engine takes periodic checkpoints of this job. */
        public boolean checkpointsEnabled() {
            return checkpointsEnabled;
        }

        /** The interval of those checkpoints; 0 without them or when it cannot be told. */
        public long checkpointIntervalMillis() {
            return checkpointIntervalMillis;
        }
    }

    /** The result of {@link #outputQueues}: the queues and their smallest capacity. */
    final class OutputQueues {
        private final List<BlockingQueue<?>> queues;
        private final int capacity;

        public OutputQueues(List<BlockingQueue<?>> queues, int capacity) {
            this.queues = queues;
            this.capacity = capacity;
        }

        public List<BlockingQueue<?>> queues() {
            return queues;
        }

        public int capacity() {
            return capacity;
        }
    }
}
