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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;
import org.apache.seatunnel.api.source.managed.serialization.FrameWriter;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;

/**
 * Versioned binary format of {@link SourceAssignmentTracker} state. Stateless; any thread.
 *
 * <p>Version 3 (written), big-endian. Fields are only ever appended in later versions:
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53544154 ("STAT")
 *      4     2  version = 3
 *      6     8  writer coordinator epoch
 *     14     8  last completed checkpoint id (-1 = none)
 *     22     4  n = number of no-more-splits subtasks, then n x int32 subtask
 *            4  p = number of unassigned splits, then p x:
 *                 4 target subtask
 *                 4 id length I, I bytes UTF-8 split id
 *                 4 split length S, S bytes serialized split
 *            4  a = number of assignments, then a x:
 *                 1 state wire code (DISPATCHED..CHECKPOINT_INCLUDED)
 *                 4 target subtask
 *                 8 epoch, 8 attempt id, 8 sender sequence, 8 command id, 8 cut id,
 *                 8 included checkpoint id, 8 dispatched at (epoch millis)
 *                 4 k = number of splits (1..), then k x (id part, split part): each split's id
 *                   and bytes as their difference from the previous split's ({@link
 *                   SplitDeltaCoding}; the first from the empty string)
 *      end-4  4  CRC-32C of every preceding byte
 * }</pre>
 *
 * <p>Version 2 (read only) wrote each split of an assignment whole: {@code k x (4 id length, id, 4
 * split length, split)}. Version 1 (read only) wrote one entry per split: after the no-more-splits
 * list, {@code m} entries of {@code (4 id length, id, 1 state, 4 subtask, 8 epoch, 8 attempt, 8
 * sequence, 8 command id, 8 cut id, 8 included checkpoint id, 4 split length, split)}. Its
 * in-flight entries are grouped into assignments by command id; their dispatch time was not
 * recorded.
 *
 * <p>Checks in this order: length, magic, version, CRC, fields, trailing bytes. A version 3
 * assignment decodes to at most {@value #MAX_ASSIGNMENT_BYTES} bytes of ids and splits, and all of
 * them to at most 64 times the input: a corrupt difference cannot make the decoder allocate without
 * bound.
 */
public final class AssignmentTrackerCodec {
    public static final int MAGIC = 0x53544154;
    public static final short VERSION = 3;
    private static final short VERSION_1 = 1;
    private static final short VERSION_2 = 2;

    /** The most bytes of ids and splits one version 3 assignment may decode to. */
    static final int MAX_ASSIGNMENT_BYTES = 64 * 1024 * 1024;

    private static final int HEADER = 4 + 2 + 8 + 8;
    private static final int PENDING_FIXED = 4 + 4 + 4;
    private static final int ASSIGNMENT_FIXED = 1 + 4 + 8 * 7 + 4;
    private static final int V1_ENTRY_FIXED = 4 + 1 + 4 + 8 * 6 + 4;

