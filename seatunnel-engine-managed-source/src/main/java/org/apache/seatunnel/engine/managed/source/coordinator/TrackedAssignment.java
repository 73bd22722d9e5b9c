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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;

/**
 * One tracked assignment (STIP-31 "Split assignment ownership"): the splits of one {@code
 * SPLIT_ASSIGNMENT} command to one reader attempt, under one command id and one sender sequence,
 * from dispatch until a completed checkpoint proves them. One admission answer, one apply watermark
 * or one inclusion proof covers all its splits, so the life cycle ({@link AssignmentState}) is the
 * assignment's; a split handed back on its own ({@code addSplitsBack} of a restored reader state)
 * is released from it, and the assignment leaves the tracker once none of its splits is left.
 *
 * <p>The splits are kept compact, as the command's own payload (shared with the envelope, never
 * written after construction) and one array of their UTF-8 ids:
 *
 * <pre>{@code
 * payload  AssignmentPayload version 2: u32 n, then n x (u32 length L, L split bytes)
 * ids      n x (u32 length I, I bytes of the split id in UTF-8), in payload order
 * }</pre>
 *
 * <p>Threading: owned by the coordinator loop through its {@link SourceAssignmentTracker}; never
 * published to another thread except its payload, which is immutable.
 */
final class TrackedAssignment extends SplitIdIndex.Holder {
    /**
     * Heap bytes of one assignment besides its splits: this object, its arrays' headers, its
     * entries in the tracker's command map, in-flight set and unapplied queue.
     */
    static final int OVERHEAD_BYTES = 256;

    /** Heap bytes per split besides its place in the two arrays: its index slots. */
    static final int SPLIT_OVERHEAD_BYTES = 2 * SplitIdIndex.SLOT_BYTES;

    private final long commandId;
    private final int subtask;
    private final long attempt;
    private final long epoch;
    private final long sequence;
    private final long cutId;
    private final long dispatchedAtMillis;
    private final byte[] payload;
    private final byte[] ids;
    private final int splits;
    private final long estimatedBytes;

    private AssignmentState state;
    private long includedCheckpointId = AssignmentEntry.NONE;
    // null until a split leaves on its own: then the splits that left
    private BitSet released;
    private int live;

    TrackedAssignment(
            long commandId,
            int subtask,
            long attempt,
            long epoch,
            long sequence,
            long cutId,
            long dispatchedAtMillis,
            byte[] payload,
            byte[] ids,
            int splits,
            AssignmentState state) {
        if (state == AssignmentState.UNASSIGNED || state == AssignmentState.GC_ELIGIBLE) {
            throw new IllegalArgumentException("an assignment is tracked only while in flight");
        }
        this.commandId = commandId;
        this.subtask = subtask;
        this.attempt = attempt;
        this.epoch = epoch;
        this.sequence = sequence;
        this.cutId = cutId;
        this.dispatchedAtMillis = dispatchedAtMillis;
        this.payload = payload;
        this.ids = ids;
        this.splits = splits;
        this.live = splits;
        this.state = state;
        this.estimatedBytes =
                OVERHEAD_BYTES + (long) splits * SPLIT_OVERHEAD_BYTES + payload.length + ids.length;
    }

    /** The ids blob of {@code n} splits, in order. */
    static byte[] encodeIds(byte[][] idsUtf8, int n) {
        int size = 0;
        for (int i = 0; i < n; i++) {
            size += 4 + idsUtf8[i].length;
        }
        byte[] b = new byte[size];
        int at = 0;
        for (int i = 0; i < n; i++) {
            putInt(b, at, idsUtf8[i].length);
            System.arraycopy(idsUtf8[i], 0, b, at + 4, idsUtf8[i].length);
            at += 4 + idsUtf8[i].length;
        }
        return b;
    }

    /** What the tracker would count for an assignment of these sizes. */
    static long estimate(int splits, long idBytes, long splitBytes) {
        return OVERHEAD_BYTES
                + (long) splits * SPLIT_OVERHEAD_BYTES
                + AssignmentPayload.encodedSize(splits, splitBytes)
                + 4L * splits
                + idBytes;
    }

    /** The only place an assignment's state changes; the gate is {@link AssignmentState}'s. */
    void moveTo(AssignmentState next) {
        AssignmentState.checkTransition(state, next);
        state = next;
    }

    void includedAt(long checkpointId) {
        includedCheckpointId = checkpointId;
    }

    @Override
    public boolean holds(byte[] idUtf8) {
        return indexOf(idUtf8) >= 0;
    }

