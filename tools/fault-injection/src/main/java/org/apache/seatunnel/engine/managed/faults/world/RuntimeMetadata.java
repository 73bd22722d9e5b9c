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
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;

/**
 * The conversions the Zeta hosts make, mirrored here because the hosts are package-private: a
 * reader cut into {@link SourceRuntimeCheckpointMetadata} ({@code ManagedReaderHost#metadata}) and
 * metadata into the tracker's {@link ReaderInclusionReport} ({@code
 * ManagedEnumeratorHost#inclusion}). Keep them in step with those two methods. Stateless.
 */
public final class RuntimeMetadata {
    private RuntimeMetadata() {}

    /** As {@code ManagedReaderHost#metadata(ReaderCheckpointCut)}. */
    public static SourceRuntimeCheckpointMetadata metadata(
            ReaderCheckpointCut cut, long attemptId, String capabilityDigest) {
        return SourceRuntimeCheckpointMetadata.builder()
                .commandProtocolVersion(ProtocolVersion.MAJOR, ProtocolVersion.MINOR)
                .managedLaneVersion(1)
                .readerAttemptLineage(Collections.singletonList(attemptId))
                .appliedSenderWatermarks(cut.appliedSenderWatermarks())
                .boundedSequenceGaps(cut.appliedAboveWatermark())
                .noMoreSplitsGeneration(cut.noMoreSplitsGeneration())
                .capabilityDigest(capabilityDigest)
                .lane(Lane.A)
                .lastBarrierCheckpointId(cut.checkpointId())
                .build();
    }

    /**
     * As {@code ManagedEnumeratorHost#inclusion}: watermark plus sequences applied above it become
     * the highest applied sequence plus the unapplied ones below it.
     */
    public static ReaderInclusionReport inclusion(
            ReaderInclusionReport.Kind kind,
            int subtask,
            long attempt,
            SourceRuntimeCheckpointMetadata meta) {
        ReaderInclusionReport.Builder b =
                ReaderInclusionReport.builder(
                        kind, subtask, attempt, meta.lastBarrierCheckpointId());
        for (Map.Entry<Long, Long> e : meta.appliedSenderWatermarks().entrySet()) {
            long epoch = e.getKey();
            long wm = e.getValue();
            List<Long> above = meta.boundedSequenceGaps().get(epoch);
            long high = wm;
            if (above != null && !above.isEmpty()) {
                high = above.get(above.size() - 1);
            }
            List<Long> missing = new ArrayList<>();
            for (long s = wm + 1; s < high; s++) {
                if (!above.contains(s)) {
                    missing.add(s);
                }
            }
            long[] gaps = new long[missing.size()];
            for (int i = 0; i < gaps.length; i++) {
                gaps[i] = missing.get(i);
            }
            b.watermark(epoch, high, gaps);
        }
        return b.build();
    }
}
