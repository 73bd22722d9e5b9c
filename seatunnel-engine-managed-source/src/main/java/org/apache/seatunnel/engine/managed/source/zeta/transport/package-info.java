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
 * The Zeta binding of STIP-31's command transport: our own Hazelcast operation ({@link
 * org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandOperation}), its
 * receiving end ({@link
 * org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter}), the sending
 * end ({@link org.apache.seatunnel.engine.managed.source.transport.CommandSender}) and the
 * per-member service that owns both plus the member-wide resources of Lane A ({@link
 * org.apache.seatunnel.engine.managed.source.zeta.transport.ManagedSourceMemberService}).
 *
 * <p>Registration: Hazelcast loads {@code META-INF/services/com.hazelcast.DataSerializerHook} and
 * {@code META-INF/services/com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider} once,
 * at node start, from the server classpath; this module therefore belongs in SeaTunnel's {@code
 * lib/}, not in a per-job connector jar.
 *
 * <p>Nothing here runs connector code: the operation decodes a frame and admits it into a bounded
 * mailbox or hands it to a coordinator endpoint that only enqueues.
 */
package org.apache.seatunnel.engine.managed.source.zeta.transport;
