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

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * The duplicate filter of one {@link ReaderMailbox}: a power-of-two table of the latest command id
 * seen per hashed slot. A redelivered command whose id still sits in its slot is answered {@code
 * DUPLICATE}; an id pushed out by a collision is admitted again and caught by the loop's ledger.
 *
 * <p>The table starts at {@link #INITIAL_SLOTS} and doubles, up to the configured size, each time
 * an id pushes out another: a reader that is sent a handful of commands (most readers of a wide
 * job) holds half a KiB instead of the full window. A doubling copies the ids it finds; one
 * recorded in the old table while the copy runs may be lost, which, like a collision, only hands
 * that command's redelivery to the ledger.
 *
 * <p>Threading: any admitting thread; every slot is an atomic exchange and the table is replaced by
 * compare-and-set.
 */
final class DedupWindow {
    /** The one command id no command may carry: it marks an empty slot. */
    static final long EMPTY = Long.MIN_VALUE;

    /** Slots of a new table (512 bytes); a smaller configured window is used as it is. */
    static final int INITIAL_SLOTS = 64;

    private static final AtomicReferenceFieldUpdater<DedupWindow, AtomicLongArray> TABLE =
            AtomicReferenceFieldUpdater.newUpdater(
                    DedupWindow.class, AtomicLongArray.class, "table");

    private volatile AtomicLongArray table;
    private final int maxSlots;

    /**
     * @param maxSlots a power of two: the most slots the table grows to
     */
    DedupWindow(int maxSlots) {
        this.maxSlots = maxSlots;
        this.table = emptyTable(Math.min(INITIAL_SLOTS, maxSlots));
    }

    /** Records {@code commandId}; true if its slot already held it (a duplicate). */
    boolean seen(long commandId) {
        AtomicLongArray t = table;
        long previous = t.getAndSet(slot(commandId, t.length()), commandId);
        if (previous == commandId) {
            return true;
        }
        if (previous != EMPTY && t.length() < maxSlots) {
            grow(t, previous);
        }
        return false;
    }

    /** Slots the table holds now: at most the configured window. */
    int slots() {
        return table.length();
    }

    private void grow(AtomicLongArray from, long evicted) {
        AtomicLongArray to = emptyTable(from.length() << 1);
        for (int i = 0; i < from.length(); i++) {
            put(to, from.get(i));
        }
        // The id the collision pushed out is kept too: the doubling is for it.
        put(to, evicted);
        TABLE.compareAndSet(this, from, to);
    }

    private static void put(AtomicLongArray t, long id) {
        if (id != EMPTY) {
            t.set(slot(id, t.length()), id);
        }
    }

    private static AtomicLongArray emptyTable(int slots) {
        AtomicLongArray t = new AtomicLongArray(slots);
        for (int i = 0; i < slots; i++) {
            t.set(i, EMPTY);
        }
        return t;
    }

    private static int slot(long id, int slots) {
        return (int) (mix(id) & (slots - 1));
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        return x;
    }
}
