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

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.engine.managed.source.protocol.Crc32c;

/**
 * Versioned binary format of {@link SourceAssignmentTracker} state. Stateless; any thread.
 *
 * <p>Version 1, big-endian. Fields are only ever appended in later versions:
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53544154 ("STAT")
 *      4     2  version = 1
 *      6     8  writer coordinator epoch
 *     14     8  last completed checkpoint id (-1 = none)
 *     22     4  n = number of no-more-splits subtasks, then n x int32 subtask
 *            4  m = number of entries, then m x entry:
 *                 4 id length L, L bytes UTF-8 split id
 *                 1 state wire code (UNASSIGNED..CHECKPOINT_INCLUDED)
 *                 4 target subtask
 *                 8 epoch, 8 attempt id, 8 sender sequence, 8 command id, 8 cut id,
 *                 8 included checkpoint id
 *                 4 split length S, S bytes serialized split
 *      end-4  4  CRC-32C of every preceding byte
 * }</pre>
 */
public final class AssignmentTrackerCodec {
    public static final int MAGIC = 0x53544154;
    public static final short VERSION = 1;
    private static final int HEADER = 4 + 2 + 8 + 8;
    private static final int ENTRY_FIXED = 4 + 1 + 4 + 8 * 6 + 4;

    private AssignmentTrackerCodec() {}

    public static byte[] encode(SourceAssignmentTracker tracker, long writerEpoch) {
        List<byte[]> ids = new ArrayList<>(tracker.size());
        int size = HEADER + 4 + 4 * tracker.noMoreSplitsSubtasks().size() + 4 + 4;
        for (AssignmentEntry e : tracker.entries()) {
            byte[] id = e.splitId().getBytes(StandardCharsets.UTF_8);
            ids.add(id);
            size += ENTRY_FIXED + id.length + e.splitLength();
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).putShort(VERSION).putLong(writerEpoch);
        b.putLong(tracker.lastCompletedCheckpoint());
        b.putInt(tracker.noMoreSplitsSubtasks().size());
        for (int s : tracker.noMoreSplitsSubtasks()) {
            b.putInt(s);
        }
        b.putInt(tracker.size());
        int i = 0;
        for (AssignmentEntry e : tracker.entries()) {
            byte[] id = ids.get(i++);
            b.putInt(id.length).put(id);
            b.put((byte) e.state().wireCode());
            b.putInt(e.targetSubtask());
            b.putLong(e.epoch()).putLong(e.attemptId()).putLong(e.senderSequence());
            b.putLong(e.commandId()).putLong(e.cutId()).putLong(e.includedCheckpointId());
            b.putInt(e.splitLength()).put(e.splitBytes());
        }
        b.putInt(Crc32c.of(b.array(), 0, size - 4));
        return b.array();
    }

    public static Decoded decode(byte[] bytes) throws StateFormatException {
        if (bytes.length < HEADER + 4 + 4 + 4) {
            throw new StateFormatException("tracker state truncated: " + bytes.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt() != MAGIC) {
            throw new StateFormatException("tracker state has a bad magic");
        }
        short version = b.getShort();
        if (version != VERSION) {
            throw new StateFormatException("unsupported tracker state version " + version);
        }
        int crc = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if (crc != Crc32c.of(bytes, 0, bytes.length - 4)) {
            throw new StateFormatException("tracker state CRC-32C mismatch");
        }
        try {
            long writerEpoch = b.getLong();
            long lastCompleted = b.getLong();
            int n = count(b.getInt(), bytes.length);
            List<Integer> nms = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                nms.add(b.getInt());
            }
            int m = count(b.getInt(), bytes.length);
            List<AssignmentEntry> entries = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                entries.add(readEntry(b, bytes.length));
            }
            if (b.position() != bytes.length - 4) {
                throw new StateFormatException("tracker state has trailing bytes");
            }
            return new Decoded(writerEpoch, lastCompleted, nms, entries);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new StateFormatException("tracker state truncated");
        }
    }

    private static AssignmentEntry readEntry(ByteBuffer b, int total) throws StateFormatException {
        byte[] id = new byte[count(b.getInt(), total)];
        b.get(id);
        AssignmentState state = AssignmentState.fromWireCode(b.get());
        if (state == null || state == AssignmentState.GC_ELIGIBLE) {
            throw new StateFormatException("tracker state has an unknown entry state");
        }
        int subtask = b.getInt();
        long epoch = b.getLong();
        long attempt = b.getLong();
        long seq = b.getLong();
        long cmd = b.getLong();
        long cut = b.getLong();
        long included = b.getLong();
        byte[] split = new byte[count(b.getInt(), total)];
        b.get(split);
        AssignmentEntry e =
                new AssignmentEntry(new String(id, StandardCharsets.UTF_8), split, subtask, state);
        e.restoreFields(epoch, attempt, seq, cmd, cut, included);
        return e;
    }

    private static int count(int n, int total) throws StateFormatException {
        if (n < 0 || n > total) {
            throw new StateFormatException("tracker state has a bad length field");
        }
        return n;
    }

    /** Decoded tracker state. Immutable lists; entries are fresh objects for the new tracker. */
    public static final class Decoded {
        private final long writerEpoch;
        private final long lastCompletedCheckpoint;
        private final List<Integer> noMoreSplits;
        private final List<AssignmentEntry> entries;

        Decoded(long writerEpoch, long lastCompleted, List<Integer> nms, List<AssignmentEntry> es) {
            this.writerEpoch = writerEpoch;
            this.lastCompletedCheckpoint = lastCompleted;
            this.noMoreSplits = Collections.unmodifiableList(nms);
            this.entries = Collections.unmodifiableList(es);
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

        public List<AssignmentEntry> entries() {
            return entries;
        }
    }
}
