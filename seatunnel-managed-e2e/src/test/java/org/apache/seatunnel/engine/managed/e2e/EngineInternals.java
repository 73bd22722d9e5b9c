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

import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.spi.impl.NodeEngineImpl;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.server.SeaTunnelServer;
import org.apache.seatunnel.engine.server.TaskExecutionService;
import org.apache.seatunnel.engine.server.execution.Task;
import org.apache.seatunnel.engine.server.execution.TaskExecutionContext;
import org.apache.seatunnel.engine.server.execution.TaskGroupContext;
import org.apache.seatunnel.engine.server.execution.TaskLocation;
import org.apache.seatunnel.engine.server.task.SeaTunnelTask;
import org.apache.seatunnel.engine.server.task.SourceSeaTunnelTask;
import org.apache.seatunnel.engine.server.task.SourceSplitEnumeratorTask;
import org.apache.seatunnel.engine.server.task.context.SeaTunnelSplitEnumeratorContext;
import org.apache.seatunnel.engine.server.task.context.SourceReaderContext;
import org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle;

/**
 * How code running inside a Zeta 2.3.8 source task finds the member it runs on, and how a test
 * finds a job's source flow and its schema-change phase from the server. Each member path needs
 * exactly one private field; everything after it is public API of the engine:
 *
 * <pre>
 * reader:     SourceReaderContext.sourceActionLifeCycle      (private final SourceFlowLifeCycle)
 *               .getRunningTask()                             (SeaTunnelTask, Lombok getter)
 *               .getExecutionContext()                        (TaskExecutionContext)
 *               .getInstance()                                (HazelcastInstanceImpl)
 *               .node.getNodeEngine()                         (NodeEngineImpl; getThisAddress())
 * enumerator: SeaTunnelSplitEnumeratorContext.task           (private final SourceSplitEnumeratorTask)
 *               .getExecutionContext().getInstance() ...      (as above)
 * </pre>
 *
 * Stateless.
 */
public final class EngineInternals {

    private EngineInternals() {}

    /** The reader's task, or an exception naming the path that broke. */
    public static SeaTunnelTask taskOf(SourceReader.Context context) {
        if (!(context instanceof SourceReaderContext)) {
            throw new IllegalStateException("not an engine reader context: " + context.getClass());
        }
        SourceFlowLifeCycle<?, ?> lifeCycle =
                (SourceFlowLifeCycle<?, ?>)
                        read(context, SourceReaderContext.class, "sourceActionLifeCycle");
        return lifeCycle.getRunningTask();
    }

    public static SourceSplitEnumeratorTask<?> taskOf(SourceSplitEnumerator.Context<?> context) {
        if (!(context instanceof SeaTunnelSplitEnumeratorContext)) {
            throw new IllegalStateException(
                    "not an engine enumerator context: " + context.getClass());
        }
        return (SourceSplitEnumeratorTask<?>)
                read(context, SeaTunnelSplitEnumeratorContext.class, "task");
    }

    public static NodeEngineImpl nodeEngineOf(SourceReader.Context context) {
        return nodeEngineOf(taskOf(context).getExecutionContext());
    }

    public static NodeEngineImpl nodeEngineOf(SourceSplitEnumerator.Context<?> context) {
        return nodeEngineOf(taskOf(context).getExecutionContext());
    }

    public static TaskLocation locationOf(SourceReader.Context context) {
        return taskOf(context).getTaskLocation();
    }

    public static TaskLocation locationOf(SourceSplitEnumerator.Context<?> context) {
        return taskOf(context).getTaskLocation();
    }

    /**
     * The source flow of job {@code jobId}'s first reader task deployed on {@code server}, or null
     * before one is. Path: {@code TaskExecutionService.executionContexts} (private) → task groups →
     * {@code SeaTunnelTask.startFlowLifeCycle} (protected).
     */
    public static SourceFlowLifeCycle<?, ?> sourceFlowOf(SeaTunnelServer server, long jobId) {
        Map<?, ?> contexts =
                (Map<?, ?>)
                        read(
                                server.getTaskExecutionService(),
                                TaskExecutionService.class,
                                "executionContexts");
        for (Object o : contexts.values()) {
            for (Task t : ((TaskGroupContext) o).getTaskGroup().getTasks()) {
                if (t instanceof SourceSeaTunnelTask
                        && ((SeaTunnelTask) t).getTaskLocation().getJobId() == jobId) {
                    return (SourceFlowLifeCycle<?, ?>)
                            read(t, SeaTunnelTask.class, "startFlowLifeCycle");
                }
            }
        }
        return null;
    }

    /**
     * Where a source flow keeps its schema-change phase ({@code SourceFlowLifeCycle
     * .schemaChangePhase}, private; null when no change is in progress).
     */
    @SuppressWarnings("unchecked")
    public static AtomicReference<Object> schemaChangePhaseOf(SourceFlowLifeCycle<?, ?> flow) {
        return (AtomicReference<Object>) read(flow, SourceFlowLifeCycle.class, "schemaChangePhase");
    }

    private static NodeEngineImpl nodeEngineOf(TaskExecutionContext executionContext) {
        // getInstance() returns NodeEngineImpl.getHazelcastInstance(): the HazelcastInstanceImpl.
        return ((HazelcastInstanceImpl) executionContext.getInstance()).node.getNodeEngine();
    }

    /**
     * Reads private field {@code field} of {@code owner} from {@code target}, or fails naming it.
     */
    public static Object read(Object target, Class<?> owner, String field) {
        try {
            Field f = owner.getDeclaredField(field);
            f.setAccessible(true);
            return f.get(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "engine internals changed: " + owner.getName() + "." + field, e);
        }
    }

    /**
     * Writes private field {@code field} of {@code owner} in {@code target}, or fails naming it.
     */
    public static void write(Object target, Class<?> owner, String field, Object value) {
        try {
            Field f = owner.getDeclaredField(field);
            f.setAccessible(true);
            f.set(target, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "engine internals changed: " + owner.getName() + "." + field, e);
        }
    }
}
