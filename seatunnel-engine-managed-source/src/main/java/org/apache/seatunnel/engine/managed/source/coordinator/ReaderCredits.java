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

/**
 * What the coordinator may still send to each registered reader attempt: the credit window the
 * attempt offered at registration (its mailbox's normal capacity, in commands and payload bytes)
 * minus the sequenced commands sent to it and not yet known applied. Every ordered command the
 * coordinator sends a reader takes credit; the reader's cumulative applied watermark (its apply
 * acknowledgements and checkpoint reports) gives it back. So what is in flight to a reader never
 * exceeds what its mailbox admits, and a split the enumerator handed out waits here, in the
 * coordinator's bounded tracker, until the reader has room.
 *
 * <p>Threading: owned by the coordinator loop; not thread-safe.
 */
final class ReaderCredits {
    private Window[] windows = new Window[8];
    private long outstandingCommands;
    private long outstandingBytes;

    /** A new attempt of {@code subtask} registered with this window; the old one's credit goes. */
    void register(int subtask, long attempt, int windowCommands, long windowBytes) {
        ensure(subtask);
        Window old = windows[subtask];
        if (old != null) {
            outstandingCommands -= old.count;
            outstandingBytes -= old.bytes;
        }
        windows[subtask] = new Window(attempt, windowCommands, windowBytes);
    }

    /** True if a command of {@code bytes} payload bytes fits the current attempt's window. */
    boolean canSend(int subtask, long bytes) {
        Window w = window(subtask);
        return w != null
                && w.count < w.maxCommands
                && (w.count == 0 || w.bytes + bytes <= w.maxBytes);
    }

    /** Commands the current attempt of {@code subtask} may still be sent; 0 if none registered. */
    int freeCommands(int subtask) {
        Window w = window(subtask);
        return w == null ? 0 : w.maxCommands - w.count;
    }

    /**
     * Payload bytes the current attempt may still be sent (one command always fits an empty one).
     */
    long freeBytes(int subtask) {
        Window w = window(subtask);
        if (w == null) {
            return 0;
        }
        return w.count == 0 ? Long.MAX_VALUE : w.maxBytes - w.bytes;
    }

    /** A sequenced command of {@code bytes} went to {@code subtask}'s current attempt. */
    void sent(int subtask, long sequence, long bytes) {
        Window w = window(subtask);
        if (w == null) {
            throw new IllegalStateException("no credit window for subtask " + subtask);
        }
        w.push(sequence, bytes);
        outstandingCommands++;
        outstandingBytes += bytes;
    }

    /**
     * {@code attempt} of {@code subtask} applied every command up to {@code watermark}: their
     * credit returns.
     *
     * @return true if credit returned
     */
    boolean applied(int subtask, long attempt, long watermark) {
        Window w = window(subtask);
        if (w == null || w.attempt != attempt) {
            return false;
        }
        int freed = 0;
        while (w.count > 0 && w.headSequence() <= watermark) {
            long b = w.pop();
            outstandingCommands--;
            outstandingBytes -= b;
            freed++;
        }
        return freed > 0;
    }

    /** The subtask's attempt is gone (reconciled or stale): its credit goes with it. */
    void forget(int subtask) {
        Window w = window(subtask);
        if (w != null) {
            outstandingCommands -= w.count;
            outstandingBytes -= w.bytes;
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

    /** The window of {@code subtask}'s current attempt, for diagnostics: {commands, bytes}. */
    long[] used(int subtask) {
        Window w = window(subtask);
        return w == null ? new long[] {0, 0} : new long[] {w.count, w.bytes};
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
     * One attempt's window: the sequences and sizes of its unapplied commands in a ring, in send
     * order (which is sequence order).
     */
    private static final class Window {
        final long attempt;
        final int maxCommands;
        final long maxBytes;
        private long[] sequences = new long[16];
        private long[] sizes = new long[16];
        private int head;
        int count;
        long bytes;

        Window(long attempt, int maxCommands, long maxBytes) {
            this.attempt = attempt;
            this.maxCommands = maxCommands;
            this.maxBytes = maxBytes;
        }

        void push(long sequence, long size) {
            if (count == sequences.length) {
                grow();
            }
            int i = (head + count) & (sequences.length - 1);
            sequences[i] = sequence;
            sizes[i] = size;
            count++;
            bytes += size;
        }

        long headSequence() {
            return sequences[head];
        }

        long pop() {
            long size = sizes[head];
            head = (head + 1) & (sequences.length - 1);
            count--;
            bytes -= size;
            return size;
        }

        private void grow() {
            long[] s = new long[sequences.length * 2];
            long[] z = new long[sizes.length * 2];
            for (int i = 0; i < count; i++) {
                int j = (head + i) & (sequences.length - 1);
                s[i] = sequences[j];
                z[i] = sizes[j];
            }
            sequences = s;
            sizes = z;
            head = 0;
        }
    }
}
