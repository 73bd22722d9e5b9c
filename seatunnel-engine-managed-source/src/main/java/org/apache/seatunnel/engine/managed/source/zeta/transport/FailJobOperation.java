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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import java.io.IOException;
import org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding;

/**
 * Fails a job on the master with a reason that becomes the job's error, and without pipeline
 * restarts: what a refused restore needs, which no retry can fix.
 *
 * <p>Threading: built on the refusing task's thread; {@link #run()} executes on the master's
 * generic operation thread (inline for a local master) and only flips the job's state (the engine
 * then cancels its pipelines on its own threads). It never waits.
 *
 * <p>Why through the master: Zeta reports the first error its job master records. A restore that
 * fails inside the engine's restore path is recorded as a checkpoint error ("CheckpointCoordinator
 * inside have error."), with the cause buried in its stack trace, and the pipeline is restored
 * again until the engine's restore limit. Recording the refusal as the job's failure first — which
 * also tells the master never to restore it — makes the refusal the first line of the job's error
 * and fails the job once.
 */
public final class FailJobOperation extends ManagedSourceOperation {
    private long jobId;
    private String reason;
    private transient boolean found;

    /** For deserialization. */
    public FailJobOperation() {}

    public FailJobOperation(long jobId, String reason) {
        this.jobId = jobId;
        this.reason = reason;
    }

    @Override
    public void run() {
        found = EngineBinding.running().failJobIfMaster(getNodeEngine(), jobId, reason);
    }

    @Override
    public Object getResponse() {
        return found;
    }

    @Override
    public int getClassId() {
        return ManagedSourceDataSerializerHook.FAIL_JOB_OPERATION;
    }

    @Override
    protected void writeInternal(ObjectDataOutput out) throws IOException {
        super.writeInternal(out);
        out.writeLong(jobId);
        out.writeString(reason);
    }

    @Override
    protected void readInternal(ObjectDataInput in) throws IOException {
        super.readInternal(in);
        jobId = in.readLong();
        reason = in.readString();
    }
}
