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
import java.util.Objects;

/**
 * What a checkpoint report proves to the coordinator's tracker: the assignments of this attempt
 * applied under each coordinator epoch and whether no-more-splits was applied, for the coordinator
 * epoch the reader is bound to. Two cuts with equal proofs differ only in their checkpoint id.
 *
 * <p>Threading: immutable, any thread.
 */
final class InclusionProof {
    private final long coordinatorEpoch;
    private final long attemptId;
    private final Map<Long, Long> watermarks;
    private final Map<Long, List<Long>> aboveWatermark;
    private final long noMoreSplitsGeneration;

    InclusionProof(long coordinatorEpoch, ReaderCheckpointCut cut) {
        this.coordinatorEpoch = coordinatorEpoch;
        this.attemptId = cut.attemptId();
        // The cut's maps are copies made for it and never changed.
        this.watermarks = cut.appliedSenderWatermarks();
        this.aboveWatermark = cut.appliedAboveWatermark();
        this.noMoreSplitsGeneration = cut.noMoreSplitsGeneration();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof InclusionProof)) {
            return false;
        }
        InclusionProof p = (InclusionProof) o;
        return coordinatorEpoch == p.coordinatorEpoch
                && attemptId == p.attemptId
                && noMoreSplitsGeneration == p.noMoreSplitsGeneration
                && watermarks.equals(p.watermarks)
                && aboveWatermark.equals(p.aboveWatermark);
    }

    @Override
    public int hashCode() {
        return Objects.hash(coordinatorEpoch, attemptId, noMoreSplitsGeneration, watermarks);
    }
}
