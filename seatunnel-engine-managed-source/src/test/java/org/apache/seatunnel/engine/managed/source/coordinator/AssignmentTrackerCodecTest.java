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
 * Golden bytes of the tracker state, version 3 (written), versions 2 and 1 (still read). The
 * expected hex was computed independently with python3 ({@code struct.pack} big-endian, a LEB128
 * varint, the shared prefix and suffix of each value with the one before, and a bitwise CRC-32C),
 * not by this codec.
 */
class AssignmentTrackerCodecTest {
    /** Version 3 of {@link #TRACKER_V2}: the one split as its difference from the empty string. */
    static final String TRACKER_V3 =
            "5354415400030000000000000002ffffffffffffffff0000000100000000000000010000"
                    + "000000000001620000000109000000010200000001000000000000000200000000000000"
                    + "03000000000000000400000000000000050000000000000006ffffffffffffffff000001"
                    + "8bcfe5680000000001000001610000020102e6258dcf";

    /**
     * Version 3, writer epoch 7, one DISPATCHED assignment (subtask 1, epoch 2, attempt 3, sequence
     * 4, command 5, cut 6, dispatched at 1700000000000) of "fake-10" = {1, 0, 10, 0, 0}, "fake-11"
     * = {1, 0, 11, 0, 0} and "fake-111" = {1, 0, 0}: the second id shares 6 bytes at the start, the
     * third all 7 of the second's; the second split shares 2 bytes at the start and 2 at the end,
     * the third 2 and 1.
     */
    static final String TRACKER_V3_NEIGHBOURS =
            "5354415400030000000000000007ffffffffffffffff0000000000000000000000010200"
                    + "000001000000000000000200000000000000030000000000000004000000000000000500"
                    + "00000000000006ffffffffffffffff0000018bcfe568000000000300000766616b652d31"
                    + "3000000501000a0000060001310202010b07000131020100390d4be4";

    /** {@link #TRACKER_V1} restored and written again: version 3, dispatch time unknown (-1). */
    static final String TRACKER_V1_AS_V3 =
            "5354415400030000000000000002ffffffffffffffff0000000100000000000000000000"
                    + "000102000000010000000000000002000000000000000300000000000000040000000000"
                    + "0000050000000000000006ffffffffffffffffffffffffffffffff000000010000016100"
                    + "000201023d72beee";

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
                TRACKER_V3,
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
    void version2GoldenBytesDecodeRestoreAndEncodeAsVersion3() throws Exception {
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
        assertEquals(TRACKER_V3, HexFormat.of().formatHex(AssignmentTrackerCodec.encode(t, 2)));
        // Version 3 reads back to the same tracker.
        AssignmentTrackerCodec.Decoded again =
                AssignmentTrackerCodec.decode(HexFormat.of().parseHex(TRACKER_V3));
        assertEquals(entries(d), entries(again));
    }

    @Test
    void neighbouringSplitsAreWrittenAsTheirDifferences() throws Exception {
        SourceAssignmentTracker t = tracker();
        t.addPending("fake-10", new byte[] {1, 0, 10, 0, 0}, 1);
        t.addPending("fake-11", new byte[] {1, 0, 11, 0, 0}, 1);
        t.addPending("fake-111", new byte[] {1, 0, 0}, 1);
        t.dispatched(1, 3, 2, 3, 4, 5, 6, 1_700_000_000_000L);
        assertEquals(
                TRACKER_V3_NEIGHBOURS,
                HexFormat.of().formatHex(AssignmentTrackerCodec.encode(t, 7)));
        AssignmentTrackerCodec.Decoded d =
                AssignmentTrackerCodec.decode(HexFormat.of().parseHex(TRACKER_V3_NEIGHBOURS));
        assertEquals(
                java.util.List.of(
                        "fake-10=[1, 0, 10, 0, 0]",
                        "fake-11=[1, 0, 11, 0, 0]",
                        "fake-111=[1, 0, 0]"),
                entries(d));
        assertEquals(AssignmentState.DISPATCHED, d.entries().get(2).state());
        assertEquals(5, d.entries().get(2).commandId());
    }

