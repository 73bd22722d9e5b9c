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
 * The Hazelcast operations of STIP-31's command transport and their serialization: commands and
 * command batches ({@link
 * org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandOperation}, {@link
 * org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandBatchOperation}), barrier
 * notices and the failJob call, with their {@code DataSerializerHook}. An operation reaches the
 * member that receives it only through {@link
 * org.apache.seatunnel.engine.managed.source.zeta.transport.InboundRouter}, the inbound side the
 * member runtime implements, so this package depends on no other package of the binding but the
 * engine binding.
 *
 * <p>Registration: Hazelcast loads {@code META-INF/services/com.hazelcast.DataSerializerHook} and
 * {@code META-INF/services/com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider} once,
 * at node start, from the server classpath (the service descriptor is the member runtime's); this
 * module therefore belongs in SeaTunnel's {@code lib/}, not in a per-job connector jar.
 *
 * <p>Nothing here runs connector code: the operation decodes a frame and admits it into a bounded
 * mailbox or hands it to a coordinator endpoint that only enqueues.
 */
package org.apache.seatunnel.engine.managed.source.zeta.transport;
