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

package org.apache.seatunnel.engine.managed.e2e.faults;

import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.operationservice.Operation;
import com.hazelcast.spi.impl.operationservice.impl.InvocationFuture;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.table.type.Record;
import org.apache.seatunnel.engine.managed.e2e.EngineInternals;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.server.SeaTunnelServer;
import org.apache.seatunnel.engine.server.TaskExecutionService;
import org.apache.seatunnel.engine.server.checkpoint.operation.TaskAcknowledgeOperation;
import org.apache.seatunnel.engine.server.execution.Task;
import org.apache.seatunnel.engine.server.execution.TaskExecutionContext;
import org.apache.seatunnel.engine.server.execution.TaskGroupContext;
import org.apache.seatunnel.engine.server.task.AbstractTask;
import org.apache.seatunnel.engine.server.task.SeaTunnelSourceCollector;
import org.apache.seatunnel.engine.server.task.SeaTunnelTask;
import org.apache.seatunnel.engine.server.task.SourceSeaTunnelTask;
import org.apache.seatunnel.engine.server.task.flow.OneInputFlowLifeCycle;
import org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle;
import org.apache.seatunnel.engine.server.task.record.Barrier;

/**
 * Fault points 9 and 10, which lie inside Zeta 2.3.8's {@code SourceFlowLifeCycle.triggerBarrier}
 * where no runtime code runs: after the reader's state is registered the task acknowledges the
 * barrier ({@code SeaTunnelTask.ack} → {@code TaskExecutionContext.sendToMaster}), then forwards it
 * downstream ({@code SeaTunnelSourceCollector.sendRecordToNext} → its outputs). This interposes on
 * both for a running job's reader tasks: the task's execution context becomes one whose {@code
 * sendToMaster} passes each barrier acknowledgement through {@link ArmedFaults} at point 9, and
 * each output of its collector one that passes each barrier record through it at point 10. Test
 * code only; each path needs one private field, named in the failure if it changed.
 *
 * <p>Threading: call from the test thread while the job runs; the interposers run on the engine's
 * barrier threads.
 */
public final class EngineFaults {

    private EngineFaults() {}

    /**
     * Interposes on every reader task of {@code jobId} deployed on {@code server}; returns how
     * many.
     */
    public static int interpose(SeaTunnelServer server, long jobId) {
        Map<?, ?> contexts =
                (Map<?, ?>)
                        EngineInternals.read(
                                server.getTaskExecutionService(),
                                TaskExecutionService.class,
                                "executionContexts");
        int n = 0;
        for (Object o : contexts.values()) {
            for (Task t : ((TaskGroupContext) o).getTaskGroup().getTasks()) {
                if (t instanceof SourceSeaTunnelTask
                        && ((SeaTunnelTask) t).getTaskLocation().getJobId() == jobId) {
                    interposeAck((SeaTunnelTask) t, jobId);
                    interposeForwarding((SeaTunnelTask) t, jobId);
                    n++;
                }
            }
        }
        return n;
    }

    private static void interposeAck(SeaTunnelTask task, long jobId) {
        TaskExecutionContext original = task.getExecutionContext();
        if (original instanceof AckInterposer) {
            return;
        }
        EngineInternals.write(
                task,
                AbstractTask.class,
                "executionContext",
                new AckInterposer(
                        task,
                        (NodeEngineImpl)
                                EngineInternals.read(
                                        original, TaskExecutionContext.class, "nodeEngine"),
                        (TaskExecutionService)
                                EngineInternals.read(
                                        original,
                                        TaskExecutionContext.class,
                                        "taskExecutionService"),
                        jobId,
                        task.getTaskLocation().getTaskIndex()));
    }

    @SuppressWarnings("unchecked")
    private static void interposeForwarding(SeaTunnelTask task, long jobId) {
        SourceFlowLifeCycle<?, ?> flow =
                (SourceFlowLifeCycle<?, ?>)
                        EngineInternals.read(task, SeaTunnelTask.class, "startFlowLifeCycle");
        SeaTunnelSourceCollector<?> collector =
                (SeaTunnelSourceCollector<?>)
                        EngineInternals.read(flow, SourceFlowLifeCycle.class, "collector");
        List<OneInputFlowLifeCycle<Record<?>>> outputs =
                (List<OneInputFlowLifeCycle<Record<?>>>)
                        EngineInternals.read(collector, SeaTunnelSourceCollector.class, "outputs");
        for (int i = 0; i < outputs.size(); i++) {
            if (!(outputs.get(i) instanceof ForwardInterposer)) {
                outputs.set(
                        i,
                        new ForwardInterposer(
                                outputs.get(i), jobId, task.getTaskLocation().getTaskIndex()));
            }
        }
    }

    /** Point 9 on the acknowledgement of a barrier that carries state. */
    private static final class AckInterposer extends TaskExecutionContext {
        private final long jobId;
        private final int subtask;

        AckInterposer(
                Task task,
                NodeEngineImpl nodeEngine,
                TaskExecutionService service,
                long jobId,
                int subtask) {
            super(task, nodeEngine, service);
            this.jobId = jobId;
            this.subtask = subtask;
        }

        @Override
        public <E> InvocationFuture<E> sendToMaster(Operation operation) {
            if (operation instanceof TaskAcknowledgeOperation) {
                FaultAction a =
                        ArmedFaults.injected(
                                FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK,
                                jobId,
                                subtask,
                                "acknowledgement");
                if (a == FaultAction.CRASH) {
                    throw new InjectedFaultException(
                            FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK, a);
                }
                if (a == FaultAction.STALL) {
                    ArmedFaults.holdHere(FaultSite.STATE_REGISTRATION_BEFORE_TASK_ACK);
                }
            }
            return super.sendToMaster(operation);
        }
    }

    /** Point 10 on the forwarding of a barrier record. */
    private static final class ForwardInterposer implements OneInputFlowLifeCycle<Record<?>> {
        private final OneInputFlowLifeCycle<Record<?>> next;
        private final long jobId;
        private final int subtask;

        ForwardInterposer(OneInputFlowLifeCycle<Record<?>> next, long jobId, int subtask) {
            this.next = next;
            this.jobId = jobId;
            this.subtask = subtask;
        }

        @Override
        public void received(Record<?> record) throws IOException {
            if (record.getData() instanceof Barrier) {
                FaultAction a =
                        ArmedFaults.injected(
                                FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING,
                                jobId,
                                subtask,
                                "barrier " + ((Barrier) record.getData()).getId());
                if (a == FaultAction.CRASH) {
                    throw new InjectedFaultException(
                            FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING, a);
                }
                if (a == FaultAction.STALL) {
                    ArmedFaults.holdHere(FaultSite.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING);
                }
            }
            next.received(record);
        }

        @Override
        public void init() throws Exception {
            next.init();
        }

        @Override
        public void open() throws Exception {
            next.open();
        }

        @Override
        public void close() throws IOException {
            next.close();
        }

        @Override
        public void prepareClose() throws IOException {
            next.prepareClose();
        }
    }
}
