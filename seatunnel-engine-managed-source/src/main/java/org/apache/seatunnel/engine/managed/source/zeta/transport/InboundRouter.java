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

import com.hazelcast.cluster.Address;

/**
 * What this runtime's operations hand to the member that receives them: the inbound side of the
 * Hazelcast transport, implemented by the member runtime and registered under {@link
 * #SERVICE_NAME}.
 *
 * <p>Threading: every method runs on the receiving member's Hazelcast operation thread, must not
 * block and runs no connector code (invariant 2).
 *
 * <p>Why an interface: the operations are the transport's and the service that answers them is the
 * member runtime's; the member sends the operations, so the operations reach it only through this
 * seam, and the two packages do not depend on each other both ways.
 */
public interface InboundRouter {
    /** The Hazelcast service name the operations address. */
    String SERVICE_NAME = "st:impl:managedSourceMemberService";

    /** One command frame from {@code from}; returns the encoded admission answer. */
    byte[] deliverFrame(byte[] frame, Address from);

    /** A batch of command frames from {@code from}; returns the encoded per-entry answer. */
    byte[] deliverBatchFrame(byte[] batch, Address from);

    /** Announces checkpoint {@code checkpointId} to the listed local reader subtasks. */
    void announceBarrier(long jobId, long sourceRuntimeId, long checkpointId, int[] subtasks);
}
