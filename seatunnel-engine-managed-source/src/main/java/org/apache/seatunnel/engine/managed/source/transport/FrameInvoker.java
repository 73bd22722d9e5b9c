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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.concurrent.CompletableFuture;

/**
 * Moves encoded frames to a member and returns its encoded answer: in Zeta our own Hazelcast
 * operations through the member's operation service; in the model world its network; in unit tests
 * a fake.
 *
 * <p>Threading: called only on the sender's thread; must not block (it starts the invocation and
 * returns). The future may complete on any thread, or already be complete on return.
 *
 * @param <M> the engine's member address
 */
public interface FrameInvoker<M> {

    /**
     * Delivers one {@code SourceCommandCodec} frame.
     *
     * @param callTimeoutMillis how long the transport may wait for the response before failing
     * @return the encoded {@code AdmissionAck}, or a failure if the transport could not deliver
     */
    CompletableFuture<byte[]> invoke(M target, byte[] frame, long callTimeoutMillis);

    /**
     * Delivers one {@code CommandBatchCodec} batch of frames.
     *
     * @return the encoded batch answer, or a failure if the transport could not deliver
     */
    CompletableFuture<byte[]> invokeBatch(M target, byte[] batch, long callTimeoutMillis);
}
