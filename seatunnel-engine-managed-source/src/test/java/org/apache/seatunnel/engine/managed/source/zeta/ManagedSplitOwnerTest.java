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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A reader's runtime metadata names the subtask that checkpointed it, through the managed split
 * codec: after a rescale down one handed-back list holds several owners' metadata, and each must be
 * reconciled under its own index.
 */
class ManagedSplitOwnerTest {

    @Test
    void metadataNamesTheSubtaskThatCheckpointedItAcrossTheCodec() throws Exception {
        ManagedSplitSerializer ser = new ManagedSplitSerializer();
        ManagedSplit meta =
                ser.deserialize(ser.serialize(ManagedSplit.metadata(7, new byte[] {1})));
        assertEquals(7, meta.metadataSubtask(0));
        assertEquals(
                0,
                ser.deserialize(ser.serialize(ManagedSplit.metadata(0, new byte[0])))
                        .metadataSubtask(3));
    }

    @Test
    void aConnectorSplitOrAnUnreadableIdFallsBackToTheHandingSubtask() {
        assertEquals(2, ManagedSplit.connector("7", new byte[0]).metadataSubtask(2));
        assertEquals(
                2,
                new ManagedSplit(
                                ManagedSplit.Kind.RUNTIME_METADATA,
                                "\u0000managed-runtime-metadata/x",
                                new byte[0])
                        .metadataSubtask(2));
    }
}
