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

import java.util.List;
import java.util.Map;

/**
 * The runtime half of a reader snapshot: what the event loop had applied when it took barrier
 * {@code checkpointId}. The host turns it into versioned checkpoint metadata. Immutable.
 */
public final class ReaderCheckpointCut {
    private final long checkpointId;
    private final long attemptId;
    private final Map<Long, Long> appliedSenderWatermarks;
    private final Map<Long, List<Long>> appliedAboveWatermark;
    private final long noMoreSplitsGeneration;

    public ReaderCheckpointCut(
            long checkpointId,
            long attemptId,
            Map<Long, Long> appliedSenderWatermarks,
            Map<Long, List<Long>> appliedAboveWatermark,
            long noMoreSplitsGeneration) {
        this.checkpointId = checkpointId;
        this.attemptId = attemptId;
        this.appliedSenderWatermarks = appliedSenderWatermarks;
        this.appliedAboveWatermark = appliedAboveWatermark;
        this.noMoreSplitsGeneration = noMoreSplitsGeneration;
    }

    public long checkpointId() {
        return checkpointId;
    }

    public long attemptId() {
        return attemptId;
    }

    /** Per coordinator epoch: highest contiguous sender sequence applied. */
    public Map<Long, Long> appliedSenderWatermarks() {
        return appliedSenderWatermarks;
    }

    /** Per coordinator epoch: sequences applied above the watermark. */
    public Map<Long, List<Long>> appliedAboveWatermark() {
        return appliedAboveWatermark;
    }

    public long noMoreSplitsGeneration() {
        return noMoreSplitsGeneration;
    }

    /**
     * The versioned Lane A runtime metadata of this cut, as the reader checkpoints it next to its
     * splits.
     */
    public org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata
            toMetadata(String capabilityDigest) {
        return org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata
                .builder()
                .commandProtocolVersion(
                        org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion.MAJOR,
                        org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion.MINOR)
                .managedLaneVersion(1)
                .readerAttemptLineage(java.util.Collections.singletonList(attemptId))
                .appliedSenderWatermarks(appliedSenderWatermarks)
                .boundedSequenceGaps(appliedAboveWatermark)
                .noMoreSplitsGeneration(noMoreSplitsGeneration)
                .capabilityDigest(capabilityDigest)
                .lane(org.apache.seatunnel.engine.managed.source.lane.Lane.A)
                .lastBarrierCheckpointId(checkpointId)
                .build();
    }
}
