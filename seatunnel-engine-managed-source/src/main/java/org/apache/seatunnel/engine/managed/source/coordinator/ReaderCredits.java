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
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;
import org.apache.seatunnel.engine.managed.source.protocol.RegistrationPayload;

/**
 * What the coordinator may still send to each registered reader attempt, within the windows the
 * attempt offered at registration ({@link ReaderWindow}):
 *
 * <ul>
 *   <li>credit: its mailbox's normal capacity, in commands and payload bytes, minus the sequenced
 *       commands sent to it and not yet known applied. Every ordered command takes credit; the
 *       reader's cumulative applied watermark (its apply acknowledgements and checkpoint reports)
 *       gives it back. So what is in flight to a reader never exceeds what its mailbox admits;
 *   <li>split window (when the reader counts its splits): the splits it may hold unread, minus the
 *       backlog its latest acknowledgement reported and the splits sent after the watermark that
 *       acknowledgement carried. So a reader holds at most its window of splits, and a split the
 *       enumerator handed out waits, bounded, in the coordinator's tracker instead.
 * </ul>
 *
 * <p>Threading: owned by the coordinator loop; not thread-safe.
 */
final class ReaderCredits {
    private Window[] windows = new Window[8];
    private long outstandingCommands;
    private long outstandingBytes;

    /** A new attempt of {@code subtask} registered with these windows; the old one's goes. */
    void register(int subtask, long attempt, ReaderWindow offered) {
        ensure(subtask);
        Window old = windows[subtask];
        if (old != null) {
            outstandingCommands -= old.unappliedCommands();
            outstandingBytes -= old.unappliedBytes;
        }
        windows[subtask] = new Window(attempt, offered);
    }

    /** True if a command of {@code bytes} payload bytes fits the current attempt's credit. */
    boolean canSend(int subtask, long bytes) {
        Window w = window(subtask);
        return w != null
                && w.unappliedCommands() < w.maxCommands
                && (w.unappliedCommands() == 0 || w.unappliedBytes + bytes <= w.maxBytes);
    }

    /** Commands the current attempt of {@code subtask} may still be sent; 0 if none registered. */
    int freeCommands(int subtask) {
        Window w = window(subtask);
        return w == null ? 0 : w.maxCommands - w.unappliedCommands();
    }

    /**
     * Payload bytes the current attempt may still be sent (one command always fits an empty one).
     */
    long freeBytes(int subtask) {
        Window w = window(subtask);
        if (w == null) {
            return 0;
        }
        return w.unappliedCommands() == 0 ? Long.MAX_VALUE : w.maxBytes - w.unappliedBytes;
    }

    /**
     * Splits the current attempt of {@code subtask} may still be sent within its split window;
     * {@link Integer#MAX_VALUE} when it offered none, 0 if none registered.
     */
    int splitRoom(int subtask) {
        Window w = window(subtask);
        if (w == null) {
            return 0;
        }
        if (w.maxSplits == RegistrationPayload.NO_SPLIT_WINDOW) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.max(0, (long) w.maxSplits - w.backlog - w.splitsOnTheWay);
    }

    /** A sequenced command of {@code bytes} carrying {@code splits} went to the current attempt. */
    void sent(int subtask, long sequence, long bytes, int splits) {
        Window w = window(subtask);
        if (w == null) {
            throw new IllegalStateException("no credit window for subtask " + subtask);
        }
        w.push(sequence, bytes, splits);
        outstandingCommands++;
        outstandingBytes += bytes;
    }

    /**
     * {@code attempt} of {@code subtask} applied every command up to {@code watermark}: their
     * credit returns. With a {@code backlog} ({@link AppliedAckPayload#UNKNOWN_BACKLOG} when the
     * message carried none, as a checkpoint report), the reader held that many unread splits right
     * after applying that far.
     *
     * @return true if credit returned or the split window gained room
     */
    boolean applied(int subtask, long attempt, long watermark, int backlog) {
        Window w = window(subtask);
        if (w == null || w.attempt != attempt) {
            return false;
        }
        long commandsBefore = w.unappliedCommands();
        long bytesBefore = w.unappliedBytes;
        int roomBefore = splitRoom(subtask);
        w.creditApplied(watermark);
        if (backlog != AppliedAckPayload.UNKNOWN_BACKLOG) {
            w.backlogReported(watermark, backlog);
        }
        outstandingCommands -= commandsBefore - w.unappliedCommands();
        outstandingBytes -= bytesBefore - w.unappliedBytes;
        return w.unappliedCommands() < commandsBefore || splitRoom(subtask) > roomBefore;
    }

