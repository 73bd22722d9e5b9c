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

/**
 * Announces checkpoint N's barrier to the Lane A readers of one source on the member this runs on,
 * right after their coordinator snapshotted N ({@link BarrierAnnouncer}).
 *
 * <p>Threading: built on the coordinator's snapshot thread; {@link #run()} executes on the target
 * member's generic operation thread and only raises each reader mailbox's announcement flag and
 * wakes its task thread: it never blocks and runs no connector code. An announcement is advisory: a
 * lost, late or forged one delays a reader at most {@code reader.barrier-handoff-timeout} and
 * cannot change what a checkpoint contains.
 */
public final class BarrierNoticeOperation extends ManagedSourceOperation {
    /** More subtasks than a job can have readers on one member is a malformed frame. */
    static final int MAX_SUBTASKS = 1 << 16;

    private long jobId;
    private long sourceRuntimeId;
    private long checkpointId;
    private int[] subtasks;

    /** For deserialization. */
    public BarrierNoticeOperation() {}

    public BarrierNoticeOperation(
            long jobId, long sourceRuntimeId, long checkpointId, int[] subtasks) {
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.checkpointId = checkpointId;
        this.subtasks = subtasks;
    }

    @Override
    public void run() {
        InboundRouter router = getService();
        router.announceBarrier(jobId, sourceRuntimeId, checkpointId, subtasks);
    }

    @Override
    public Object getResponse() {
        return Boolean.TRUE;
    }

    @Override
    public int getClassId() {
        return ManagedSourceDataSerializerHook.BARRIER_NOTICE_OPERATION;
    }

    @Override
    protected void writeInternal(ObjectDataOutput out) throws IOException {
        super.writeInternal(out);
        out.writeLong(jobId);
        out.writeLong(sourceRuntimeId);
        out.writeLong(checkpointId);
        out.writeIntArray(subtasks);
    }

    @Override
    protected void readInternal(ObjectDataInput in) throws IOException {
        super.readInternal(in);
        jobId = in.readLong();
        sourceRuntimeId = in.readLong();
        checkpointId = in.readLong();
        subtasks = in.readIntArray();
        if (subtasks == null || subtasks.length > MAX_SUBTASKS) {
            throw new IOException("malformed barrier notice");
        }
    }
}
