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

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import java.lang.reflect.Field;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.server.task.SourceSplitEnumeratorTask;
import org.apache.seatunnel.engine.server.task.context.SeaTunnelSplitEnumeratorContext;
import org.apache.seatunnel.engine.server.task.context.SourceReaderContext;
import org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle;

/**
 * The few facts the hosts need from Zeta 2.3.8 that its SPI does not expose: which member a task
 * runs on, where the enumerator task lives, and whether the engine has latched prepare-close. Each
 * path is pinned to 2.3.8's private field names and fails with a message naming the field, so an
 * engine upgrade breaks loudly at open rather than silently at runtime.
 *
 * <p>Threading: stateless; any thread.
 */
final class EngineAccess {
    private EngineAccess() {}

    static SourceFlowLifeCycle<?, ?> lifecycle(SourceReader.Context context) {
        if (!(context instanceof SourceReaderContext)) {
            throw new IllegalStateException(
                    "Lane A needs the Zeta 2.3.8 reader context, got "
                            + context.getClass().getName());
        }
        return (SourceFlowLifeCycle<?, ?>) read(context, "sourceActionLifeCycle");
    }

    static HazelcastInstance member(SourceReader.Context context) {
        return lifecycle(context).getRunningTask().getExecutionContext().getInstance();
    }

    static long jobId(SourceReader.Context context) {
        return lifecycle(context).getRunningTask().getTaskLocation().getJobId();
    }

    /** The member that runs the enumerator task; resolved by the engine before open(). */
    static Address enumeratorAddress(SourceReader.Context context) {
        return (Address) read(lifecycle(context), "enumeratorTaskAddress");
    }

    /** True once the engine took a prepare-close barrier: no more records may be emitted. */
    static boolean prepareClose(SourceFlowLifeCycle<?, ?> lifecycle) {
        Boolean b = lifecycle.getPrepareClose();
        return b != null && b;
    }

    /**
     * Where 2.3.8's {@code SourceFlowLifeCycle} keeps a source task's schema-change phase (a
     * private object; null when no schema change is in progress). While it holds one, the engine
     * does not call {@code pollNext}; setting it to null ends the phase as the engine's end
     * notification does.
     */
    @SuppressWarnings("unchecked")
    static java.util.concurrent.atomic.AtomicReference<Object> schemaChangePhase(
            SourceFlowLifeCycle<?, ?> lifecycle) {
        return (java.util.concurrent.atomic.AtomicReference<Object>)
                read(lifecycle, "schemaChangePhase");
    }

    /** The checkpoint the engine bound {@code phase} to, -1 while it waits for its barrier. */
    static long schemaChangeCheckpoint(Object phase) {
        return ((Number) read(phase, "checkpointId")).longValue();
    }

    static SourceSplitEnumeratorTask<?> enumeratorTask(SourceSplitEnumerator.Context<?> context) {
        if (!(context instanceof SeaTunnelSplitEnumeratorContext)) {
            throw new IllegalStateException(
                    "Lane A needs the Zeta 2.3.8 enumerator context, got "
                            + context.getClass().getName());
        }
        return (SourceSplitEnumeratorTask<?>) read(context, "task");
    }

    static HazelcastInstance member(SourceSplitEnumerator.Context<?> context) {
        return enumeratorTask(context).getExecutionContext().getInstance();
    }

    static long jobId(SourceSplitEnumerator.Context<?> context) {
        return enumeratorTask(context).getTaskLocation().getJobId();
    }

    /**
     * The bounded queues a source task's collector puts every row into, one per output, with the
     * smallest capacity; null when an output is not such a queue (a transform chained into the
     * task, the disruptor queue type, another collector), whose room cannot be seen.
     */
    static OutputQueues outputQueues(Object collector) {
        if (!(collector
                instanceof org.apache.seatunnel.engine.server.task.SeaTunnelSourceCollector)) {
            return null;
        }
        java.util.List<?> outputs = (java.util.List<?>) read(collector, "outputs");
        java.util.List<java.util.concurrent.BlockingQueue<?>> queues = new java.util.ArrayList<>();
        int capacity = Integer.MAX_VALUE;
        for (Object o : outputs) {
            if (!(o
                    instanceof
                    org.apache.seatunnel.engine.server.task.flow.IntermediateQueueFlowLifeCycle)) {
                return null;
            }
            Object q =
                    ((org.apache.seatunnel.engine.server.task.group.queue.AbstractIntermediateQueue<
                                            ?>)
                                    read(o, "queue"))
                            .getIntermediateQueue();
            if (!(q instanceof java.util.concurrent.BlockingQueue)) {
                return null;
            }
            java.util.concurrent.BlockingQueue<?> bq = (java.util.concurrent.BlockingQueue<?>) q;
            long cap = (long) bq.remainingCapacity() + bq.size();
            capacity = (int) Math.min(capacity, Math.min(Integer.MAX_VALUE, cap));
            queues.add(bq);
        }
        return queues.isEmpty() ? null : new OutputQueues(queues, capacity);
    }

    /** The result of {@link #outputQueues}. */
    static final class OutputQueues {
        final java.util.List<java.util.concurrent.BlockingQueue<?>> queues;
        final int capacity;

        OutputQueues(java.util.List<java.util.concurrent.BlockingQueue<?>> queues, int capacity) {
            this.queues = queues;
            this.capacity = capacity;
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
                                + " (Lane A is built for Zeta 2.3.8)",
                        e);
            }
        }
        throw new IllegalStateException(
                "No field "
                        + fieldName
                        + " in "
                        + target.getClass().getName()
                        + " (Lane A is built for Zeta 2.3.8)");
    }
}
