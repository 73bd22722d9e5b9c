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

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.spi.impl.operationservice.Operation;

/**
 * The common part of this runtime's Hazelcast operations: they belong to the {@link InboundRouter}
 * service, are serialized through {@link ManagedSourceDataSerializerHook} and always answer.
 *
 * <p>Threading: as any Hazelcast operation, run once on the target member's operation thread;
 * immutable after deserialization.
 */
public abstract class ManagedSourceOperation extends Operation
        implements IdentifiedDataSerializable {

    @Override
    public final boolean returnsResponse() {
        return true;
    }

    @Override
    public final String getServiceName() {
        return InboundRouter.SERVICE_NAME;
    }

    @Override
    public final int getFactoryId() {
        return ManagedSourceDataSerializerHook.FACTORY_ID;
    }
}
