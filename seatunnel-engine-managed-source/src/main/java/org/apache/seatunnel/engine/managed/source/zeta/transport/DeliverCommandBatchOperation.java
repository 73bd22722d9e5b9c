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
import org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter;

/**
 * Carries one encoded {@code CommandBatchCodec} batch (several readers' checkpoint reports for one
 * coordinator) to the coordinator's member and brings back the encoded batch answer, one {@code
 * AdmissionAck} per entry. An operation of its own rather than {@link DeliverCommandOperation}
 * sniffing a magic: the answer has another format, so the operation type says what the response is,
 * and the single-frame operation keeps its contract unchanged.
 *
 * <p>Threading: built on the sender's thread; {@link #run()} executes on the target member's
 * generic operation thread (inline on the caller for a local target) and delegates to {@link
 * SourceCommandTransportAdapter#deliverBatchFrame}, which admits each entry without waiting and
 * never throws.
 */
public final class DeliverCommandBatchOperation extends ManagedSourceOperation {
    private byte[] batch;
    private transient byte[] response;

    /** For deserialization. */
    public DeliverCommandBatchOperation() {}

    public DeliverCommandBatchOperation(byte[] batch) {
        this.batch = batch;
    }

    @Override
    public void run() {
        InboundRouter router = getService();
        response = router.deliverBatchFrame(batch, getCallerAddress());
    }

    @Override
    public Object getResponse() {
        return response;
    }

    @Override
    public int getClassId() {
        return ManagedSourceDataSerializerHook.DELIVER_COMMAND_BATCH_OPERATION;
    }

    @Override
    protected void writeInternal(ObjectDataOutput out) throws IOException {
        super.writeInternal(out);
        out.writeByteArray(batch);
    }

    @Override
    protected void readInternal(ObjectDataInput in) throws IOException {
        super.readInternal(in);
        batch = in.readByteArray();
    }
}