    /** The position of the live split with exactly this id, or -1. */
    int indexOf(byte[] idUtf8) {
        Cursor c = cursor();
        while (c.next()) {
            if (c.idLength == idUtf8.length
                    && !isReleased(c.index)
                    && rangeEquals(ids, c.idOffset, idUtf8)) {
                return c.index;
            }
        }
        return -1;
    }

    /** A DISPATCHED assignment of {@code taken}, in order, with its command's identity. */
    static TrackedAssignment dispatch(
            PendingSplit[] taken,
            int subtask,
            long epoch,
            long attempt,
            long seq,
            long cmd,
            long cut,
            long now) {
        int n = taken.length;
        byte[][] splits = new byte[n][];
        byte[][] ids = new byte[n][];
        for (int i = 0; i < n; i++) {
            splits[i] = taken[i].splitBytes();
            ids[i] = taken[i].idUtf8();
        }
        return new TrackedAssignment(
                cmd,
                subtask,
                attempt,
                epoch,
                seq,
                cut,
                now,
                AssignmentPayload.encode(splits, n),
                encodeIds(ids, n),
                n,
                AssignmentState.DISPATCHED);
    }

    /** Split {@code i} as an entry in {@code state}: a copy. */
    AssignmentEntry entry(int i, AssignmentState state) {
        Cursor c = cursor();
        while (c.next() && c.index < i) {
            // walks to split i
        }
        return AssignmentEntry.of(this, c, state);
    }

    /** Releases split {@code i} (it left on its own); returns how many are still live. */
    int release(int i) {
        if (released == null) {
            released = new BitSet(splits);
        }
        if (!released.get(i)) {
            released.set(i);
            live--;
        }
        return live;
    }

    boolean isReleased(int i) {
        return released != null && released.get(i);
    }

    /** Walks the splits in order (released ones included: check {@link #isReleased}). */
    Cursor cursor() {
        return new Cursor();
    }

    long commandId() {
        return commandId;
    }

    int subtask() {
        return subtask;
    }

    long attempt() {
        return attempt;
    }

    long epoch() {
        return epoch;
    }

    long sequence() {
        return sequence;
    }

    long cutId() {
        return cutId;
    }

    long dispatchedAtMillis() {
        return dispatchedAtMillis;
    }

    AssignmentState state() {
        return state;
    }

    long includedCheckpointId() {
        return includedCheckpointId;
    }

    /** The ids blob: each split's u32 id length and id, in order (shared, never to be written). */
    byte[] idsBlob() {
        return ids;
    }

    /** The command payload (shared, never to be written). */
    byte[] payload() {
        return payload;
    }

    int splitCount() {
        return splits;
    }

    int liveCount() {
        return live;
    }

    long estimatedBytes() {
        return estimatedBytes;
    }

    /** Ids and sizes only; split ids are user data and never logged by this package. */
    @Override
    public String toString() {
        return "TrackedAssignment{"
                + state
                + ", subtask="
                + subtask
                + ", epoch="
                + epoch
                + ", attempt="
                + attempt
                + ", seq="
                + sequence
                + ", cmd="
                + commandId
                + ", cut="
                + cutId
                + ", included="
                + includedCheckpointId
                + ", splits="
                + live
                + "/"
                + splits
                + '}';
    }

    private static boolean rangeEquals(byte[] a, int from, byte[] b) {
        for (int i = 0; i < b.length; i++) {
            if (a[from + i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24
                | (b[at + 1] & 0xff) << 16
                | (b[at + 2] & 0xff) << 8
                | (b[at + 3] & 0xff);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    /** A position in an assignment's splits: offsets of the current id and split bytes. */
    final class Cursor {
        int index = -1;
        int idOffset;
        int idLength;
        int splitOffset;
        int splitLength;
        private int nextId;
        private int nextSplit = 4;

        /** Moves to the next split; false after the last. */
        boolean next() {
            if (index + 1 >= splits) {
                return false;
            }
            index++;
            idLength = getInt(ids, nextId);
            idOffset = nextId + 4;
            nextId = idOffset + idLength;
            splitLength = getInt(payload, nextSplit);
            splitOffset = nextSplit + 4;
            nextSplit = splitOffset + splitLength;
            return true;
        }

        long fingerprint() {
            return SplitIdIndex.fingerprint(ids, idOffset, idLength);
        }

        byte[] idUtf8() {
            return Arrays.copyOfRange(ids, idOffset, idOffset + idLength);
        }

        String splitId() {
            return new String(ids, idOffset, idLength, StandardCharsets.UTF_8);
        }

        byte[] splitBytes() {
            return Arrays.copyOfRange(payload, splitOffset, splitOffset + splitLength);
        }
    }
}
