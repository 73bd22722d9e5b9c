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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import com.hazelcast.cluster.Address;
import com.hazelcast.spi.impl.NodeEngine;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.transport.FrameInvoker;
import org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandBatchOperation;
import org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandOperation;
import org.apache.seatunnel.engine.managed.source.zeta.transport.InboundRouter;
import org.apache.seatunnel.engine.managed.source.zeta.transport.ManagedSourceOperation;

/**
 * How the member's {@code CommandSender} puts a frame on the wire: one Hazelcast invocation of a
 * transport operation on the target member, tried once.
 *
 * <p>Threading: stateless; called on the sender thread, and its futures complete on Hazelcast's
 * response threads.
 *
 * <p>Why by hand rather than through {@code OperationService.invokeOnTarget}: a try count of 1.
 * Hazelcast would otherwise retry a missing target 250 times with 500 ms pauses, hidden from the
 * sender's deadline and backoff.
 */
final class HazelcastFrameInvoker implements FrameInvoker<Address> {
    private final NodeEngine nodeEngine;

    HazelcastFrameInvoker(NodeEngine nodeEngine) {
        this.nodeEngine = nodeEngine;
    }

    @Override
    public CompletableFuture<byte[]> invoke(Address target, byte[] frame, long callTimeoutMillis) {
        return invokeOnce(new DeliverCommandOperation(frame), target, callTimeoutMillis);
    }

    @Override
    public CompletableFuture<byte[]> invokeBatch(
            Address target, byte[] batch, long callTimeoutMillis) {
        return invokeOnce(new DeliverCommandBatchOperation(batch), target, callTimeoutMillis);
    }

    private CompletableFuture<byte[]> invokeOnce(
            ManagedSourceOperation op, Address target, long callTimeoutMillis) {
        return nodeEngine
                .getOperationService()
                .<byte[]>createInvocationBuilder(InboundRouter.SERVICE_NAME, op, target)
                .setTryCount(1)
                .setCallTimeout(callTimeoutMillis)
                .invoke();
    }
}