    private static final FrameFormat FORMAT =
            FrameFormat.named("tracker state")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.U16, VERSION_1, VERSION)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(HEADER + 4 + 4 + 4)
                    .build();

    private AssignmentTrackerCodec() {}

    public static byte[] encode(SourceAssignmentTracker tracker, long writerEpoch) {
        return encode(tracker, writerEpoch, a -> false).bytes;
    }

    /** A tracker state and how many assignments (and their splits) it left out. */
    static final class Encoded {
        final byte[] bytes;
        final int assignmentsLeftOut;
        final long splitsLeftOut;

        private Encoded(byte[] bytes, int assignmentsLeftOut, long splitsLeftOut) {
            this.bytes = bytes;
            this.assignmentsLeftOut = assignmentsLeftOut;
            this.splitsLeftOut = splitsLeftOut;
        }
    }

    /**
     * The tracker's state without the assignments {@code leaveOut} accepts (asked once each): those
     * a checkpoint need not carry because its readers' own state already holds them ({@link
     * AppliedBeforeBarrier}).
     */
    static Encoded encode(
            SourceAssignmentTracker tracker,
            long writerEpoch,
            Predicate<TrackedAssignment> leaveOut) {
        long size = HEADER + 4 + 4L * tracker.noMoreSplitsSubtasks().size() + 4 + 4 + 4;
        int pendingCount = 0;
        for (ArrayDeque<PendingSplit> q : tracker.pendingSplits()) {
            for (PendingSplit p : q) {
                size += PENDING_FIXED + p.idUtf8().length + p.splitBytes().length;
                pendingCount++;
            }
        }
        List<TrackedAssignment> kept = new ArrayList<>();
        int leftOut = 0;
        long splitsLeftOut = 0;
        for (TrackedAssignment a : tracker.assignments()) {
            if (leaveOut.test(a)) {
                leftOut++;
                splitsLeftOut += a.liveCount();
                continue;
            }
            size += ASSIGNMENT_FIXED + putSplits(null, a);
            kept.add(a);
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("tracker state of " + size + " bytes is too large");
        }
        FrameWriter b = FORMAT.writerOfSize(VERSION, 0, (int) size);
        b.putI64(writerEpoch).putI64(tracker.lastCompletedCheckpoint());
        b.putI32(tracker.noMoreSplitsSubtasks().size());
        for (int s : tracker.noMoreSplitsSubtasks()) {
            b.putI32(s);
        }
        b.putI32(pendingCount);
        for (ArrayDeque<PendingSplit> q : tracker.pendingSplits()) {
            for (PendingSplit p : q) {
                b.putI32(p.subtask()).putBlob(p.idUtf8()).putBlob(p.splitBytes());
            }
        }
        b.putI32(kept.size());
        for (TrackedAssignment a : kept) {
            b.putU8(a.state().wireCode()).putI32(a.subtask());
            b.putI64(a.epoch()).putI64(a.attempt()).putI64(a.sequence());
            b.putI64(a.commandId()).putI64(a.cutId()).putI64(a.includedCheckpointId());
            b.putI64(a.dispatchedAtMillis());
            b.putI32(a.liveCount());
            putSplits(b, a);
        }
        return new Encoded(b.finish(), leftOut, splitsLeftOut);
    }

    /**
     * Writes {@code a}'s live splits, each after the one before it, and returns the bytes that
     * takes; with {@code b} null, only returns them (the size pass of {@link #encode}).
     */
    private static long putSplits(FrameWriter b, TrackedAssignment a) {
        byte[] ids = a.idsBlob();
        byte[] payload = a.payload();
        long size = 0;
        int prevId = 0;
        int prevIdLen = 0;
        int prevSplit = 0;
        int prevSplitLen = 0;
        TrackedAssignment.Cursor c = a.cursor();
        while (c.next()) {
            if (a.isReleased(c.index)) {
                continue;
            }
            size += SplitDeltaCoding.put(b, ids, prevId, prevIdLen, ids, c.idOffset, c.idLength);
            size +=
                    SplitDeltaCoding.put(
                            b,
                            payload,
                            prevSplit,
                            prevSplitLen,
                            payload,
                            c.splitOffset,
                            c.splitLength);
            prevId = c.idOffset;
            prevIdLen = c.idLength;
            prevSplit = c.splitOffset;
            prevSplitLen = c.splitLength;
        }
        return size;
    }

    public static Decoded decode(byte[] bytes) throws StateFormatException {
        try {
            FrameReader in = FORMAT.open(bytes);
            in.verifyChecksum();
            long writerEpoch = in.i64();
            long lastCompleted = in.i64();
            int n = count(in);
            List<Integer> nms = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nms.add(in.i32());
            }
            List<PendingSplit> pending = new ArrayList<>();
            List<TrackedAssignment> assignments = new ArrayList<>();
            if (in.version() == VERSION_1) {
                readV1(in, pending, assignments);
            } else {
                int p = count(in);
                for (int i = 0; i < p; i++) {
                    int subtask = in.i32();
                    byte[] id = bytes(in);
                    pending.add(
                            new PendingSplit(id, SplitIdIndex.fingerprint(id), bytes(in), subtask));
                }
                int a = count(in);
                long budget = Math.min(Integer.MAX_VALUE, 64L * bytes.length);
                for (int i = 0; i < a; i++) {
                    TrackedAssignment t = readAssignment(in, in.version(), budget);
                    budget -= t.payload().length + t.idsBlob().length;
                    assignments.add(t);
                }
            }
            in.finish();
            return new Decoded(writerEpoch, lastCompleted, nms, pending, assignments);
        } catch (FrameException e) {
            throw new StateFormatException(e.getMessage());
        }
    }

    private static TrackedAssignment readAssignment(FrameReader in, int version, long budget)
            throws FrameException {
        AssignmentState state = inFlightState(in);
        int subtask = in.i32();
        long epoch = in.i64();
        long attempt = in.i64();
        long seq = in.i64();
        long cmd = in.i64();
        long cut = in.i64();
        long included = in.i64();
        long dispatchedAt = in.i64();
        int k = count(in);
        if (k < 1 || k > AssignmentPayload.MAX_SPLITS) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "an assignment of " + k + " splits");
        }
        byte[] payload;
        byte[] idsBlob;
        if (version == VERSION_2) {
            byte[][] ids = new byte[k][];
            byte[][] splits = new byte[k][];
            for (int i = 0; i < k; i++) {
                ids[i] = bytes(in);
                splits[i] = bytes(in);
            }
            payload = AssignmentPayload.encode(splits, k);
            idsBlob = TrackedAssignment.encodeIds(ids, k);
        } else {
            SplitDeltaCoding.Bytes ids = new SplitDeltaCoding.Bytes(Math.min(16 * k, 1 << 20));
            SplitDeltaCoding.Bytes splits = new SplitDeltaCoding.Bytes(Math.min(24 * k, 1 << 20));
            readDeltaSplits(in, k, Math.min(budget, MAX_ASSIGNMENT_BYTES), ids, splits);
            payload = splits.toArray();
            idsBlob = ids.toArray();
        }
        TrackedAssignment a =
                new TrackedAssignment(
                        cmd,
                        subtask,
                        attempt,
                        epoch,
                        seq,
                        cut,
                        dispatchedAt,
                        payload,
                        idsBlob,
                        k,
                        state);
        a.includedAt(included);
        return a;
    }

    /**
     * Version 3: decodes {@code k} splits into an ids blob and a command payload, the forms a
     * {@link TrackedAssignment} keeps, each value copied from the previous one's bytes where the
     * two share them.
     */
    private static void readDeltaSplits(
            FrameReader in,
            int k,
            long budget,
            SplitDeltaCoding.Bytes ids,
            SplitDeltaCoding.Bytes splits)
            throws FrameException {
        splits.putInt(splits.grow(4), k);
        long left = budget;
        int prevId = 0;
        int prevIdLen = 0;
        int prevSplit = 0;
        int prevSplitLen = 0;
        for (int i = 0; i < k; i++) {
            int idAt = ids.grow(4);
            int idLen = SplitDeltaCoding.read(in, ids, prevId, prevIdLen, left);
            ids.putInt(idAt, idLen);
            left -= idLen;
            int splitAt = splits.grow(4);
            int splitLen = SplitDeltaCoding.read(in, splits, prevSplit, prevSplitLen, left);
            splits.putInt(splitAt, splitLen);
            left -= splitLen;
            prevId = idAt + 4;
            prevIdLen = idLen;
            prevSplit = splitAt + 4;
            prevSplitLen = splitLen;
        }
    }

    /** Version 1: one entry per split; in-flight entries of one command become one assignment. */
    private static void readV1(
            FrameReader in, List<PendingSplit> pending, List<TrackedAssignment> out)
            throws FrameException {
        int m = count(in);
        Map<Long, List<Object[]>> byCommand = new LinkedHashMap<>();
        for (int i = 0; i < m; i++) {
            in.require(V1_ENTRY_FIXED, "entry " + i);
            byte[] id = bytes(in);
            AssignmentState state = AssignmentState.fromWireCode(in.u8());
            if (state == null || state == AssignmentState.GC_ELIGIBLE) {
                throw in.refuse(FrameRefusal.BAD_FIELD, "an unknown entry state");
            }
            int subtask = in.i32();
            long[] f = {in.i64(), in.i64(), in.i64(), in.i64(), in.i64(), in.i64()};
            byte[] split = bytes(in);
            if (state == AssignmentState.UNASSIGNED) {
                pending.add(new PendingSplit(id, SplitIdIndex.fingerprint(id), split, subtask));
            } else {
                byCommand
                        .computeIfAbsent(f[3], k -> new ArrayList<>())
                        .add(new Object[] {id, split, state, subtask, f});
            }
        }
        for (List<Object[]> es : byCommand.values()) {
            Object[] first = es.get(0);
            long[] f = (long[]) first[4];
            AssignmentState state = (AssignmentState) first[2];
            byte[][] ids = new byte[es.size()][];
            byte[][] splits = new byte[es.size()][];
            for (int i = 0; i < es.size(); i++) {
                Object[] e = es.get(i);
                ids[i] = (byte[]) e[0];
                splits[i] = (byte[]) e[1];
                // Splits of one command move together; should they differ, the least advanced
                // state is the one that claims least.
                AssignmentState s = (AssignmentState) e[2];
                if (s.wireCode() < state.wireCode()) {
                    state = s;
                }
            }
            TrackedAssignment a =
                    new TrackedAssignment(
                            f[3],
                            (Integer) first[3],
                            f[1],
                            f[0],
                            f[2],
                            f[4],
                            AssignmentEntry.NONE,
                            AssignmentPayload.encode(splits, splits.length),
                            TrackedAssignment.encodeIds(ids, ids.length),
                            ids.length,
                            state);
            a.includedAt(f[5]);
            out.add(a);
        }
    }

    private static AssignmentState inFlightState(FrameReader in) throws FrameException {
        AssignmentState state = AssignmentState.fromWireCode(in.u8());
        if (state == null
                || state == AssignmentState.UNASSIGNED
                || state == AssignmentState.GC_ELIGIBLE) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "an unknown assignment state");
        }
        return state;
    }

    private static byte[] bytes(FrameReader in) throws FrameException {
        return in.bytes(count(in));
    }

    /** A count or length: never negative nor beyond the whole input. */
    private static int count(FrameReader in) throws FrameException {
        int n = in.i32();
        if (n < 0 || n > in.length()) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "a bad length field " + n);
        }
        return n;
    }

    /** Decoded tracker state: fresh objects for the new tracker. */
    public static final class Decoded {
        private final long writerEpoch;
        private final long lastCompletedCheckpoint;
        private final List<Integer> noMoreSplits;
        private final List<PendingSplit> pending;
        private final List<TrackedAssignment> assignments;

        Decoded(
                long writerEpoch,
                long lastCompleted,
                List<Integer> nms,
                List<PendingSplit> pending,
                List<TrackedAssignment> assignments) {
            this.writerEpoch = writerEpoch;
            this.lastCompletedCheckpoint = lastCompleted;
            this.noMoreSplits = Collections.unmodifiableList(nms);
            this.pending = Collections.unmodifiableList(pending);
            this.assignments = Collections.unmodifiableList(assignments);
        }

        public long writerEpoch() {
            return writerEpoch;
        }

        public long lastCompletedCheckpoint() {
            return lastCompletedCheckpoint;
        }

        public List<Integer> noMoreSplits() {
            return noMoreSplits;
        }

        List<PendingSplit> pending() {
            return pending;
        }

        List<TrackedAssignment> assignments() {
            return assignments;
        }

        /** Every split as decoded (unassigned first, then by assignment): copies, for tests. */
        public List<AssignmentEntry> entries() {
            List<AssignmentEntry> out = new ArrayList<>();
            for (PendingSplit p : pending) {
                out.add(p.view());
            }
            for (TrackedAssignment a : assignments) {
                TrackedAssignment.Cursor c = a.cursor();
                while (c.next()) {
                    out.add(AssignmentEntry.of(a, c, a.state()));
                }
            }
            return out;
        }
    }
}
