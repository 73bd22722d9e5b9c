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

import com.hazelcast.spi.impl.NodeEngine;
import com.hazelcast.spi.impl.servicemanager.ServiceDescriptor;
import com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider;

/**
 * Registers {@link ManagedSourceMemberService} on every member. Listed in {@code
 * META-INF/services/com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider}; Hazelcast's
 * {@code ServiceManagerImpl} instantiates it with its no-argument constructor at node start, calls
 * {@link ServiceDescriptor#getService} once per member, and later {@code init} and {@code shutdown}
 * on the service because it is a {@code ManagedService}.
 *
 * <p>Threading: stateless; called once per member on the node-start thread.
 *
 * <p>Why not SeaTunnel's {@code NodeExtension}: that would mean replacing the engine's node
 * extension; a descriptor provider is additive.
 */
public final class ManagedSourceServiceDescriptorProvider implements ServiceDescriptorProvider {

    @Override
    public ServiceDescriptor[] createServiceDescriptors() {
        return new ServiceDescriptor[] {new Descriptor()};
    }

    private static final class Descriptor implements ServiceDescriptor {
        @Override
        public String getServiceName() {
            return ManagedSourceMemberService.SERVICE_NAME;
        }

        @Override
        public Object getService(NodeEngine nodeEngine) {
            return new ManagedSourceMemberService();
        }
    }
}