    /**
     * Random assignments of neighbouring and unrelated splits, some handed back, written and read
     * back: the same live splits in the same order, and the same bytes when written again. Replay
     * with {@code -Dtracker.codec.seed}.
     */
    @Test
    void randomAssignmentsReadBackAsTheyWereWritten() throws Exception {
        long seed = Long.getLong("tracker.codec.seed", System.nanoTime());
        java.util.Random rnd = new java.util.Random(seed);
        SourceAssignmentTracker t = new SourceAssignmentTracker(10, 1 << 26, true, metrics());
        java.util.List<String> expected = new java.util.ArrayList<>();
        java.util.Set<String> used = new java.util.HashSet<>();
        for (int a = 0; a < 40; a++) {
            int subtask = rnd.nextInt(4);
            int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 300);
            java.util.List<String> ids = new java.util.ArrayList<>();
            byte[] prev = new byte[0];
            for (int i = 0; i < n; i++) {
                String id;
                do {
                    id = randomId(rnd);
                } while (!used.add(id));
                byte[] split = neighbour(rnd, prev);
                t.addPending(id, split, subtask);
                ids.add(id + "=" + java.util.Arrays.toString(split));
                prev = split;
            }
            t.dispatched(subtask, n, 1, 2, a, 100 + a, 0, 0);
            for (String e : ids) {
                String id = e.substring(0, e.indexOf('='));
                if (n > 1 && rnd.nextInt(5) == 0) {
                    t.removeReturned(id);
                } else {
                    expected.add(e);
                }
            }
        }
        byte[] written = AssignmentTrackerCodec.encode(t, 3);
        AssignmentTrackerCodec.Decoded d = AssignmentTrackerCodec.decode(written);
        java.util.List<String> read = entries(d);
        java.util.Collections.sort(read);
        java.util.Collections.sort(expected);
        assertEquals(expected.size(), read.size(), "seed " + seed);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), read.get(i), "seed " + seed + ", split " + i);
        }
        SourceAssignmentTracker back = new SourceAssignmentTracker(10, 1 << 26, true, metrics());
        back.restore(d.pending(), d.assignments(), d.lastCompletedCheckpoint(), d.noMoreSplits());
        assertArrayEquals(written, AssignmentTrackerCodec.encode(back, 3), "seed " + seed);
    }

    private static CoordinatorMetrics metrics() {
        return new CoordinatorMetrics();
    }

    /** Ids that often share a start ("split-" and digits) and sometimes an end. */
    private static String randomId(java.util.Random rnd) {
        switch (rnd.nextInt(3)) {
            case 0:
                return "split-" + rnd.nextInt(100_000);
            case 1:
                return "t/" + rnd.nextInt(50) + "/part-" + rnd.nextInt(1000) + ".parquet";
            default:
                byte[] b = new byte[rnd.nextInt(12)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) ('a' + rnd.nextInt(26));
                }
                return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    /** Bytes that keep a random share of {@code prev}'s start and end, or none of it. */
    private static byte[] neighbour(java.util.Random rnd, byte[] prev) {
        int keepStart = prev.length == 0 ? 0 : rnd.nextInt(prev.length + 1);
        int keepEnd = rnd.nextInt(prev.length - keepStart + 1);
        byte[] middle = new byte[rnd.nextInt(rnd.nextBoolean() ? 3 : 40)];
        rnd.nextBytes(middle);
        byte[] b = new byte[keepStart + middle.length + keepEnd];
        System.arraycopy(prev, 0, b, 0, keepStart);
        System.arraycopy(middle, 0, b, keepStart, middle.length);
        System.arraycopy(prev, prev.length - keepEnd, b, keepStart + middle.length, keepEnd);
        return b;
    }

    /** Each decoded split as {@code id=[bytes]}, in order. */
    private static java.util.List<String> entries(AssignmentTrackerCodec.Decoded d) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (AssignmentEntry e : d.entries()) {
            out.add(e.splitId() + "=" + java.util.Arrays.toString(e.splitBytes()));
        }
        return out;
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
                TRACKER_V1_AS_V3, HexFormat.of().formatHex(AssignmentTrackerCodec.encode(t, 2)));
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
        assertTrue(refusal(flipped).contains("CRC"));
        byte[] magic = good.clone();
        magic[0] = 0;
        assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(magic));
        byte[] version = good.clone();
        version[5] = 4;
        assertTrue(refusal(version).contains("version"));
        for (int len = 0; len < good.length; len += 7) {
            byte[] cut = java.util.Arrays.copyOf(good, len);
            assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(cut));
        }
        // Well sealed but not a tracker: an assignment in UNASSIGNED, an assignment of no split.
        byte[] unassigned = good.clone();
        unassigned[52] = (byte) AssignmentState.UNASSIGNED.wireCode();
        assertTrue(refusal(reseal(unassigned)).contains("state"));
        byte[] empty = good.clone();
        java.nio.ByteBuffer.wrap(empty).putInt(113, 0);
        assertTrue(refusal(reseal(empty)).contains("0 splits"));
        byte[] blob = HexFormat.of().parseHex(SNAPSHOT_V1);
        blob[blob.length - 1] ^= 1;
        assertThrows(StateFormatException.class, () -> CoordinatorSnapshotCodec.decode(blob));
    }

    @Test
    void aCorruptDifferenceIsRefusedWithItsReason() {
        byte[] good = HexFormat.of().parseHex(TRACKER_V3_NEIGHBOURS);
        for (int len = 0; len < good.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(good, len);
            assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(cut));
        }
        int first = HexFormat.of().formatHex(good).indexOf("00000766616b65") / 2;
        // The second id claims 8 shared bytes of a 7-byte first id.
        byte[] beyond = good.clone();
        int second = first + 3 + 7 + 3 + 5;
        assertEquals(6, beyond[second]);
        beyond[second] = 8;
        assertTrue(refusal(reseal(beyond)).contains("shares 8 + 0 bytes with a value of 7"));
        byte[] endless = good.clone();
        java.util.Arrays.fill(endless, first, first + 5, (byte) 0x80);
        assertTrue(refusal(reseal(endless)).contains("varint longer than 5 bytes"));
    }

    @Test
    void differencesThatGrowWithoutBoundAreRefusedBeforeTheyAreAllocated() {
        // 2,048 ids, each the previous one plus a byte: 2 MB of ids from 12 KB of input.
        int k = 2048;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(200 + 8 * k);
        b.putInt(AssignmentTrackerCodec.MAGIC).putShort(AssignmentTrackerCodec.VERSION);
        b.putLong(1).putLong(-1).putInt(0).putInt(0).putInt(1);
        b.put((byte) AssignmentState.DISPATCHED.wireCode()).putInt(0);
        for (int i = 0; i < 7; i++) {
            b.putLong(1);
        }
        b.putInt(k);
        for (int i = 0; i < k; i++) {
            int shared = i;
            while ((shared & ~0x7F) != 0) {
                b.put((byte) ((shared & 0x7F) | 0x80));
                shared >>>= 7;
            }
            b.put((byte) shared).put((byte) 0).put((byte) 1).put((byte) 'x');
            b.put((byte) 0).put((byte) 0).put((byte) 0);
        }
        b.putInt(0);
        byte[] blob = java.util.Arrays.copyOf(b.array(), b.position());
        String message = refusal(reseal(blob));
        assertTrue(message.contains("beyond the"), message);
    }

    /** The message of the refusal {@code blob} must meet. */
    private static String refusal(byte[] blob) {
        return assertThrows(StateFormatException.class, () -> AssignmentTrackerCodec.decode(blob))
                .getMessage();
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
