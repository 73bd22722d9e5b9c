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

package org.apache.seatunnel.engine.managed.source.reader;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The sampling and the memory of {@code reader.off-loop-check}: which barriers of an attempt are
 * checked, and the serialized state of the last sampled barrier, which the {@link ReaderEventLoop}
 * compares with the reader's state at the next call into the reader (or the next barrier's state).
 * No turn and no callback ran in between, so the two must be equal byte for byte; a difference
 * means a thread other than the loop moved checkpoint-visible state.
 *
 * <p>A state is its splits serialized with the connector's own split serializer and sorted by split
 * id (the order a reader lists its splits in is not state). Only bytes are kept, never the split
 * objects: a reader that hands out live objects and changes them later must not change what was
 * remembered.
 *
 * <p>Threading: the loop's driving thread only, like the loop's other fields; one instance per
 * attempt.
 */
public final class OffLoopStateCheck<SplitT extends SourceSplit> {
    private static final Comparator<Entry> ORDER =
            (a, b) -> {
                int c = a.id.compareTo(b.id);
                return c != 0 ? c : compareBytes(a.bytes, b.bytes);
            };

    private final int interval;
    private final Serializer<SplitT> serializer;

    // Barriers this attempt took since the check was set; the 1st, (1+interval)th, ... are
    // sampled.
    private long barriers;
    // The state of the last sampled barrier while a comparison is pending, else null.
    private Entry[] remembered;

    /**
     * @param interval check one barrier in this many (the attempt's first, then every {@code
     *     interval}-th); 1 checks every barrier
     * @param serializer the connector's split serializer (the one its checkpoints use)
     */
    public OffLoopStateCheck(int interval, Serializer<SplitT> serializer) {
        if (interval < 1) {
            throw new IllegalArgumentException(
                    "reader.off-loop-check.interval must be at least 1, was " + interval);
        }
        this.interval = interval;
        this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    public int interval() {
        return interval;
    }

    /** Counts a barrier taken; true if it is one to check. */
    boolean sampleBarrier() {
        return barriers++ % interval == 0;
    }

    /** Serializes a reader's state into the form compared. */
    Entry[] encode(List<SplitT> state) throws IOException {
        Entry[] out = new Entry[state.size()];
        for (int i = 0; i < out.length; i++) {
            SplitT s = state.get(i);
            out[i] = new Entry(s.splitId(), serializer.serialize(s));
        }
        Arrays.sort(out, ORDER);
        return out;
    }

    /** Remembers a sampled barrier's state until {@link #matchesRemembered}. */
    void remember(Entry[] state) {
        remembered = state;
    }

    /** Forgets a pending comparison (the attempt ends, or the later snapshot failed). */
    void forget() {
        remembered = null;
    }

    /**
     * True if {@code state} equals the remembered one; the comparison is then no longer pending.
     * True when nothing is remembered.
     */
    boolean matchesRemembered(Entry[] state) {
        Entry[] before = remembered;
        remembered = null;
        if (before == null) {
            return true;
        }
        if (before.length != state.length) {
            return false;
        }
        for (int i = 0; i < before.length; i++) {
            if (!before[i].id.equals(state[i].id)
                    || !Arrays.equals(before[i].bytes, state[i].bytes)) {
                return false;
            }
        }
        return true;
    }

    private static int compareBytes(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return Byte.compare(a[i], b[i]);
            }
        }
        return Integer.compare(a.length, b.length);
    }

    /** One split of a state: its id and its serialized form. Immutable. */
    static final class Entry {
        final String id;
        final byte[] bytes;

        Entry(String id, byte[] bytes) {
            this.id = String.valueOf(id);
            this.bytes = bytes == null ? new byte[0] : bytes;
        }
    }
}
