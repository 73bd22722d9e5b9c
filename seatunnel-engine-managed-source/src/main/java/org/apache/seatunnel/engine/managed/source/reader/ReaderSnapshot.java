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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one reader attempt checkpoints at a barrier, in engine-neutral form: the connector's split
 * states as its own serializer wrote them (with their split ids) and the versioned runtime metadata
 * of the cut ({@code SourceRuntimeCheckpointMetadata}, serialized). An engine binding stores these
 * bytes in its own state format; the Zeta host wraps each in a {@code ManagedSplit}.
 *
 * <p>Threading: immutable, any thread. The byte arrays are owned by the snapshot: {@link
 * #split(int)} and {@link #metadata()} hand out copies.
 */
public final class ReaderSnapshot {
    private final long checkpointId;
    private final int subtask;
    private final List<String> splitIds;
    private final List<byte[]> splits;
    private final byte[] metadata;

    public ReaderSnapshot(
            long checkpointId,
            int subtask,
            List<String> splitIds,
            List<byte[]> splits,
            byte[] metadata) {
        if (splitIds.size() != splits.size()) {
            throw new IllegalArgumentException(
                    splitIds.size() + " split ids for " + splits.size() + " splits");
        }
        this.checkpointId = checkpointId;
        this.subtask = subtask;
        this.splitIds = Collections.unmodifiableList(new ArrayList<>(splitIds));
        this.splits = Collections.unmodifiableList(new ArrayList<>(splits));
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** The reader subtask that took it. */
    public int subtask() {
        return subtask;
    }

    public int splitCount() {
        return splits.size();
    }

    public String splitId(int i) {
        return splitIds.get(i);
    }

    /** A copy of split {@code i}'s bytes, as the connector's split serializer wrote them. */
    public byte[] split(int i) {
        return splits.get(i).clone();
    }

    /** A copy of the serialized runtime metadata of the cut. */
    public byte[] metadata() {
        return metadata.clone();
    }

    @Override
    public String toString() {
        return "ReaderSnapshot{checkpoint="
                + checkpointId
                + ", subtask="
                + subtask
                + ", splits="
                + splits.size()
                + '}';
    }
}
