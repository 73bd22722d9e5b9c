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

package org.apache.seatunnel.engine.managed.source.checkpoint;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion;

/**
 * Engine runtime metadata snapshotted by a Lane A Reader together with its connector state, with
 * the fields STIP-31 "Split assignment ownership" lists plus the {@link Lane} (STIP-31
 * "Compatibility and upgrades": restore never picks a lane from the installed connector alone) and
 * the id of the barrier it was taken at.
 *
 * <p>Threading: immutable, any thread.
 *
 * <p>Every collection is bounded, so the metadata cannot grow without limit when senders misbehave
 * and so the deserializer can reject hostile counts before allocating. Maps iterate in ascending
 * sender-id order, which makes the serialized form canonical: equal metadata always produces equal
 * bytes.
 *
 * <p>Sequence bookkeeping per sender: the watermark is the highest sender sequence up to which
 * every command was applied; the gaps are the sequences applied above it out of order. Hence each
 * gap entry is at least {@code watermark + 2} (if {@code watermark + 1} had been applied, the
 * watermark would have advanced), and gaps exist only for senders that have a watermark.
 */
public final class SourceRuntimeCheckpointMetadata {
    /** The runtime-metadata version written by this release; also the serialized major. */
    public static final int CURRENT_METADATA_VERSION = 1;

    public static final int MAX_LINEAGE = 64;
    public static final int MAX_SENDERS = 4096;
    public static final int MAX_GAPS_PER_SENDER = 1024;

    /**
     * Caps the sum over all senders: without it 4096 senders x 1024 gaps would allow 32 MiB of
     * metadata per Reader snapshot.
     */
    public static final int MAX_TOTAL_GAPS = 65536;

    public static final int CAPABILITY_DIGEST_HEX_LENGTH = 32;

    private final int metadataVersion;
    private final int commandProtocolMajor;
    private final int commandProtocolMinor;
    private final int managedLaneVersion;
    private final List<Long> readerAttemptLineage;
    private final Map<Long, Long> appliedSenderWatermarks;
    private final Map<Long, List<Long>> boundedSequenceGaps;
    private final long noMoreSplitsGeneration;
    private final String capabilityDigest;
    private final Lane lane;
    private final long lastBarrierCheckpointId;

    private SourceRuntimeCheckpointMetadata(Builder b) {
        if (b.metadataVersion < 1 || b.metadataVersion > 0xFFFF) {
            throw new IllegalArgumentException(
                    "metadataVersion out of range: " + b.metadataVersion);
        }
        MetadataChecks.requireU16("commandProtocolMajor", b.commandProtocolMajor);
        MetadataChecks.requireU16("commandProtocolMinor", b.commandProtocolMinor);
        if (b.managedLaneVersion == null) {
            throw new IllegalArgumentException("managedLaneVersion is required");
        }
        if (b.managedLaneVersion < 0) {
            throw new IllegalArgumentException(
                    "managedLaneVersion must be >= 0: " + b.managedLaneVersion);
        }
        if (b.noMoreSplitsGeneration < 0) {
            throw new IllegalArgumentException(
                    "noMoreSplitsGeneration must be >= 0: " + b.noMoreSplitsGeneration);
        }
        String digestProblem = MetadataChecks.digestProblem(b.capabilityDigest);
        if (digestProblem != null) {
            throw new IllegalArgumentException(digestProblem);
        }
        this.metadataVersion = b.metadataVersion;
        this.commandProtocolMajor = b.commandProtocolMajor;
        this.commandProtocolMinor = b.commandProtocolMinor;
        this.managedLaneVersion = b.managedLaneVersion;
        this.noMoreSplitsGeneration = b.noMoreSplitsGeneration;
        this.capabilityDigest = b.capabilityDigest;
        this.lane = Objects.requireNonNull(b.lane, "lane");
        this.lastBarrierCheckpointId = b.lastBarrierCheckpointId;
        this.readerAttemptLineage = MetadataChecks.copyLineage(b.readerAttemptLineage);
        this.appliedSenderWatermarks = MetadataChecks.copyWatermarks(b.appliedSenderWatermarks);
        this.boundedSequenceGaps =
                MetadataChecks.copyGaps(b.boundedSequenceGaps, appliedSenderWatermarks);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with every field, for deriving the next snapshot. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.metadataVersion = metadataVersion;
        b.commandProtocolMajor = commandProtocolMajor;
        b.commandProtocolMinor = commandProtocolMinor;
        b.managedLaneVersion = managedLaneVersion;
        b.readerAttemptLineage = readerAttemptLineage;
        b.appliedSenderWatermarks = appliedSenderWatermarks;
        b.boundedSequenceGaps = boundedSequenceGaps;
        b.noMoreSplitsGeneration = noMoreSplitsGeneration;
        b.capabilityDigest = capabilityDigest;
        b.lane = lane;
        b.lastBarrierCheckpointId = lastBarrierCheckpointId;
        return b;
    }

    public int metadataVersion() {
        return metadataVersion;
    }

    public int commandProtocolMajor() {
        return commandProtocolMajor;
    }

    public int commandProtocolMinor() {
        return commandProtocolMinor;
    }

    public int managedLaneVersion() {
        return managedLaneVersion;
    }

    /** Reader attempt ids, oldest first; unmodifiable. */
    public List<Long> readerAttemptLineage() {
        return readerAttemptLineage;
    }

