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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a reader's runtime checkpoint metadata proves about applied coordinator commands. Immutable;
 * any thread. The host builds it from the reader metadata and passes it to the loop.
 *
 * <p>For each coordinator epoch: the highest applied {@code senderSequence} (the watermark) and the
 * sequences at or below it that were <em>not</em> applied (gaps; retried commands can arrive out of
 * order). A command (epoch e, sequence s) is proven included iff {@code s <= watermark(e)} and
 * {@code s} is not a gap.
 *
 * <ul>
 *   <li>{@link Kind#CHECKPOINT}: the reader took barrier {@code checkpointId} with this metadata.
 *   <li>{@link Kind#RESTORED}: the reader attempt restored from checkpoint {@code checkpointId}
 *       with this metadata and keeps that state. A RESTORED report with no watermarks says the
 *       owner keeps nothing (its restored splits came back through {@code addSplitsBack}).
 * </ul>
 */
public final class ReaderInclusionReport {

    /** See the class comment. */
    public enum Kind {
        CHECKPOINT,
        RESTORED
    }

    /** No attempt: a RESTORED report about an owner that will not register (rescale down). */
    public static final long NO_ATTEMPT = -1L;

    private static final long[] NO_GAPS = new long[0];

    private final Kind kind;
    private final int subtask;
    private final long attemptId;
    private final long checkpointId;
    private final Map<Long, long[]> gapsByEpoch;
    private final Map<Long, Long> watermarkByEpoch;

    private ReaderInclusionReport(Builder b) {
        this.kind = b.kind;
        this.subtask = b.subtask;
        this.attemptId = b.attemptId;
        this.checkpointId = b.checkpointId;
        this.watermarkByEpoch = Collections.unmodifiableMap(new HashMap<>(b.watermarks));
        this.gapsByEpoch = Collections.unmodifiableMap(new HashMap<>(b.gaps));
    }

    public static Builder builder(Kind kind, int subtask, long attemptId, long checkpointId) {
        return new Builder(kind, subtask, attemptId, checkpointId);
    }

    /**
     * Converts reader runtime metadata (a watermark plus the sequences applied above it) into this
     * report's form (the highest applied sequence plus the unapplied ones below it). The one
     * conversion used by the Zeta host and by the fault-injection world.
     */
    public static ReaderInclusionReport fromMetadata(
            Kind kind,
            int subtask,
            long attemptId,
            org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata
                    meta) {
        Builder b = builder(kind, subtask, attemptId, meta.lastBarrierCheckpointId());
        for (Map.Entry<Long, Long> e : meta.appliedSenderWatermarks().entrySet()) {
            long epoch = e.getKey();
            long wm = e.getValue();
            java.util.List<Long> above = meta.boundedSequenceGaps().get(epoch);
            long high = above == null || above.isEmpty() ? wm : above.get(above.size() - 1);
            java.util.Set<Long> applied =
                    above == null
                            ? java.util.Collections.<Long>emptySet()
                            : new java.util.HashSet<>(above);
            long[] gaps = new long[(int) Math.max(0, high - wm - applied.size())];
            int n = 0;
            for (long s = wm + 1; s < high; s++) {
                if (!applied.contains(s)) {
                    gaps[n++] = s;
                }
            }
            b.watermark(epoch, high, n == gaps.length ? gaps : Arrays.copyOf(gaps, n));
        }
        return b.build();
    }

    /** A RESTORED report for an owner that keeps no state. */
    public static ReaderInclusionReport restoredEmpty(int subtask, long checkpointId) {
        return builder(Kind.RESTORED, subtask, NO_ATTEMPT, checkpointId).build();
    }

    public Kind kind() {
        return kind;
    }

    public int subtask() {
        return subtask;
    }

    public long attemptId() {
        return attemptId;
    }

    public long checkpointId() {
        return checkpointId;
    }

    /** The watermark of {@code epoch}, or -1 when the reader applied nothing of that epoch. */
    public long watermark(long epoch) {
        Long w = watermarkByEpoch.get(epoch);
        return w == null ? -1L : w;
    }

    /**
     * The highest sequence of {@code epoch} below which every command is proven applied (-1 when
     * the epoch is unknown): the watermark, or just below the first gap under it.
     */
    public long contiguousWatermark(long epoch) {
        Long w = watermarkByEpoch.get(epoch);
        if (w == null) {
            return -1L;
        }
        long[] gaps = gapsByEpoch.get(epoch);
        return gaps == null || gaps.length == 0 ? w : gaps[0] - 1;
    }

    /** True iff the command (epoch, seq) is proven applied by this metadata. */
    public boolean proves(long epoch, long seq) {
        Long w = watermarkByEpoch.get(epoch);
        if (w == null || seq > w) {
            return false;
        }
        long[] gaps = gapsByEpoch.get(epoch);
        return gaps == null || Arrays.binarySearch(gaps, seq) < 0;
    }

    @Override
    public String toString() {
        return "ReaderInclusionReport{"
                + kind
                + ", subtask="
                + subtask
                + ", attempt="
                + attemptId
                + ", checkpoint="
                + checkpointId
                + ", epochs="
                + watermarkByEpoch.size()
                + '}';
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private final Kind kind;
        private final int subtask;
        private final long attemptId;
        private final long checkpointId;
        private final Map<Long, Long> watermarks = new HashMap<>();
        private final Map<Long, long[]> gaps = new HashMap<>();

        private Builder(Kind kind, int subtask, long attemptId, long checkpointId) {
            this.kind = Objects.requireNonNull(kind, "kind");
            this.subtask = subtask;
            this.attemptId = attemptId;
            this.checkpointId = checkpointId;
        }

        /** Watermark and gap sequences (any order, each at most the watermark) of one epoch. */
        public Builder watermark(long epoch, long appliedWatermark, long... gapSequences) {
            long[] g = gapSequences == null ? NO_GAPS : gapSequences.clone();
            Arrays.sort(g);
            for (long s : g) {
                if (s > appliedWatermark) {
                    throw new IllegalArgumentException("gap above watermark");
                }
            }
            watermarks.put(epoch, appliedWatermark);
            gaps.put(epoch, g);
            return this;
        }

        public ReaderInclusionReport build() {
            return new ReaderInclusionReport(this);
        }
    }
}
