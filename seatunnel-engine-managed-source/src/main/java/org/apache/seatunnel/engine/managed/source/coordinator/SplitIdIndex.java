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
import java.util.function.Predicate;

/**
 * Which tracked holder ({@link PendingSplit} or {@link TrackedAssignment}) owns a split id: an
 * open-addressing table of one {@code long} per slot, the upper 32 bits of a 64-bit fingerprint of
 * the id's UTF-8 bytes beside the number of its holder, about 16 to 32 bytes per tracked split
 * instead of a {@code HashMap} node and a {@code String} per split. A fingerprint only narrows the
 * search: every answer is confirmed against the holder's own bytes of the id ({@link
 * Holder#holds}), so two ids that share a fingerprint are two entries and never mistaken for one.
 *
 * <p>One array, so a probe reads one cache line where a table of fingerprints beside a table of
 * references read two: the coordinator loop touches a slot per split at its add, its dispatch and
 * its collection, on cores it shares with every task thread, and the lines it loses meanwhile are
 * what the index costs there. Holders are numbered in a registry (numbers reused, most recently
 * freed first) that also counts each holder's entries, so adding, moving and removing an entry
 * compare slots without touching the holder. The registry keeps the largest size it reached: at
 * most one number per pending split and per assignment in flight, both bounded by the tracker.
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

    /**
     * Far above what the tracker's bounds let it hold; only keeps the doubling from overflowing.
     */
    private static final int MAX_CAPACITY = 1 << 30;

    /** Bytes per slot: a fingerprint tag and a holder number. */
    static final int SLOT_BYTES = 8;

    /** Bytes per registered holder: its reference, its entry count and a free-list place. */
    static final int HOLDER_BYTES = 12;

    private static final int NO_NUMBER = -1;

    /** Something that holds tracked splits and can tell whether one of them has an id. */
    abstract static class Holder {
        /** This holder's number in the index while it has entries there; {@code NO_NUMBER} else. */
        private int number = NO_NUMBER;

        /** True if a split this holder still tracks has exactly this UTF-8 id. */
        abstract boolean holds(byte[] idUtf8);
    }

    // 0 is an empty slot; otherwise the tag in the upper half and the holder's number + 1 below.
    private long[] slots = new long[MIN_CAPACITY];
    private int size;

    private Holder[] holders = new Holder[16];
    private int[] entries = new int[16];
    private int[] free = new int[16];
    private int freeCount;
    private int numbered;

    /** What {@link #prepare} read; never used otherwise. */
    private long prepared;

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

    /**
     * Readies the table for {@code n} more entries whose fingerprints are {@code fps[0..n)}: grows
     * it once for all of them, then reads each one's home slot. A table of a hundred thousand
     * splits outgrows the caches of a core it shares with task threads, and a probe's first read
     * then waits for memory; done one split at a time, each add waits out its own miss. These reads
     * do not depend on one another, so the core keeps many of them in flight at once, and the
     * probes of the adds that follow find their lines cached.
     */
    void prepare(long[] fps, int n) {
        reserve(n);
        int mask = slots.length - 1;
        long seen = 0;
        for (int k = 0; k < n; k++) {
            seen += slots[home(tag(fps[k]), mask)];
        }
        // Stored so the compiler cannot drop the reads as unused.
        prepared = seen;
    }

    /** The holder that tracks exactly {@code idUtf8} (whose fingerprint is {@code fp}), or null. */
    Holder find(long fp, byte[] idUtf8) {
        int tag = tag(fp);
        int mask = slots.length - 1;
        for (int i = home(tag, mask); slots[i] != 0; i = (i + 1) & mask) {
            if (tagOf(slots[i]) == tag) {
                Holder h = holders[numberOf(slots[i])];
                if (h.holds(idUtf8)) {
                    return h;
                }
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
        growIfNeeded();
        int tag = tag(fp);
        int mask = slots.length - 1;
        int i = home(tag, mask);
        while (slots[i] != 0) {
            if (tagOf(slots[i]) == tag) {
                Holder h = holders[numberOf(slots[i])];
                if (h.holds(idUtf8)) {
                    return h;
                }
            }
            i = (i + 1) & mask;
        }
        slots[i] = slot(tag, enter(holder));
        size++;
        return null;
    }

    /** Records that {@code holder} tracks a split whose id has fingerprint {@code fp}. */
    void add(long fp, Holder holder) {
        growIfNeeded();
        int tag = tag(fp);
        int mask = slots.length - 1;
        int i = home(tag, mask);
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = slot(tag, enter(holder));
        size++;
    }

    /**
     * Moves one split with fingerprint {@code fp} from holder {@code from} to {@code to} (a pending
     * split joining its command) in one probe. Returns false if {@code from} had none.
     */
    boolean replace(long fp, Holder from, Holder to) {
        if (from.number == NO_NUMBER) {
            return false;
        }
        int tag = tag(fp);
        long wanted = slot(tag, from.number);
        int mask = slots.length - 1;
        for (int i = home(tag, mask); slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == wanted) {
                slots[i] = slot(tag, enter(to));
                leave(from);
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
        if (holder.number == NO_NUMBER) {
            return false;
        }
        int tag = tag(fp);
        long wanted = slot(tag, holder.number);
        int mask = slots.length - 1;
        for (int i = home(tag, mask); slots[i] != 0; i = (i + 1) & mask) {
            if (slots[i] == wanted) {
                deleteAt(i, mask);
                size--;
                leave(holder);
                if (size < slots.length >>> 3 && slots.length > MIN_CAPACITY) {
                    rehash(slots.length >>> 1);
                }
                return true;
            }
        }
        return false;
    }

    int size() {
        return size;
    }

    /** Slots in the table (a power of two), for the memory estimate and tests. */
    int capacity() {
        return slots.length;
    }

    /** Holders with entries now. */
    int holders() {
        return numbered - freeCount;
    }

    /**
     * Drops every entry whose holder {@code gone} accepts, in one pass over the table, and rebuilds
     * it at the size the rest needs (at most a quarter full, so that it neither grows nor shrinks
     * at the next change). Cheaper than {@link #remove} per split once a large part of the table
     * leaves at once: a sequential pass instead of a probe and a backward shift per entry. Returns
     * how many entries were dropped.
     */
    int purge(Predicate<Holder> gone) {
        // Each holder is asked once, by number; the table is rebuilt below, so its probe runs
        // need not hold while the slots of those that left are emptied in place.
        boolean[] leaving = new boolean[numbered];
        boolean any = false;
        for (int n = 0; n < numbered; n++) {
            if (holders[n] != null && gone.test(holders[n])) {
                leaving[n] = true;
                any = true;
            }
        }
        if (!any) {
            return 0;
        }
        int dropped = 0;
        for (int j = 0; j < slots.length; j++) {
            if (slots[j] != 0 && leaving[numberOf(slots[j])]) {
                slots[j] = 0;
                dropped++;
            }
        }
        for (int n = 0; n < numbered; n++) {
            if (leaving[n]) {
                entries[n] = 0;
                release(n);
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

    private static int tag(long fp) {
        return (int) (fp >>> 32);
    }

    private static int tagOf(long slot) {
        return (int) (slot >>> 32);
    }

    private static int numberOf(long slot) {
        return (int) slot - 1;
    }

    private static long slot(int tag, int number) {
        return ((long) tag << 32) | ((number + 1) & 0xffffffffL);
    }

    /** The tag is already spread by the fingerprint's finalizer: its low bits pick the slot. */
    private static int home(int tag, int mask) {
        return tag & mask;
    }

    private void growIfNeeded() {
        reserve(1);
    }

    /** Grows the table until {@code more} entries fit at most half full. */
    private void reserve(int more) {
        int capacity = slots.length;
        while ((long) size + more > capacity >>> 1 && capacity < MAX_CAPACITY) {
            capacity <<= 1;
        }
        if (capacity != slots.length) {
            rehash(capacity);
        }
    }

    /** Counts one more entry of {@code h}, numbering it first if it had none; its number. */
    private int enter(Holder h) {
        int n = h.number;
        if (n == NO_NUMBER) {
            if (freeCount > 0) {
                n = free[--freeCount];
            } else {
                if (numbered == holders.length) {
                    int grown = holders.length << 1;
                    holders = Arrays.copyOf(holders, grown);
                    entries = Arrays.copyOf(entries, grown);
                    free = Arrays.copyOf(free, grown);
                }
                n = numbered++;
            }
            holders[n] = h;
            h.number = n;
        }
        entries[n]++;
        return n;
    }

    /** Counts one entry of {@code h} less; its number is freed with its last entry. */
    private void leave(Holder h) {
        int n = h.number;
        if (--entries[n] == 0) {
            release(n);
        }
    }

    private void release(int n) {
        holders[n].number = NO_NUMBER;
        holders[n] = null;
        free[freeCount++] = n;
    }

    /** Backward-shift deletion: later members of the probe run move up so lookups never stop. */
    private void deleteAt(int hole, int mask) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (slots[i] == 0) {
                break;
            }
            int home = home(tagOf(slots[i]), mask);
            // Move i into the hole unless its home lies cyclically in (hole, i].
            boolean homeBetween =
                    hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
            if (!homeBetween) {
                slots[hole] = slots[i];
                hole = i;
            }
        }
        slots[hole] = 0;
    }

    /** Moves every entry into a new table of {@code capacity}. */
    private void rehash(int capacity) {
        long[] old = slots;
        slots = new long[capacity];
        int mask = capacity - 1;
        for (long s : old) {
            if (s != 0) {
                int i = home(tagOf(s), mask);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = s;
            }
        }
    }
}
