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

import static org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataTest.DIGEST;
import static org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadataTest.minimal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.seatunnel.engine.managed.source.checkpoint.MetadataFormatException.Reason;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SourceRuntimeCheckpointMetadataSerializerTest {
    private static final SourceRuntimeCheckpointMetadataSerializer SERIALIZER =
            new SourceRuntimeCheckpointMetadataSerializer();

    /** Offsets from the layout table, kept separate from the serializer's constants. */
    private static final int MAJOR_AT = 4;

    private static final int MINOR_AT = 6;
    private static final int LANE_VERSION_AT = 12;
    private static final int LANE_AT = 16;
    private static final int NO_MORE_SPLITS_AT = 25;
    private static final int LINEAGE_COUNT_AT = 49;

    /**
     * Computed independently with python3 from the layout in the {@link
     * SourceRuntimeCheckpointMetadataSerializer} javadoc and a bitwise CRC-32C:
     *
     * <pre>{@code
     * b = b"STRM" + struct.pack(">HHHHiBqq", 1, 0, 1, 0, 3, 1, 42, 2)
     * b += bytes.fromhex("0123456789abcdeffedcba9876543210")
     * b += struct.pack(">H", 2) + struct.pack(">qq", 5, 9)
     * b += struct.pack(">H", 3)
     * for sid, wm, gaps in [(-7, 100, []), (4, 10, [12, 15]), (1 << 40, 0, [2])]:
     *     b += struct.pack(">qqH", sid, wm, len(gaps)) + b"".join(struct.pack(">q", g) for g in gaps)
     * golden = b + struct.pack(">I", crc32c(b))
     * }</pre>
     */
    static final String GOLDEN_V1_0 =
            "5354524d" // magic
                    + "0001" // major
                    + "0000" // minor
                    + "0001" // command protocol major
                    + "0000" // command protocol minor
                    + "00000003" // managedLaneVersion
                    + "01" // lane A
                    + "000000000000002a" // lastBarrierCheckpointId 42
                    + "0000000000000002" // noMoreSplitsGeneration
                    + "0123456789abcdeffedcba9876543210" // capabilityDigest
                    + "0002" // lineage count
                    + "0000000000000005"
                    + "0000000000000009"
                    + "0003" // sender count
                    + "fffffffffffffff9" // sender -7
                    + "0000000000000064" // watermark 100
                    + "0000" // no gaps
                    + "0000000000000004" // sender 4
                    + "000000000000000a" // watermark 10
                    + "0002" // 2 gaps
                    + "000000000000000c"
                    + "000000000000000f"
                    + "0000010000000000" // sender 2^40
                    + "0000000000000000" // watermark 0
                    + "0001" // 1 gap
                    + "0000000000000002"
                    + "e40a4469"; // CRC-32C

    static SourceRuntimeCheckpointMetadata golden() {
        Map<Long, Long> watermarks = new HashMap<>();
        watermarks.put(4L, 10L);
        watermarks.put(1L << 40, 0L);
        watermarks.put(-7L, 100L);
        Map<Long, List<Long>> gaps = new HashMap<>();
        gaps.put(4L, List.of(12L, 15L));
        gaps.put(1L << 40, List.of(2L));
        return SourceRuntimeCheckpointMetadata.builder()
                .commandProtocolVersion(1, 0)
                .managedLaneVersion(3)
                .lane(Lane.A)
                .lastBarrierCheckpointId(42)
                .noMoreSplitsGeneration(2)
                .capabilityDigest(DIGEST)
                .readerAttemptLineage(List.of(5L, 9L))
                .appliedSenderWatermarks(watermarks)
                .boundedSequenceGaps(gaps)
                .build();
    }

    static byte[] reseal(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
        return bytes;
    }

    private static MetadataFormatException assertRejected(Reason reason, byte[] bytes) {
        MetadataFormatException e =
                assertThrows(MetadataFormatException.class, () -> SERIALIZER.deserialize(bytes));
        assertEquals(reason, e.reason(), e.getMessage());
        return e;
    }

    @Test
    void serializeProducesPinnedVersion1Bytes() {
        assertEquals(GOLDEN_V1_0, HexFormat.of().formatHex(SERIALIZER.serialize(golden())));
    }

    @Test
    void pinnedVersion1BytesDeserialize() throws Exception {
        assertEquals(golden(), SERIALIZER.deserialize(HexFormat.of().parseHex(GOLDEN_V1_0)));
    }

    @ParameterizedTest
    @EnumSource(Lane.class)
    void minimalMetadataRoundTripsForEveryLane(Lane lane) throws Exception {
        SourceRuntimeCheckpointMetadata m = minimal().lane(lane).build();
        assertEquals(m, SERIALIZER.deserialize(SERIALIZER.serialize(m)));
    }

    @Test
    void extremeValuesRoundTrip() throws Exception {
        SourceRuntimeCheckpointMetadata m =
                minimal()
                        .commandProtocolVersion(0xFFFF, 0xFFFF)
                        .managedLaneVersion(Integer.MAX_VALUE)
                        .lastBarrierCheckpointId(Long.MIN_VALUE)
                        .noMoreSplitsGeneration(Long.MAX_VALUE)
                        .capabilityDigest("ffffffffffffffffffffffffffffffff")
                        .readerAttemptLineage(List.of(Long.MIN_VALUE, -1L, Long.MAX_VALUE))
                        .appliedSenderWatermarks(
                                Map.of(Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0L))
                        .boundedSequenceGaps(
                                Map.of(Long.MIN_VALUE, List.of(Long.MIN_VALUE + 2, Long.MAX_VALUE)))
                        .build();
        assertEquals(m, SERIALIZER.deserialize(SERIALIZER.serialize(m)));
    }

    @Test
    void metadataAtEveryBoundRoundTrips() throws Exception {
        List<Long> lineage = new ArrayList<>();
        for (long i = 0; i < SourceRuntimeCheckpointMetadata.MAX_LINEAGE; i++) {
            lineage.add(i * 31);
        }
        Map<Long, Long> watermarks = new TreeMap<>();
        Map<Long, List<Long>> gaps = new TreeMap<>();
        List<Long> full = new ArrayList<>();
        for (long i = 0; i < SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER; i++) {
            full.add(1_000 + 2 * i);
        }
        for (long s = 0; s < SourceRuntimeCheckpointMetadata.MAX_SENDERS; s++) {
            watermarks.put(s, 500L);
            if (s
                    < SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS
                            / SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER) {
                gaps.put(s, full);
            }
        }
        SourceRuntimeCheckpointMetadata m =
                minimal()
                        .readerAttemptLineage(lineage)
                        .appliedSenderWatermarks(watermarks)
                        .boundedSequenceGaps(gaps)
                        .build();
        assertEquals(m, SERIALIZER.deserialize(SERIALIZER.serialize(m)));
    }

    @Test
    void equalMetadataSerializesToEqualBytesWhateverTheMapOrder() {
        Map<Long, Long> forward = new LinkedHashMap<>();
        Map<Long, Long> backward = new LinkedHashMap<>();
        for (long s = 0; s < 20; s++) {
            forward.put(s, s);
            backward.put(19 - s, 19 - s);
        }
        assertArrayEquals(
                SERIALIZER.serialize(minimal().appliedSenderWatermarks(forward).build()),
                SERIALIZER.serialize(minimal().appliedSenderWatermarks(backward).build()));
    }

    @Test
    void newerMinorWithAppendedFieldsIsReadBySkippingThem() throws Exception {
        byte[] v10 = SERIALIZER.serialize(golden());
        byte[] v11 = new byte[v10.length + 10];
        System.arraycopy(v10, 0, v11, 0, v10.length - 4);
        Arrays.fill(v11, v10.length - 4, v11.length - 4, (byte) 0x3C);
        ByteBuffer.wrap(v11).putShort(MINOR_AT, (short) 1);
        assertEquals(golden(), SERIALIZER.deserialize(reseal(v11)));
    }

    @Test
    void serializeRefusesAVersionItCannotWrite() {
        SourceRuntimeCheckpointMetadata v2 = minimal().metadataVersion(2).build();
        assertThrows(IllegalArgumentException.class, () -> SERIALIZER.serialize(v2));
    }

    // ---- one test per rejection ----

    @Test
    void badMagic() {
        byte[] bytes = SERIALIZER.serialize(golden());
        bytes[0] = 'X';
        MetadataFormatException e = assertRejected(Reason.BAD_MAGIC, reseal(bytes));
        assertTrue(e.getMessage().contains("0x5354524D"), e.getMessage());
    }

    @Test
    void unknownMajorNamesFoundAndSupportedVersions() {
        byte[] bytes = SERIALIZER.serialize(golden());
        ByteBuffer.wrap(bytes).putShort(MAJOR_AT, (short) 2).putShort(MINOR_AT, (short) 3);
        // Not resealed: a future major may checksum differently, so the version decides first.
        MetadataFormatException e = assertRejected(Reason.UNSUPPORTED_VERSION, bytes);
        assertTrue(e.getMessage().contains("found version 2.3"), e.getMessage());
        assertTrue(e.getMessage().contains("reads version 1"), e.getMessage());
    }

    @Test
    void checksumMismatch() {
        byte[] bytes = SERIALIZER.serialize(golden());
        bytes[LINEAGE_COUNT_AT + 5] ^= 0x01;
        assertRejected(Reason.CHECKSUM_MISMATCH, bytes);
    }

    @Test
    void truncatedPrefix() {
        assertRejected(Reason.TRUNCATED, new byte[] {0x53, 0x54, 0x52});
    }

    @Test
    void truncatedBelowMinimumLayout() {
        byte[] bytes = Arrays.copyOf(SERIALIZER.serialize(golden()), 40);
        assertRejected(Reason.TRUNCATED, bytes);
    }

    @Test
    void truncatedBodyBehindAValidChecksum() {
        // Lineage claims 3 entries but only 2 are present before the (recomputed) checksum.
        byte[] bytes =
                SERIALIZER.serialize(minimal().readerAttemptLineage(List.of(1L, 2L)).build());
        byte[] shorter = new byte[bytes.length - 2];
        System.arraycopy(bytes, 0, shorter, 0, LINEAGE_COUNT_AT + 2 + 16);
        ByteBuffer.wrap(shorter).putShort(LINEAGE_COUNT_AT, (short) 3);
        assertRejected(Reason.TRUNCATED, reseal(shorter));
    }

    @Test
    void truncatedArrayFailsTheChecksum() {
        byte[] bytes = SERIALIZER.serialize(golden());
        assertRejected(Reason.CHECKSUM_MISMATCH, Arrays.copyOf(bytes, bytes.length - 9));
    }

    @Test
    void oversizeLineage() {
        byte[] bytes = SERIALIZER.serialize(minimal().build());
        ByteBuffer.wrap(bytes).putShort(LINEAGE_COUNT_AT, (short) 65);
        MetadataFormatException e = assertRejected(Reason.OVERSIZE, reseal(bytes));
        assertTrue(e.getMessage().contains("limit 64"), e.getMessage());
    }

    @Test
    void oversizeSenderCount() {
        byte[] bytes = SERIALIZER.serialize(minimal().build());
        ByteBuffer.wrap(bytes).putShort(LINEAGE_COUNT_AT + 2, (short) 4097);
        assertRejected(Reason.OVERSIZE, reseal(bytes));
    }

    @Test
    void oversizeGapsOfOneSender() {
        byte[] bytes =
                SERIALIZER.serialize(minimal().appliedSenderWatermarks(Map.of(1L, 0L)).build());
        ByteBuffer.wrap(bytes).putShort(LINEAGE_COUNT_AT + 4 + 16, (short) 1025);
        assertRejected(Reason.OVERSIZE, reseal(bytes));
    }

    @Test
    void oversizeTotalGaps() {
        int fullSenders =
                SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS
                        / SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER;
        Map<Long, Long> watermarks = new TreeMap<>();
        Map<Long, List<Long>> gaps = new TreeMap<>();
        List<Long> full = new ArrayList<>();
        for (long i = 0; i < SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER; i++) {
            full.add(2 + i);
        }
        for (long s = 0; s < fullSenders; s++) {
            watermarks.put(s, 0L);
            gaps.put(s, full);
        }
        watermarks.put((long) fullSenders, 0L); // last sender, no gaps yet
        byte[] bytes =
                SERIALIZER.serialize(
                        minimal()
                                .appliedSenderWatermarks(watermarks)
                                .boundedSequenceGaps(gaps)
                                .build());
        // Claim one gap for the last sender: 65,537 in total, each sender within its own bound.
        ByteBuffer.wrap(bytes).putShort(bytes.length - 4 - 2, (short) 1);
        MetadataFormatException e = assertRejected(Reason.OVERSIZE, reseal(bytes));
        assertTrue(e.getMessage().contains("in total"), e.getMessage());
    }

    @Test
    void badFieldUnknownLane() {
        byte[] bytes = SERIALIZER.serialize(golden());
        bytes[LANE_AT] = 3;
        assertRejected(Reason.BAD_FIELD, reseal(bytes));
    }

    @Test
    void badFieldNegativeScalars() {
        byte[] laneVersion = SERIALIZER.serialize(golden());
        ByteBuffer.wrap(laneVersion).putInt(LANE_VERSION_AT, -1);
        assertRejected(Reason.BAD_FIELD, reseal(laneVersion));
        byte[] generation = SERIALIZER.serialize(golden());
        ByteBuffer.wrap(generation).putLong(NO_MORE_SPLITS_AT, -1);
        assertRejected(Reason.BAD_FIELD, reseal(generation));
    }

    @Test
    void badFieldSendersOutOfOrder() {
        byte[] bytes =
                SERIALIZER.serialize(
                        minimal().appliedSenderWatermarks(Map.of(1L, 0L, 2L, 0L)).build());
        int secondSender = LINEAGE_COUNT_AT + 4 + 18;
        ByteBuffer.wrap(bytes).putLong(secondSender, 1L); // duplicate of the first
        MetadataFormatException e = assertRejected(Reason.BAD_FIELD, reseal(bytes));
        assertTrue(e.getMessage().contains("ascending"), e.getMessage());
    }

    @Test
    void badFieldGapNotAboveWatermark() {
        byte[] bytes = SERIALIZER.serialize(golden());
        // Sender 4 has watermark 10 and gaps 12, 15: make the first gap 11 (= watermark + 1).
        int senderFour = LINEAGE_COUNT_AT + 2 + 16 + 2 + 18;
        ByteBuffer.wrap(bytes).putLong(senderFour + 18, 11);
        assertRejected(Reason.BAD_FIELD, reseal(bytes));
    }

    @Test
    void trailingBytesInTheSupportedMinor() {
        byte[] bytes = SERIALIZER.serialize(golden());
        byte[] longer = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, longer, 0, bytes.length - 4);
        assertRejected(Reason.TRAILING_BYTES, reseal(longer));
    }

    @Test
    void nullInputIsAProgrammingError() {
        assertThrows(NullPointerException.class, () -> SERIALIZER.deserialize(null));
    }
}
