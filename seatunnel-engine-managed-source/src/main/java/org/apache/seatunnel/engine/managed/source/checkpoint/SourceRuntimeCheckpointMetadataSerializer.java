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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameWriter;
import org.apache.seatunnel.engine.managed.source.checkpoint.MetadataFormatException.Reason;
import org.apache.seatunnel.engine.managed.source.lane.Lane;

/**
 * Versioned binary form of {@link SourceRuntimeCheckpointMetadata}. No Java serialization: the
 * bytes outlive the classes that wrote them.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Layout of major version 1 (big-endian; "u" = unsigned):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53 0x54 0x52 0x4D ("STRM")
 *      4     2  u16 format major (= metadataVersion, 1)
 *      6     2  u16 format minor (0)
 *      8     2  u16 commandProtocolMajor
 *     10     2  u16 commandProtocolMinor
 *     12     4  i32 managedLaneVersion (>= 0)
 *     16     1  u8  lane wire code (1 = A, 2 = B)
 *     17     8  i64 lastBarrierCheckpointId
 *     25     8  i64 noMoreSplitsGeneration (>= 0)
 *     33    16  capabilityDigest as 16 raw bytes (the 32 hex characters decoded)
 *     49     2  u16 L = lineage length (<= 64)
 *     51   8*L  i64 reader attempt ids, oldest first
 *      .     2  u16 W = sender count (<= 4096)
 *      .        W times, sender ids strictly ascending:
 *                 i64 senderId
 *                 i64 applied watermark
 *                 u16 G = gap count (<= 1024; sum over senders <= 65536)
 *                 G x i64 gap sequence, strictly ascending, first >= watermark + 2
 *      .        [minor > 0 only: appended fields]
 *  end-4     4  u32 CRC-32C over bytes [0, end-4)
 * }</pre>
 *
 * <p>Evolution: a minor version may only append fields before the CRC; this reader skips them when
 * the minor is newer than {@value #SUPPORTED_MINOR} and rejects unexplained bytes otherwise. Any
 * other change needs a new major, which this reader rejects. The form is canonical (sorted senders,
 * no empty gap lists), so equal metadata always serializes to equal bytes.
 *
 * <p>Check order in {@link #deserialize}: length for the version prefix, magic, major, minimum
 * length, CRC, then fields in layout order with every count bounded before anything is allocated.
 * Arbitrary input raises only {@link MetadataFormatException}, whose reasons are the frame codec's.
 */
