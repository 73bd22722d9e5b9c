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

import java.util.function.Predicate;

/**
 * Which tracked holder ({@link PendingSplit} or {@link TrackedAssignment}) owns a split id: an
 * open-addressing table from a 64-bit fingerprint of the id's UTF-8 bytes to its holder, about 24
 * to 48 bytes per tracked split instead of a {@code HashMap} node and a {@code String} per split. A
 * fingerprint only narrows the search: every answer is confirmed against the holder's own bytes of
 * the id ({@link Holder#holds}), so two ids that share a fingerprint are two entries and never
 * mistaken for one.
 *
 * <p>Linear probing with backward-shift deletion; the table doubles above half full and halves
 * below one eighth full (never under {@link #MIN_CAPACITY} slots), so it follows the tracker down
 * after a burst instead of keeping its peak.
 *
 * <p>Threading: owned by the coordinator loop through its {@link SourceAssignmentTracker}; not
 * thread-safe.
 */
final class SplitIdIndex {
    static final int MIN_CAPACITY = 64;

    /** Bytes per slot: a fingerprint and a compressed reference. */
    static final int SLOT_BYTES = 12;

    /** Something that holds tracked splits and can tell whether one of them has an id. */
    interface Holder {
        /** True if a split this holder still tracks has exactly this UTF-8 id. */
        boolean holds(byte[] idUtf8);
    }

    private long[] keys = new long[MIN_CAPACITY];
    private Holder[] holders = new Holder[MIN_CAPACITY];
    private int size;

    /** The fingerprint of an id's UTF-8 bytes (FNV-1a, then a 64-bit finalizer to spread it). */
    static long fingerprint(byte[] b, int from, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = from; i < from + length; i++) {
            h ^= b[i] & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    static long fingerprint(byte[] idUtf8) {
        return fingerprint(idUtf8, 0, idUtf8.length);
    }

    /** The holder that tracks exactly {@code idUtf8} (whose fingerprint is {@code fp}), or null. */
    Holder find(long fp, byte[] idUtf8) {
        int mask = keys.length - 1;
        for (int i = slot(fp, mask); holders[i] != null; i = (i + 1) & mask) {
            if (keys[i] == fp && holders[i].holds(idUtf8)) {
                return holders[i];
            }
        }
        return null;
    }

    /**
     * Records that {@code holder} tracks {@code idUtf8} (fingerprint {@code fp}) unless a holder
     * already tracks exactly that id: one probe for both. Returns that other holder, or null when
     * {@code holder} was recorded.
     */
    Holder addIfAbsent(long fp, byte[] idUtf8, Holder holder) {
        if (size + 1 > keys.length >>> 1) {
            resize(keys.length << 1);
        }
        int mask = keys.length - 1;
        int i = slot(fp, mask);
        while (holders[i] != null) {
            if (keys[i] == fp && holders[i].holds(idUtf8)) {
                return holders[i];
            }
            i = (i + 1) & mask;
        }
        keys[i] = fp;
        holders[i] = holder;
        size++;
        return null;
    }

    /** Records that {@code holder} tracks a split whose id has fingerprint {@code fp}. */
    void add(long fp, Holder holder) {
        if (size + 1 > keys.length >>> 1) {
            resize(keys.length << 1);
        }
        int mask = keys.length - 1;
        int i = slot(fp, mask);
        while (holders[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = fp;
        holders[i] = holder;
        size++;
    }

    /**
     * Moves one split with fingerprint {@code fp} from holder {@code from} to {@code to} (a pending
     * split joining its command) in one probe. Returns false if {@code from} had none.
     */
    boolean replace(long fp, Holder from, Holder to) {
        int mask = keys.length - 1;
        for (int i = slot(fp, mask); holders[i] != null; i = (i + 1) & mask) {
            if (keys[i] == fp && holders[i] == from) {
                holders[i] = to;
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets one split of {@code holder} with fingerprint {@code fp}. Returns false if there was
     * none (the caller's bookkeeping is wrong).
     */
    boolean remove(long fp, Holder holder) {
        int mask = keys.length - 1;
        int i = slot(fp, mask);
        while (holders[i] != null) {
            if (keys[i] == fp && holders[i] == holder) {
                deleteAt(i, mask);
                size--;
                if (size < keys.length >>> 3 && keys.length > MIN_CAPACITY) {
                    resize(keys.length >>> 1);
                }
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    int size() {
        return size;
    }

    /** Slots in the table (a power of two), for the memory estimate and tests. */
    int capacity() {
        return keys.length;
    }

    /**
     * Drops every entry whose holder {@code gone} accepts, in one pass over the table, and rebuilds
     * it at the size the rest needs (at most a quarter full, so that it neither grows nor shrinks
     * at the next change). Cheaper than {@link #remove} per split once a large part of the table
     * leaves at once: a sequential pass instead of a probe and a backward shift per entry. Returns
     * how many entries were dropped.
     */
    int purge(Predicate<Holder> gone) {
        // Each holder is asked once: the slots of those that left are emptied in place (the
        // table is rebuilt below, so its probe runs need not hold in between).
        int dropped = 0;
        for (int j = 0; j < holders.length; j++) {
            if (holders[j] != null && gone.test(holders[j])) {
                holders[j] = null;
                dropped++;
            }
        }
        int kept = size - dropped;
        int capacity = MIN_CAPACITY;
        while (kept > capacity >>> 2) {
            capacity <<= 1;
        }
        rehash(capacity);
        size = kept;
        return dropped;
    }

    void clear() {
        keys = new long[MIN_CAPACITY];
        holders = new Holder[MIN_CAPACITY];
        size = 0;
    }

    private static int slot(long fp, int mask) {
        return (int) (fp ^ (fp >>> 32)) & mask;
    }

    /** Backward-shift deletion: later members of the probe run move up so lookups never stop. */
    private void deleteAt(int hole, int mask) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (holders[i] == null) {
                break;
            }
            int home = slot(keys[i], mask);
            // Move i into the hole unless its home lies cyclically in (hole, i].
            boolean homeBetween =
                    hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
            if (!homeBetween) {
                keys[hole] = keys[i];
                holders[hole] = holders[i];
                hole = i;
            }
        }
        holders[hole] = null;
        keys[hole] = 0;
    }

    private void resize(int capacity) {
        rehash(capacity);
    }

    /** Moves every entry into a new table of {@code capacity}. */
    private void rehash(int capacity) {
        long[] oldKeys = keys;
        Holder[] oldHolders = holders;
        keys = new long[capacity];
        holders = new Holder[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            Holder h = oldHolders[j];
            if (h != null) {
                int i = slot(oldKeys[j], mask);
                while (holders[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                holders[i] = h;
            }
        }
    }
}
