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

package org.apache.seatunnel.engine.managed.faults.world;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the engine registers for one reader subtask at a checkpoint, in the form the Zeta host
 * checkpoints it: the connector's serialized split states and the serialized runtime metadata (the
 * host's {@code ManagedSplit} list). Immutable.
 */
public final class ReaderState {
    private final int subtask;
    private final List<byte[]> splits;
    private final byte[] metadata;

    public ReaderState(int subtask, List<byte[]> splits, byte[] metadata) {
        this.subtask = subtask;
        this.splits = Collections.unmodifiableList(new ArrayList<>(splits));
        this.metadata = metadata.clone();
    }

    public int subtask() {
        return subtask;
    }

    public List<byte[]> splits() {
        return splits;
    }

    public byte[] metadata() {
        return metadata.clone();
    }
}
