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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes of the tracker state, version 2 (written) and version 1 (still read). The expected
 * hex was computed independently with python3 ({@code struct.pack} big-endian plus a bitwise
 * CRC-32C), not by this codec.
 */
class AssignmentTrackerCodecTest {
    /**
     * Version 2: no-more-splits for subtask 0, one unassigned split "b" = {9} for subtask 0, one
     * DISPATCHED assignment (subtask 1, epoch 2, attempt 3, sequence 4, command 5, cut 6, not
     * included, dispatched at 1700000000000) carrying split "a" = {1, 2}.
     */
    static final String TRACKER_V2 =
            "5354415400020000000000000002ffffffffffffffff000000010000000000000001000000000000"
                    + "000162000000010900000001020000000100000000000000020000000000000003000000"
                    + "000000000400000000000000050000000000000006ffffffffffffffff0000018bcfe568"
                    + "0000000001000000016100000002010221210295";

    /** Version 1: the same assignment as one per-split entry, without "b" or a dispatch time. */
    static final String TRACKER_V1 =
            "5354415400010000000000000002ffffffffffffffff00000001000000000000000100000001610200"
                    + "00000100000000000000020000000000000003000000000000000400000000000000050000"
                    + "000000000006ffffffffffffffff000000020102afef20a4";

    /** {@link #TRACKER_V1} restored and written again: version 2, dispatch time unknown (-1). */
    static final String TRACKER_V1_AS_V2 =
            "5354415400020000000000000002ffffffffffffffff000000010000000000000000000000010200"
                    + "00000100000000000000020000000000000003000000000000000400000000000000050000"
                    + "000000000006ffffffffffffffffffffffffffffffff000000010000000161000000020102"
                    + "8f94d3c1";

    static final String SNAPSHOT_V1 =
            "5354435300010000000000000009000000000000000200000001aa00000066"
                    + TRACKER_V1
                    + "c1daae96";

    /** Version 2 adds the reader parallelism (3 here); computed from the v1 bytes in Python. */
    static final String SNAPSHOT_V2 =
            "535443530002000000000000000900000000000000020000000300000001aa00000066"
                    + TRACKER_V1
                    + "7f5376fb";

    private static SourceAssignmentTracker tracker() {
        return new SourceAssignmentTracker(10, 1 << 20, true, new CoordinatorMetrics());
    }

    private static SourceAssignmentTracker oneAssignmentOnePending() {
        SourceAssignmentTracker t = tracker();
        t.addPending("a", new byte[] {1, 2}, 1);
        t.dispatched(1, 1, 2, 3, 4, 5, 6, 1_700_000_000_000L);
        t.addPending("b", new byte[] {9}, 0);
        t.markNoMoreSplits(0);
        return t;
    }

    @Test
    void trackerEncodesToTheGoldenBytes() {
        assertEquals(
                TRACKER_V2,
                HexFormat.of()
                        .formatHex(AssignmentTrackerCodec.encode(oneAssignmentOnePending(), 2)));
    }

    @Test
    void snapshotBlobEncodesToTheGoldenBytes() {
        byte[] tracker = HexFormat.of().parseHex(TRACKER_V1);
        byte[] blob = CoordinatorSnapshotCodec.encode(9, 2, 3, new byte[] {(byte) 0xAA}, tracker);
        assertEquals(SNAPSHOT_V2, HexFormat.of().formatHex(blob));
        assertEquals(3, decode(SNAPSHOT_V2).parallelism());
    }

    @Test
    void version2GoldenBytesDecodeRestoreAndEncodeAgain() throws Exception {
        AssignmentTrackerCodec.Decoded d =
                AssignmentTrackerCodec.decode(HexFormat.of().parseHex(TRACKER_V2));
        assertEquals(2, d.writerEpoch());
        assertEquals(java.util.List.of(0), d.noMoreSplits());
        AssignmentEntry b = d.entries().get(0);
        assertEquals("b", b.splitId());
        assertEquals(AssignmentState.UNASSIGNED, b.state());
        assertEquals(0, b.targetSubtask());
        assertArrayEquals(new byte[] {9}, b.splitBytes());
        assertEquals(1, d.assignments().size());
        assertEquals(1_700_000_000_000L, d.assignments().get(0).dispatchedAtMillis());
        SourceAssignmentTracker t = tracker();
        t.restore(d.pending(), d.assignments(), d.lastCompletedCheckpoint(), d.noMoreSplits());
        assertEquals(1, t.inFlightCount());
        assertEquals(1, t.pendingCount());
        assertEquals(AssignmentState.DISPATCHED, t.bySplit("a").state());
        assertEquals(TRACKER_V2, HexFormat.of().formatHex(AssignmentTrackerCodec.encode(t, 2)));
    }

