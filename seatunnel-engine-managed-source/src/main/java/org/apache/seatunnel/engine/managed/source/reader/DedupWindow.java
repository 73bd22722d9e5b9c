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

/**
 * The duplicate filter of one {@link ReaderMailbox}: a power-of-two table of the latest command id
 * seen per hashed slot. A redelivered command whose id still sits in its slot is answered {@code
 * DUPLICATE}; an id pushed out by a collision is admitted again and caught by the loop's ledger.
 *
 * <p>Threading: any admitting thread; every slot is an atomic exchange.
 */
final class DedupWindow {
    /** The one command id no command may carry: it marks an empty slot. */
    static final long EMPTY = Long.MIN_VALUE;

    private final AtomicLongArray ids;
    private final int mask;

    /**
     * @param size a power of two
     */
    DedupWindow(int size) {
        this.ids = new AtomicLongArray(size);
        for (int i = 0; i < size; i++) {
            ids.set(i, EMPTY);
        }
        this.mask = size - 1;
    }

    /** Records {@code commandId}; true if its slot already held it (a duplicate). */
    boolean seen(long commandId) {
        int slot = (int) (mix(commandId) & mask);
        return ids.getAndSet(slot, commandId) == commandId;
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        return x;
    }
}
