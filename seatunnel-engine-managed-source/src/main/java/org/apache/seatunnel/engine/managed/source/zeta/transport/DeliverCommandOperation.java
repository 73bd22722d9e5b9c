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
 * Carries one encoded {@code SourceCommandEnvelope} frame to the target's member and brings back
 * the encoded {@code AdmissionAck}. Both directions are our own versioned byte frames, so Hazelcast
 * only moves opaque bytes and no Java serialization is involved.
 *
 * <p>Threading: built on the sender's thread; {@link #run()} executes on the target member's
 * generic operation thread (inline on the caller for a local target) and delegates to {@link
 * SourceCommandTransportAdapter}, which decodes and admits without waiting and never throws.
 * Nothing here runs connector code. (A member without our service could not even deserialize this
 * operation, as the serializer hook ships in the same jar.)
 */
public final class DeliverCommandOperation extends ManagedSourceOperation {
    private byte[] frame;
    private transient byte[] response;

    /** For deserialization. */
    public DeliverCommandOperation() {}

    public DeliverCommandOperation(byte[] frame) {
        this.frame = frame;
    }

    @Override
    public void run() {
        InboundRouter router = getService();
        response = router.deliverFrame(frame, getCallerAddress());
    }

    @Override
    public Object getResponse() {
        return response;
    }

    @Override
    public int getClassId() {
        return ManagedSourceDataSerializerHook.DELIVER_COMMAND_OPERATION;
    }

    @Override
    protected void writeInternal(ObjectDataOutput out) throws IOException {
        super.writeInternal(out);
        out.writeByteArray(frame);
    }

    @Override
    protected void readInternal(ObjectDataInput in) throws IOException {
        super.readInternal(in);
        frame = in.readByteArray();
    }

    /** The frame; package-private for tests. */
    byte[] frame() {
        return frame;
    }
}
