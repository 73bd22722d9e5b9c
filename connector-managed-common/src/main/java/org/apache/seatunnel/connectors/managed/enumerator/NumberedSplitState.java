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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The checkpointed state of a {@link NumberedSplitEnumerator}: how many splits exist, for each of
 * the {@code owners} reader subtasks the number of the next split it has not been given yet (owner
 * {@code o} gets {@code o, o + owners, o + 2 * owners, ...}), and the splits that came back and
 * wait to be given out again. Its size grows with the parallelism and with what came back, never
 * with the number of splits. Immutable.
 */
public final class NumberedSplitState<SplitT> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long count;
    private final long[] next;
    private final ArrayList<SplitT> waiting;

    /**
     * @param count splits numbered {@code 0 .. count - 1} exist
     * @param next for each owner {@code o}, the next number it gets: {@code o} plus a multiple of
     *     {@code next.length}, at most the first such number not below {@code count}
     * @param waiting splits given back, in the order they are given out again
     * @throws IllegalArgumentException if {@code next} does not fit that shape
     */
    public NumberedSplitState(long count, long[] next, List<SplitT> waiting) {
        check(count, next);
        this.count = count;
        this.next = next.clone();
        this.waiting = new ArrayList<>(waiting);
    }

    /** The state of {@code count} splits of which none was handed out yet, over {@code owners}. */
    public static <SplitT> NumberedSplitState<SplitT> start(long count, int owners) {
        if (owners < 1) {
            throw new IllegalArgumentException("numbered split state: " + owners + " owners");
        }
        long[] next = new long[owners];
        for (int o = 0; o < owners; o++) {
            next[o] = o;
        }
        return new NumberedSplitState<>(count, next, Collections.emptyList());
    }

    /** Why {@code next} is not a cursor per owner over {@code count} splits, or null. */
    static String invalid(long count, long[] next) {
        if (count < 0) {
            return "split count " + count + " is negative";
        }
        if (next.length == 0) {
            return "no owners";
        }
        int owners = next.length;
        for (int o = 0; o < owners; o++) {
            long n = next[o];
            if (n < o || (n - o) % owners != 0) {
                return "owner " + o + " of " + owners + " has cursor " + n;
            }
            // The last number given out was a split: below count.
            if (n != o && n - owners >= count) {
                return "owner " + o + " has cursor " + n + " past " + count + " splits";
            }
        }
        return null;
    }

    private static void check(long count, long[] next) {
        String why = invalid(count, next);
        if (why != null) {
            throw new IllegalArgumentException("numbered split state: " + why);
        }
    }

    public long count() {
        return count;
    }

    /** The reader parallelism the cursors were taken at. */
    public int owners() {
        return next.length;
    }

    /** The next number owner {@code o} gets. */
    public long next(int owner) {
        return next[owner];
    }

    public List<SplitT> waiting() {
        return Collections.unmodifiableList(waiting);
    }

    /** Splits not given out yet: those waiting and those the cursors have not reached. */
    public long remaining() {
        long r = waiting.size();
        for (long n : next) {
            r += splitsLeft(n, count, next.length);
        }
        return r;
    }

    /**
     * Numbers an owner at {@code cursor} still gets of {@code count} splits over {@code owners}.
     */
    static long splitsLeft(long cursor, long count, int owners) {
        return cursor < count ? (count - 1 - cursor) / owners + 1 : 0;
    }

    @Override
    public String toString() {
        return "NumberedSplitState{count="
                + count
                + ", owners="
                + next.length
                + ", cursors="
                + (next.length <= 8 ? Arrays.toString(next) : "...")
                + ", waiting="
                + waiting.size()
                + '}';
    }
}