    /** Sender id (coordinator epoch or reader attempt) to applied watermark; ascending keys. */
    public Map<Long, Long> appliedSenderWatermarks() {
        return appliedSenderWatermarks;
    }

    /** Sender id to the ascending sequences applied above its watermark; no empty lists. */
    public Map<Long, List<Long>> boundedSequenceGaps() {
        return boundedSequenceGaps;
    }

    public long noMoreSplitsGeneration() {
        return noMoreSplitsGeneration;
    }

    /** {@code ManagedSourceCapability#digest()} of the connector: 32 lower-case hex characters. */
    public String capabilityDigest() {
        return capabilityDigest;
    }

    public Lane lane() {
        return lane;
    }

    public long lastBarrierCheckpointId() {
        return lastBarrierCheckpointId;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SourceRuntimeCheckpointMetadata)) {
            return false;
        }
        SourceRuntimeCheckpointMetadata m = (SourceRuntimeCheckpointMetadata) o;
        return metadataVersion == m.metadataVersion
                && commandProtocolMajor == m.commandProtocolMajor
                && commandProtocolMinor == m.commandProtocolMinor
                && managedLaneVersion == m.managedLaneVersion
                && noMoreSplitsGeneration == m.noMoreSplitsGeneration
                && lastBarrierCheckpointId == m.lastBarrierCheckpointId
                && lane == m.lane
                && capabilityDigest.equals(m.capabilityDigest)
                && readerAttemptLineage.equals(m.readerAttemptLineage)
                && appliedSenderWatermarks.equals(m.appliedSenderWatermarks)
                && boundedSequenceGaps.equals(m.boundedSequenceGaps);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                metadataVersion,
                commandProtocolMajor,
                commandProtocolMinor,
                managedLaneVersion,
                readerAttemptLineage,
                appliedSenderWatermarks,
                boundedSequenceGaps,
                noMoreSplitsGeneration,
                capabilityDigest,
                lane,
                lastBarrierCheckpointId);
    }

    /** Versions, lane and sizes; the full maps can hold thousands of entries. */
    @Override
    public String toString() {
        int gapCount = 0;
        for (List<Long> g : boundedSequenceGaps.values()) {
            gapCount += g.size();
        }
        return "SourceRuntimeCheckpointMetadata{v"
                + metadataVersion
                + ", protocol="
                + commandProtocolMajor
                + '.'
                + commandProtocolMinor
                + ", lane="
                + lane
                + ", laneVersion="
                + managedLaneVersion
                + ", checkpoint="
                + lastBarrierCheckpointId
                + ", lineage="
                + readerAttemptLineage
                + ", senders="
                + appliedSenderWatermarks.size()
                + ", gaps="
                + gapCount
                + ", noMoreSplitsGeneration="
                + noMoreSplitsGeneration
                + ", capability="
                + capabilityDigest
                + '}';
    }

    /**
     * {@code managedLaneVersion}, {@code capabilityDigest} and {@code lane} are required;
     * collections default to empty and the versions to this release's. All checks run in {@link
     * #build()}, which throws {@link IllegalArgumentException} (or {@link NullPointerException} for
     * null entries).
     *
     * <p>Threading: mutable, confine to one thread.
     */
    public static final class Builder {
        private int metadataVersion = CURRENT_METADATA_VERSION;
        private int commandProtocolMajor = ProtocolVersion.MAJOR;
        private int commandProtocolMinor = ProtocolVersion.MINOR;
        private Integer managedLaneVersion;
        private List<Long> readerAttemptLineage = Collections.emptyList();
        private Map<Long, Long> appliedSenderWatermarks = Collections.emptyMap();
        private Map<Long, ? extends List<Long>> boundedSequenceGaps = Collections.emptyMap();
        private long noMoreSplitsGeneration;
        private String capabilityDigest;
        private Lane lane;
        private long lastBarrierCheckpointId;

        private Builder() {}

        public Builder metadataVersion(int v) {
            this.metadataVersion = v;
            return this;
        }

        public Builder commandProtocolVersion(int major, int minor) {
            this.commandProtocolMajor = major;
            this.commandProtocolMinor = minor;
            return this;
        }

        public Builder managedLaneVersion(int v) {
            this.managedLaneVersion = v;
            return this;
        }

        /** Copied in {@link #build()}; oldest attempt first. */
        public Builder readerAttemptLineage(List<Long> attempts) {
            this.readerAttemptLineage = attempts;
            return this;
        }

        /** Copied in {@link #build()}. */
        public Builder appliedSenderWatermarks(Map<Long, Long> watermarks) {
            this.appliedSenderWatermarks = watermarks;
            return this;
        }

        /** Copied in {@link #build()}; empty lists are dropped. */
        public Builder boundedSequenceGaps(Map<Long, ? extends List<Long>> gaps) {
            this.boundedSequenceGaps = gaps;
            return this;
        }

        public Builder noMoreSplitsGeneration(long v) {
            this.noMoreSplitsGeneration = v;
            return this;
        }

        public Builder capabilityDigest(String digest) {
            this.capabilityDigest = digest;
            return this;
        }

        public Builder lane(Lane lane) {
            this.lane = lane;
            return this;
        }

        public Builder lastBarrierCheckpointId(long v) {
            this.lastBarrierCheckpointId = v;
            return this;
        }

        public SourceRuntimeCheckpointMetadata build() {
            return new SourceRuntimeCheckpointMetadata(this);
        }
    }
}
