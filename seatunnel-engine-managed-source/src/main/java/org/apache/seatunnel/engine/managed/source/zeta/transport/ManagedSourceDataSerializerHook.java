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

import com.hazelcast.internal.serialization.DataSerializerHook;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * All {@code IdentifiedDataSerializable} ids of Lane A, in one place. Listed in {@code
 * META-INF/services/com.hazelcast.DataSerializerHook}; Hazelcast loads it once per member at start.
 *
 * <p>Threading: stateless; Hazelcast calls it on its serialization paths, from any thread.
 *
 * <p>The factory id is positive and our own: SeaTunnel's factories use -30001..-30006 and
 * Hazelcast's built-in ones are negative too, so a positive id cannot collide with either. Ids are
 * wire format: never renumber, only append.
 */
public final class ManagedSourceDataSerializerHook implements DataSerializerHook {
    /** Lane A's factory id. */
    public static final int FACTORY_ID = 7_331;

    /** {@link DeliverCommandOperation}. */
    public static final int DELIVER_COMMAND_OPERATION = 1;

    /** {@link FailJobOperation}. */
    public static final int FAIL_JOB_OPERATION = 2;

    /** {@link BarrierNoticeOperation}. */
    public static final int BARRIER_NOTICE_OPERATION = 3;

    /** {@link DeliverCommandBatchOperation}. */
    public static final int DELIVER_COMMAND_BATCH_OPERATION = 4;

    @Override
    public int getFactoryId() {
        return FACTORY_ID;
    }

    @Override
    public DataSerializableFactory createFactory() {
        return ManagedSourceDataSerializerHook::create;
    }

    private static IdentifiedDataSerializable create(int typeId) {
        switch (typeId) {
            case DELIVER_COMMAND_OPERATION:
                return new DeliverCommandOperation();
            case FAIL_JOB_OPERATION:
                return new FailJobOperation();
            case BARRIER_NOTICE_OPERATION:
                return new BarrierNoticeOperation();
            case DELIVER_COMMAND_BATCH_OPERATION:
                return new DeliverCommandBatchOperation();
            default:
                // Hazelcast turns this into a deserialization failure naming the factory.
                throw new IllegalArgumentException(
                        "unknown managed-source type id " + typeId + " in factory " + FACTORY_ID);
        }
    }
}
