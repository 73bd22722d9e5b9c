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
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code reader.off-loop-check} for one reader attempt: which barriers begin a sample, and for each
 * sample the windows in which no code of the reader runs — from the sampled barrier to the next
 * call into the reader (a turn, a command, a checkpoint callback, or the next barrier), then from
 * each such call's return to the next call, up to {@link #WINDOWS_PER_SAMPLE} — at whose start the
 * reader's state is kept serialized and at whose end it must be equal byte for byte, since nothing
 * in the reader ran. A difference means a thread other than the loop moved checkpoint-visible
 * state, and is counted and reported through the loop's {@link ReaderContractReports}. A
 * diagnostic: a snapshot or serializer that fails here only ends the sample, and nothing here fails
 * the attempt. The {@link ReaderEventLoop} tells it where calls begin and end.
 *
 * <p>A state is its splits serialized with the connector's own split serializer; the order a reader
 * lists its splits in is not state, so two lists in different orders are compared sorted by split
 * id (a reader lists them in the same order as long as it holds the same splits, and then nothing
 * is sorted). Only bytes are kept, never the split objects: a reader that hands out live objects
 * and changes them later must not change what was remembered.
 *
 * <p>Threading: the loop's driving thread only, like the loop's other fields; one instance per
 * attempt, bound to its loop by {@link ReaderEventLoop#setOffLoopCheck}.
 */
public final class OffLoopStateCheck<SplitT extends SourceSplit> {
    /**
     * Windows one sample watches: from its barrier to the next call into the reader, then from each
     * call's return to the next call, at most this many in all. Each costs two snapshots.
     */
    static final int WINDOWS_PER_SAMPLE = 8;

    private static final Comparator<Entry> ORDER =
            (a, b) -> {
                int c = a.id.compareTo(b.id);
                return c != 0 ? c : compareBytes(a.bytes, b.bytes);
            };

    // The loop's logger: operators filter by it.
    private static final Logger LOG = LoggerFactory.getLogger(ReaderEventLoop.class);

    private final int interval;
    private final Serializer<SplitT> serializer;

    // Set once by the loop the check is given to (ReaderEventLoop#setOffLoopCheck).
    private ManagedSourceReader<?, SplitT> reader;
    private ReaderContractReports reports;
    private ReaderIdentity identity;
    // The sampled barrier, and how many windows after the current one the sample still watches.
    private long checkpointId;
    private int windowsLeft;

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

    /** Binds the check to the loop's reader and reports; by the loop, before it starts. */
    void bind(
            ManagedSourceReader<?, SplitT> reader,
            ReaderContractReports reports,
            ReaderIdentity identity) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    /**
     * At a barrier whose snapshot was handed over: if a comparison is pending (nothing called into
     * the reader since the window began), this state must equal the remembered one; if this barrier
     * is sampled, its state begins a new sample's first window.
     *
     * @param pending whether a comparison was pending
     * @return whether a comparison is pending now
     */
    boolean atBarrier(long barrierId, List<SplitT> state, boolean pending) {
        boolean sample = sampleBarrier();
        if (!pending && !sample) {
            return false;
        }
        Entry[] encoded;
        try {
            encoded = encode(state);
        } catch (Throwable e) {
            // The host serialized the same state a moment ago; this sample is skipped.
            skipped(barrierId, e);
            return false;
        }
        if (pending) {
            compare(encoded);
        }
        if (!sample) {
            return false;
        }
        remember(encoded);
        checkpointId = barrierId;
        windowsLeft = WINDOWS_PER_SAMPLE - 1;
        return true;
    }

    /**
     * Before a call into the reader while a comparison is pending: nothing ran in the reader since
     * the window began, so its state now must be the remembered one. The comparison is no longer
     * pending afterwards.
     *
     * @return true if the state was unchanged and the sample has windows left: the loop then calls
     *     {@link #rearm} when the call into the reader returned
     */
    boolean unchangedBeforeCall() {
        Entry[] now = snapshot();
        return now != null && compare(now) && windowsLeft > 0;
    }

    /**
     * A call into the reader returned (a turn, a command, a callback): the state it left begins the
     * sample's next window, which lasts until the next call. A fetch thread acts mostly while the
     * loop waits for its data, after a turn that found none, so a sample that watched only the
     * window after its barrier (usually microseconds: a barrier is followed by a turn at once)
     * would rarely see one.
     *
     * @return whether a comparison is pending now
     */
    boolean rearm() {
        Entry[] now = snapshot();
        if (now == null) {
            return false;
        }
        remember(now);
        windowsLeft--;
        return true;
    }

    /** Counts a comparison with the remembered state and reports a difference. */
    private boolean compare(Entry[] now) {
        reports.offLoopStateChecked();
        if (matchesRemembered(now)) {
            return true;
        }
        reports.offLoopStateChanged(checkpointId);
        return false;
    }

    /**
     * The reader's state now, encoded; null (the sample skipped) if that failed. Asked for with the
     * id of the checkpoint after the sampled one: a reader that remembers something per id (offsets
     * to commit when that checkpoint completes) has it replaced by that checkpoint's own barrier,
     * so an extra snapshot never changes what a completed checkpoint commits.
     */
    private Entry[] snapshot() {
        try {
            return encode(reader.snapshotState(checkpointId + 1));
        } catch (Throwable e) {
            if (ConnectorFailures.isInterrupt(e)) {
                // The engine cancels: keep the flag for the call that follows to see.
                Thread.currentThread().interrupt();
            }
            skipped(checkpointId, e);
            return null;
        }
    }

    private void skipped(long id, Throwable e) {
        forget();
        LOG.debug(
                "reader.off-loop-check of {} skips checkpoint {}: {}",
                identity,
                id,
                e.getClass().getName());
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
        if (!sameIds(before, state)) {
            before = before.clone();
            state = state.clone();
            Arrays.sort(before, ORDER);
            Arrays.sort(state, ORDER);
            if (!sameIds(before, state)) {
                return false;
            }
        }
        for (int i = 0; i < before.length; i++) {
            if (!Arrays.equals(before[i].bytes, state[i].bytes)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameIds(Entry[] a, Entry[] b) {
        for (int i = 0; i < a.length; i++) {
            if (!a[i].id.equals(b[i].id)) {
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