    /** The subtask's attempt is gone (reconciled or stale): its credit goes with it. */
    void forget(int subtask) {
        Window w = window(subtask);
        if (w != null) {
            outstandingCommands -= w.unappliedCommands();
            outstandingBytes -= w.unappliedBytes;
            windows[subtask] = null;
        }
    }

    /** Commands sent and not yet known applied, over all readers (a gauge). */
    long outstandingCommands() {
        return outstandingCommands;
    }

    /** Their payload bytes (a gauge). */
    long outstandingBytes() {
        return outstandingBytes;
    }

    /**
     * The windows of {@code subtask}'s current attempt, for diagnostics: {commands and bytes not
     * known applied, reported backlog, splits sent since}.
     */
    long[] used(int subtask) {
        Window w = window(subtask);
        return w == null
                ? new long[] {0, 0, 0, 0}
                : new long[] {w.unappliedCommands(), w.unappliedBytes, w.backlog, w.splitsOnTheWay};
    }

    private Window window(int subtask) {
        return subtask >= 0 && subtask < windows.length ? windows[subtask] : null;
    }

    private void ensure(int subtask) {
        if (subtask >= windows.length) {
            windows = Arrays.copyOf(windows, Math.max(subtask + 1, windows.length * 2));
        }
    }

    /**
     * One attempt's windows: the sequences, sizes and split counts of the commands sent to it, in
     * send order (which is sequence order), in a ring. Entries before {@code credited} had their
     * credit returned; the ring keeps them until an acknowledgement with a backlog covers them too
     * (the backlog counts only splits applied up to its watermark). Without a split window an entry
     * leaves as soon as its credit returns.
     */
    private static final class Window {
        final long attempt;
        final int maxCommands;
        final long maxBytes;
        final int maxSplits;
        private long[] sequences = new long[16];
        private long[] sizes = new long[16];
        private int[] splits = new int[16];
        private int head;
        private int count;
        // entries [head, head + credited) are known applied
        private int credited;
        long unappliedBytes;
        long splitsOnTheWay;
        int backlog;
        private long backlogWatermark = -1;

        Window(long attempt, ReaderWindow offered) {
            this.attempt = attempt;
            this.maxCommands = offered.commands;
            this.maxBytes = offered.bytes;
            this.maxSplits = offered.splits;
        }

        int unappliedCommands() {
            return count - credited;
        }

        void push(long sequence, long size, int n) {
            if (count == sequences.length) {
                grow();
            }
            int i = (head + count) & (sequences.length - 1);
            sequences[i] = sequence;
            sizes[i] = size;
            splits[i] = n;
            count++;
            unappliedBytes += size;
            splitsOnTheWay += n;
        }

        void creditApplied(long watermark) {
            int mask = sequences.length - 1;
            while (credited < count && sequences[(head + credited) & mask] <= watermark) {
                unappliedBytes -= sizes[(head + credited) & mask];
                credited++;
            }
            if (maxSplits == RegistrationPayload.NO_SPLIT_WINDOW) {
                dropThrough(watermark);
            }
        }

        void backlogReported(long watermark, int reported) {
            if (watermark < backlogWatermark) {
                return; // older than the one already taken
            }
            backlogWatermark = watermark;
            backlog = reported;
            dropThrough(watermark);
        }

        /** Entries up to {@code watermark} leave the ring (their credit was returned already). */
        private void dropThrough(long watermark) {
            int mask = sequences.length - 1;
            while (credited > 0 && sequences[head] <= watermark) {
                splitsOnTheWay -= splits[head];
                head = (head + 1) & mask;
                count--;
                credited--;
            }
        }

        private void grow() {
            int n = sequences.length;
            long[] s = new long[n * 2];
            long[] z = new long[n * 2];
            int[] k = new int[n * 2];
            for (int i = 0; i < count; i++) {
                int j = (head + i) & (n - 1);
                s[i] = sequences[j];
                z[i] = sizes[j];
                k[i] = splits[j];
            }
            sequences = s;
            sizes = z;
            splits = k;
            head = 0;
        }
    }
}