    @Test
    void version1GoldenBytesDecodeAndRestore() throws Exception {
        AssignmentTrackerCodec.Decoded d =
                AssignmentTrackerCodec.decode(HexFormat.of().parseHex(TRACKER_V1));
        assertEquals(2, d.writerEpoch());
        assertEquals(-1, d.lastCompletedCheckpoint());
        assertEquals(java.util.List.of(0), d.noMoreSplits());
        AssignmentEntry e = d.entries().get(0);
        assertEquals("a", e.splitId());
        assertEquals(AssignmentState.DISPATCHED, e.state());
        assertEquals(1, e.targetSubtask());
        assertEquals(2, e.epoch());
        assertEquals(3, e.attemptId());
        assertEquals(4, e.senderSequence());
        assertEquals(5, e.commandId());
        assertEquals(6, e.cutId());
        assertArrayEquals(new byte[] {1, 2}, e.splitBytes());
        SourceAssignmentTracker t = tracker();
        t.restore(d.pending(), d.assignments(), d.lastCompletedCheckpoint(), d.noMoreSplits());
        assertEquals(1, t.inFlightCount());
        assertEquals(
                TRACKER_V1_AS_V2, HexFormat.of().formatHex(AssignmentTrackerCodec.encode(t, 2)));
        CoordinatorSnapshotCodec.Decoded s =
                CoordinatorSnapshotCodec.decode(HexFormat.of().parseHex(SNAPSHOT_V1));
        assertEquals(9, s.checkpointId());
        assertEquals(2, s.epoch());
        // Version 1 blobs stay readable; they did not record the parallelism.
        assertEquals(CoordinatorSnapshotCodec.UNKNOWN_PARALLELISM, s.parallelism());
        assertArrayEquals(new byte[] {(byte) 0xAA}, s.enumeratorState());
    }

    @Test
    void aSplitHandedBackAloneIsNotWrittenWithItsAssignment() throws Exception {
        SourceAssignmentTracker t = tracker();
        t.addPending("a", new byte[] {1}, 0);
        t.addPending("b", new byte[] {2}, 0);
        t.dispatched(0, 2, 1, 1, 1, 1, 0, 0);
        t.removeReturned("a");
        AssignmentTrackerCodec.Decoded d =
                AssignmentTrackerCodec.decode(AssignmentTrackerCodec.encode(t, 1));
        assertEquals(1, d.entries().size());
        assertEquals("b", d.entries().get(0).splitId());
    }

    private static CoordinatorSnapshotCodec.Decoded decode(String hex) {
        try {
            return CoordinatorSnapshotCodec.decode(HexFormat.of().parseHex(hex));
        } catch (StateFormatException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void corruptionIsTheCodecsOwnError() {
        byte[] good = HexFormat.of().parseHex(TRACKER_V2);
        byte[] flipped = good.clone();
        flipped[30] ^= 1;
        assertTrue(
                assertThrows(
                                StateFormatException.class,
                                () -> AssignmentTrackerCodec.decode(flipped))
                        .getMessage()
                        .contains("CRC"));
        byte[] magic = good.clone();
        magic[0] = 0;
        assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(magic));
        byte[] version = good.clone();
        version[5] = 3;
        assertTrue(
                assertThrows(
                                StateFormatException.class,
                                () -> AssignmentTrackerCodec.decode(version))
                        .getMessage()
                        .contains("version"));
        for (int len = 0; len < good.length; len += 7) {
            byte[] cut = java.util.Arrays.copyOf(good, len);
            assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(cut));
        }
        // Well sealed but not a tracker: an assignment in UNASSIGNED, an assignment of no split.
        byte[] unassigned = good.clone();
        unassigned[52] = (byte) AssignmentState.UNASSIGNED.wireCode();
        assertTrue(
                assertThrows(
                                StateFormatException.class,
                                () -> AssignmentTrackerCodec.decode(reseal(unassigned)))
                        .getMessage()
                        .contains("state"));
        byte[] empty = good.clone();
        java.nio.ByteBuffer.wrap(empty).putInt(113, 0);
        assertTrue(
                assertThrows(
                                StateFormatException.class,
                                () -> AssignmentTrackerCodec.decode(reseal(empty)))
                        .getMessage()
                        .contains("0 splits"));
        byte[] blob = HexFormat.of().parseHex(SNAPSHOT_V1);
        blob[blob.length - 1] ^= 1;
        assertThrows(StateFormatException.class, () -> CoordinatorSnapshotCodec.decode(blob));
    }

    private static byte[] reseal(byte[] b) {
        java.nio.ByteBuffer.wrap(b)
                .putInt(
                        b.length - 4,
                        org.apache.seatunnel.engine.managed.source.protocol.Crc32c.of(
                                b, 0, b.length - 4));
        return b;
    }
}
