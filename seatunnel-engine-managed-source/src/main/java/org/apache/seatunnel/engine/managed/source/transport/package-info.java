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
/**
 * STIP-31's command transport, engine-neutral: the sending end ({@link
 * org.apache.seatunnel.engine.managed.source.transport.CommandSender}, which keeps each stream of
 * commands in order across retries), the receiving end ({@link
 * org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter}, which
 * decodes a frame and admits it through a reader's {@link
 * org.apache.seatunnel.engine.managed.source.transport.ReaderFence} into its mailbox or hands it to
 * a {@link org.apache.seatunnel.engine.managed.source.transport.CoordinatorEndpoint}), and the
 * registry of where commands go on a member. The member type {@code M} is the engine's address of a
 * member (Hazelcast's {@code Address} in Zeta, a number in the fault-injection world); an engine
 * binding supplies only the {@link
 * org.apache.seatunnel.engine.managed.source.transport.FrameInvoker} that moves bytes and the
 * {@link org.apache.seatunnel.engine.managed.source.transport.SenderScheduler} the sender runs on,
 * so the model tests run the code a member runs. Nothing here knows about Zeta or Hazelcast.
 */
package org.apache.seatunnel.engine.managed.source.transport;