public final class SourceRuntimeCheckpointMetadataSerializer
        implements Serializer<SourceRuntimeCheckpointMetadata> {
    public static final int MAGIC = 0x5354524D;

    /**
     * The one layout this class knows. Deliberately not derived from {@link
     * SourceRuntimeCheckpointMetadata#CURRENT_METADATA_VERSION}: bumping that must not make this
     * class claim to read a layout it has never seen.
     */
    public static final int SUPPORTED_MAJOR = 1;

    public static final int SUPPORTED_MINOR = 0;

    static final int OFF_MAJOR = 4;
    static final int OFF_MINOR = 6;
    static final int OFF_LINEAGE_COUNT = 49;
    static final int DIGEST_BYTES = 16;
    static final int VERSION_PREFIX_BYTES = 8;
    static final int CRC_BYTES = 4;

    /** Empty lineage, no senders. */
    static final int MIN_LENGTH = OFF_LINEAGE_COUNT + 2 + 2 + CRC_BYTES;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final FrameFormat FORMAT =
            FrameFormat.named("Source runtime checkpoint metadata")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, SUPPORTED_MAJOR, SUPPORTED_MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(VERSION_PREFIX_BYTES)
                    .build();

    /**
     * @throws IllegalArgumentException if the metadata declares a version this serializer cannot
     *     write
     */
    @Override
    public byte[] serialize(SourceRuntimeCheckpointMetadata meta) {
        Objects.requireNonNull(meta, "meta");
        if (meta.metadataVersion() != SUPPORTED_MAJOR) {
            throw new IllegalArgumentException(
                    "cannot write metadata version "
                            + meta.metadataVersion()
                            + ", this release writes "
                            + SUPPORTED_MAJOR);
        }
        Map<Long, Long> watermarks = meta.appliedSenderWatermarks();
        Map<Long, List<Long>> gaps = meta.boundedSequenceGaps();
        int size = MIN_LENGTH + 8 * meta.readerAttemptLineage().size() + 18 * watermarks.size();
        for (List<Long> g : gaps.values()) {
            size += 8 * g.size();
        }
        FrameWriter out = FORMAT.writerOfSize(SUPPORTED_MAJOR, SUPPORTED_MINOR, size);
        out.putU16(meta.commandProtocolMajor()).putU16(meta.commandProtocolMinor());
        out.putI32(meta.managedLaneVersion());
        out.putU8(meta.lane().wireCode());
        out.putI64(meta.lastBarrierCheckpointId());
        out.putI64(meta.noMoreSplitsGeneration());
        out.putBytes(hexToBytes(meta.capabilityDigest()));
        out.putU16(meta.readerAttemptLineage().size());
        for (long attempt : meta.readerAttemptLineage()) {
            out.putI64(attempt);
        }
        out.putU16(watermarks.size());
        // The metadata's maps iterate in ascending key order, which the format requires.
        for (Map.Entry<Long, Long> e : watermarks.entrySet()) {
            out.putI64(e.getKey()).putI64(e.getValue());
            List<Long> senderGaps = gaps.get(e.getKey());
            if (senderGaps == null) {
                out.putU16(0);
            } else {
                out.putU16(senderGaps.size());
                for (long gap : senderGaps) {
                    out.putI64(gap);
                }
            }
        }
        return out.finish();
    }

    @Override
    public SourceRuntimeCheckpointMetadata deserialize(byte[] bytes)
            throws MetadataFormatException {
        Objects.requireNonNull(bytes, "bytes");
        try {
            return read(bytes);
        } catch (FrameException e) {
            throw refusal(e, bytes);
        }
    }

    private static SourceRuntimeCheckpointMetadata read(byte[] bytes)
            throws FrameException, MetadataFormatException {
        FrameReader in = FORMAT.open(bytes);
        in.requireLength(MIN_LENGTH);
        in.verifyChecksum();
        int commandProtocolMajor = in.u16();
        int commandProtocolMinor = in.u16();
        int laneVersion = in.i32();
        if (laneVersion < 0) {
            throw badField("managedLaneVersion " + laneVersion + " is negative");
        }
        int laneCode = in.u8();
        Lane lane = Lane.fromWireCode(laneCode);
        if (lane == null) {
            throw badField("unknown lane code " + laneCode);
        }
        long lastBarrierCheckpointId = in.i64();
        long noMoreSplitsGeneration = in.i64();
        if (noMoreSplitsGeneration < 0) {
            throw badField("noMoreSplitsGeneration " + noMoreSplitsGeneration + " is negative");
        }
        String digest = bytesToHex(in.bytes(DIGEST_BYTES));

        int lineageCount =
                readCount(
                        in, "reader attempt lineage", SourceRuntimeCheckpointMetadata.MAX_LINEAGE);
        in.require(8L * lineageCount, "reader attempt lineage");
        List<Long> lineage = new ArrayList<>(lineageCount);
        for (int i = 0; i < lineageCount; i++) {
            lineage.add(in.i64());
        }

        int senderCount =
                readCount(in, "sender watermarks", SourceRuntimeCheckpointMetadata.MAX_SENDERS);
        // Each sender needs at least 18 bytes, so a hostile count fails before any allocation.
        in.require(18L * senderCount, "sender watermarks");
        Map<Long, Long> watermarks = new LinkedHashMap<>();
        Map<Long, List<Long>> gaps = new LinkedHashMap<>();
        long previousSender = 0;
        long totalGaps = 0;
        for (int i = 0; i < senderCount; i++) {
            long senderId = in.i64();
            long watermark = in.i64();
            if (i > 0 && senderId <= previousSender) {
                throw badField(
                        "sender ids not strictly ascending: "
                                + senderId
                                + " after "
                                + previousSender);
            }
            previousSender = senderId;
            int gapCount =
                    readCount(
                            in,
                            "gaps of sender " + senderId,
                            SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER);
            totalGaps += gapCount;
            if (totalGaps > SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS) {
                throw new MetadataFormatException(
                        Reason.OVERSIZE,
                        "more than "
                                + SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS
                                + " gap entries in total");
            }
            in.require(8L * gapCount, "gaps of sender " + senderId);
            watermarks.put(senderId, watermark);
            if (gapCount > 0) {
                List<Long> senderGaps = new ArrayList<>(gapCount);
                for (int g = 0; g < gapCount; g++) {
                    senderGaps.add(in.i64());
                }
                String problem = MetadataChecks.gapsProblem(senderId, watermark, senderGaps);
                if (problem != null) {
                    throw badField(problem);
                }
                gaps.put(senderId, senderGaps);
            }
        }
        if (in.minor() <= SUPPORTED_MINOR) {
            // A newer minor may have appended fields: this reader skips them.
            in.finish();
        }
        // Every rule build() enforces was checked above, so build() cannot throw here.
        return SourceRuntimeCheckpointMetadata.builder()
                .metadataVersion(in.version())
                .commandProtocolVersion(commandProtocolMajor, commandProtocolMinor)
                .managedLaneVersion(laneVersion)
                .lane(lane)
                .lastBarrierCheckpointId(lastBarrierCheckpointId)
                .noMoreSplitsGeneration(noMoreSplitsGeneration)
                .capabilityDigest(digest)
                .readerAttemptLineage(lineage)
                .appliedSenderWatermarks(watermarks)
                .boundedSequenceGaps(gaps)
                .build();
    }

    /** The frame codec's refusal as this format's exception, worded for an operator. */
    private static MetadataFormatException refusal(FrameException e, byte[] bytes) {
        switch (e.reason()) {
            case BAD_MAGIC:
                return new MetadataFormatException(
                        Reason.BAD_MAGIC,
                        e.detail()
                                + "; the checkpoint was not written by the Lane A Source runtime");
            case UNSUPPORTED_VERSION:
                // open() checks the version only once the 8-byte prefix is there.
                int major = ((bytes[OFF_MAJOR] & 0xFF) << 8) | (bytes[OFF_MAJOR + 1] & 0xFF);
                int minor = ((bytes[OFF_MINOR] & 0xFF) << 8) | (bytes[OFF_MINOR + 1] & 0xFF);
                return new MetadataFormatException(
                        Reason.UNSUPPORTED_VERSION,
                        "found version "
                                + major
                                + "."
                                + minor
                                + ", this release reads version "
                                + SUPPORTED_MAJOR
                                + ".x (up to minor "
                                + SUPPORTED_MINOR
                                + " fully, newer minors by skipping appended fields); restore with"
                                + " the release that wrote the checkpoint or one that supports"
                                + " version "
                                + major);
            case CHECKSUM_MISMATCH:
                return new MetadataFormatException(
                        Reason.CHECKSUM_MISMATCH,
                        e.detail() + "; the checkpoint is corrupt or truncated");
            default:
                return new MetadataFormatException(Reason.valueOf(e.reason().name()), e.detail());
        }
    }

    private static int readCount(FrameReader in, String what, int max)
            throws FrameException, MetadataFormatException {
        int count = in.u16();
        if (count > max) {
            throw new MetadataFormatException(
                    Reason.OVERSIZE, what + ": " + count + " entries, limit " + max);
        }
        return count;
    }

    private static MetadataFormatException badField(String message) {
        return new MetadataFormatException(Reason.BAD_FIELD, message);
    }

    private static byte[] hexToBytes(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] =
                    (byte)
                            ((Character.digit(hex.charAt(2 * i), 16) << 4)
                                    | Character.digit(hex.charAt(2 * i + 1), 16));
        }
        return out;
    }

    private static String bytesToHex(byte[] bytes) {
        char[] out = new char[2 * bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xFF;
            out[2 * i] = HEX[b >>> 4];
            out[2 * i + 1] = HEX[b & 0xF];
        }
        return new String(out);
    }
}
