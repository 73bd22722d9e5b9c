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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.protocol.ProtocolVersion;
import org.junit.jupiter.api.Test;

class SourceRuntimeCheckpointMetadataTest {
    static final String DIGEST = "0123456789abcdeffedcba9876543210";

    static SourceRuntimeCheckpointMetadata.Builder minimal() {
        return SourceRuntimeCheckpointMetadata.builder()
                .managedLaneVersion(1)
                .capabilityDigest(DIGEST)
                .lane(Lane.A);
    }

    private static Map<Long, List<Long>> gaps(long sender, Long... sequences) {
        Map<Long, List<Long>> m = new HashMap<>();
        m.put(sender, Arrays.asList(sequences));
        return m;
    }

    private static void assertRejected(SourceRuntimeCheckpointMetadata.Builder b, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    @Test
    void defaultsAreThisReleasesVersionsAndEmptyCollections() {
        SourceRuntimeCheckpointMetadata m = minimal().build();
        assertEquals(SourceRuntimeCheckpointMetadata.CURRENT_METADATA_VERSION, m.metadataVersion());
        assertEquals(ProtocolVersion.MAJOR, m.commandProtocolMajor());
        assertEquals(ProtocolVersion.MINOR, m.commandProtocolMinor());
        assertTrue(m.readerAttemptLineage().isEmpty());
        assertTrue(m.appliedSenderWatermarks().isEmpty());
        assertTrue(m.boundedSequenceGaps().isEmpty());
        assertEquals(0, m.noMoreSplitsGeneration());
        assertEquals(0, m.lastBarrierCheckpointId());
    }

    @Test
    void inputsAreCopiedAndOutputsAreUnmodifiable() {
        List<Long> lineage = new ArrayList<>(List.of(1L, 2L));
        Map<Long, Long> watermarks = new HashMap<>(Map.of(7L, 10L));
        List<Long> senderGaps = new ArrayList<>(List.of(12L));
        Map<Long, List<Long>> gaps = new HashMap<>(Map.of(7L, senderGaps));
        SourceRuntimeCheckpointMetadata m =
                minimal()
                        .readerAttemptLineage(lineage)
                        .appliedSenderWatermarks(watermarks)
                        .boundedSequenceGaps(gaps)
                        .build();
        lineage.add(3L);
        watermarks.put(8L, 1L);
        senderGaps.add(20L);
        gaps.put(9L, List.of(5L));

        assertEquals(List.of(1L, 2L), m.readerAttemptLineage());
        assertEquals(Map.of(7L, 10L), m.appliedSenderWatermarks());
        assertEquals(Map.of(7L, List.of(12L)), m.boundedSequenceGaps());
        assertThrows(UnsupportedOperationException.class, () -> m.readerAttemptLineage().add(4L));
        assertThrows(
                UnsupportedOperationException.class, () -> m.appliedSenderWatermarks().put(1L, 1L));
        assertThrows(
                UnsupportedOperationException.class,
                () -> m.boundedSequenceGaps().put(1L, List.of()));
        assertThrows(
                UnsupportedOperationException.class,
                () -> m.boundedSequenceGaps().get(7L).add(99L));
    }

    @Test
    void mapsIterateInAscendingSenderOrderWhateverTheInputOrder() {
        Map<Long, Long> watermarks = new HashMap<>();
        for (long s : new long[] {50, -3, 7, Long.MIN_VALUE, 1000}) {
            watermarks.put(s, 0L);
        }
        SourceRuntimeCheckpointMetadata m = minimal().appliedSenderWatermarks(watermarks).build();
        assertEquals(
                List.of(Long.MIN_VALUE, -3L, 7L, 50L, 1000L),
                new ArrayList<>(m.appliedSenderWatermarks().keySet()));
    }

    @Test
    void emptyGapListsAreDroppedSoEqualStateIsEqual() {
        SourceRuntimeCheckpointMetadata withEmpty =
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, 5L))
                        .boundedSequenceGaps(Map.of(1L, List.of()))
                        .build();
        assertTrue(withEmpty.boundedSequenceGaps().isEmpty());
        assertEquals(minimal().appliedSenderWatermarks(Map.of(1L, 5L)).build(), withEmpty);
    }

    @Test
    void equalsHashCodeAndToBuilder() {
        SourceRuntimeCheckpointMetadata a =
                minimal()
                        .readerAttemptLineage(List.of(3L))
                        .appliedSenderWatermarks(Map.of(1L, 5L))
                        .boundedSequenceGaps(gaps(1L, 7L))
                        .lastBarrierCheckpointId(9)
                        .build();
        SourceRuntimeCheckpointMetadata b = a.toBuilder().build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, a.toBuilder().lane(Lane.B).build());
        assertNotEquals(a, a.toBuilder().lastBarrierCheckpointId(10).build());
        assertNotEquals(a, a.toBuilder().boundedSequenceGaps(gaps(1L, 8L)).build());
        assertFalse(a.toString().contains("[7]"), "toString prints sizes, not gap contents");
    }

    @Test
    void gapsMustBeStrictlyAboveWatermarkPlusOneAndAscending() {
        SourceRuntimeCheckpointMetadata.Builder b =
                minimal().appliedSenderWatermarks(Map.of(1L, 10L));
        assertEquals(
                List.of(12L, 13L),
                b.boundedSequenceGaps(gaps(1L, 12L, 13L)).build().boundedSequenceGaps().get(1L));
        assertRejected(b.boundedSequenceGaps(gaps(1L, 11L)), "watermark + 1");
        assertRejected(b.boundedSequenceGaps(gaps(1L, 10L)), "watermark + 1");
        assertRejected(b.boundedSequenceGaps(gaps(1L, 3L)), "watermark + 1");
        assertRejected(b.boundedSequenceGaps(gaps(1L, 14L, 13L)), "previous gap");
        assertRejected(b.boundedSequenceGaps(gaps(1L, 14L, 14L)), "previous gap");
    }

    @Test
    void gapCheckDoesNotOverflowNearLongMax() {
        long max = Long.MAX_VALUE;
        assertEquals(
                List.of(max),
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, max - 2))
                        .boundedSequenceGaps(gaps(1L, max))
                        .build()
                        .boundedSequenceGaps()
                        .get(1L));
        assertRejected(
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, max - 1))
                        .boundedSequenceGaps(gaps(1L, max)),
                "watermark + 1");
        assertRejected(
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, max))
                        .boundedSequenceGaps(gaps(1L, Long.MIN_VALUE)),
                "watermark + 1");
    }

    @Test
    void gapsNeedAWatermarkForTheirSender() {
        assertRejected(
                minimal().appliedSenderWatermarks(Map.of(1L, 0L)).boundedSequenceGaps(gaps(2L, 5L)),
                "no applied watermark");
    }

    @Test
    void collectionBoundsAreEnforced() {
        List<Long> lineage = new ArrayList<>();
        for (long i = 0; i <= SourceRuntimeCheckpointMetadata.MAX_LINEAGE; i++) {
            lineage.add(i);
        }
        assertRejected(minimal().readerAttemptLineage(lineage), "limit 64");
        minimal().readerAttemptLineage(lineage.subList(0, 64)).build();

        Map<Long, Long> watermarks = new TreeMap<>();
        for (long i = 0; i <= SourceRuntimeCheckpointMetadata.MAX_SENDERS; i++) {
            watermarks.put(i, 0L);
        }
        assertRejected(minimal().appliedSenderWatermarks(watermarks), "limit 4096");

        List<Long> senderGaps = new ArrayList<>();
        for (long i = 0; i <= SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER; i++) {
            senderGaps.add(10 + i);
        }
        assertRejected(
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, 0L))
                        .boundedSequenceGaps(Map.of(1L, senderGaps)),
                "limit 1024");
    }

    @Test
    void totalGapBoundIsEnforced() {
        int senders =
                SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS
                        / SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER;
        Map<Long, Long> watermarks = new TreeMap<>();
        Map<Long, List<Long>> gaps = new TreeMap<>();
        List<Long> full = new ArrayList<>();
        for (long i = 0; i < SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER; i++) {
            full.add(2 + i);
        }
        for (long s = 0; s < senders; s++) {
            watermarks.put(s, 0L);
            gaps.put(s, full);
        }
        minimal().appliedSenderWatermarks(watermarks).boundedSequenceGaps(gaps).build();
        watermarks.put((long) senders, 0L);
        gaps.put((long) senders, List.of(2L));
        assertRejected(
                minimal().appliedSenderWatermarks(watermarks).boundedSequenceGaps(gaps),
                "in total");
    }

    @Test
    void scalarFieldsAreValidated() {
        assertRejected(minimal().capabilityDigest(null), "required");
        assertRejected(minimal().capabilityDigest(DIGEST.substring(1)), "32 hex");
        assertRejected(minimal().capabilityDigest(DIGEST.toUpperCase()), "lower-case hex");
        assertRejected(minimal().capabilityDigest(DIGEST.replace('f', 'g')), "lower-case hex");
        assertRejected(
                SourceRuntimeCheckpointMetadata.builder().capabilityDigest(DIGEST).lane(Lane.B),
                "managedLaneVersion is required");
        assertRejected(minimal().managedLaneVersion(-1), "managedLaneVersion");
        assertRejected(minimal().noMoreSplitsGeneration(-1), "noMoreSplitsGeneration");
        assertRejected(minimal().metadataVersion(0), "metadataVersion");
        assertRejected(minimal().commandProtocolVersion(0x10000, 0), "commandProtocolMajor");
        assertRejected(minimal().commandProtocolVersion(1, -1), "commandProtocolMinor");
        assertThrows(NullPointerException.class, () -> minimal().lane(null).build());
    }

    @Test
    void nullEntriesAreRejected() {
        assertThrows(
                NullPointerException.class,
                () -> minimal().readerAttemptLineage(Arrays.asList(1L, null)).build());
        Map<Long, Long> nullWatermark = new HashMap<>();
        nullWatermark.put(1L, null);
        assertThrows(
                NullPointerException.class,
                () -> minimal().appliedSenderWatermarks(nullWatermark).build());
        assertRejected(
                minimal()
                        .appliedSenderWatermarks(Map.of(1L, 0L))
                        .boundedSequenceGaps(Map.of(1L, Arrays.asList(5L, null))),
                "null gap");
        assertThrows(
                NullPointerException.class, () -> minimal().readerAttemptLineage(null).build());
        assertEquals(Collections.emptyList(), minimal().build().readerAttemptLineage());
    }
}
