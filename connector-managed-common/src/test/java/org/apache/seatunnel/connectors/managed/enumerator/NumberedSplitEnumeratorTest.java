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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.Ctx;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;
import org.junit.jupiter.api.Test;

/** Numbered splits computed as readers need them, cursors in the state, restores at any width. */
class NumberedSplitEnumeratorTest {

    /** Split {@code n} is {@code NumberSplit(n)}; counts the splits it computed. */
    static final class Numbers extends NumberedSplitEnumerator<NumberSplit> {
        int computed;

        Numbers(Ctx ctx, long count, boolean bounded) {
            super(ctx, count, bounded);
        }

        Numbers(Ctx ctx, NumberedSplitState<NumberSplit> state, boolean bounded) {
            super(ctx, state, bounded);
        }

        @Override
        protected NumberSplit split(long number) {
            computed++;
            return new NumberSplit((int) number);
        }

        @Override
        protected long number(NumberSplit split) {
            return split.n;
        }

        void found(long newCount) {
            extendTo(newCount);
        }
    }

    private static List<Integer> stride(int from, int step, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(from + i * step);
        }
        return out;
    }

    @Test
    void splitsAreComputedOnlyAsReadersAskForThem() {
        Ctx ctx = new Ctx(4, true);
        Numbers e = new Numbers(ctx, 1_000_000, true);
        e.registerReader(0);
        assertEquals(0, e.computed, "registration on demand hands out nothing");
        e.handleSplitDemand(0, 100);
        assertEquals(stride(0, 4, 100), ctx.assigned.get(0), "the reader's own numbers, in order");
        assertEquals(100, e.computed);
        assertEquals(1_000_000 - 100, e.currentUnassignedSplitSize());
        assertTrue(ctx.noMore.isEmpty());
    }

    @Test
    void theStateDoesNotGrowWithTheSplits() throws Exception {
        NumberedSplitStateSerializer<NumberSplit> ser =
                new NumberedSplitStateSerializer<>(
                        new DiscoveringSplitEnumeratorTest.NumberSplitSerializer());
        int[] sizes = new int[2];
        long[] counts = {1_000, 1_000_000};
        for (int i = 0; i < 2; i++) {
            Ctx ctx = new Ctx(4, true);
            Numbers e = new Numbers(ctx, counts[i], true);
            e.handleSplitDemand(1, 10);
            NumberedSplitState<NumberSplit> s = e.snapshotState(1);
            assertEquals(counts[i] - 10, s.remaining());
            sizes[i] = ser.serialize(s).length;
        }
        // u8 version | i64 count | i32 owners | 4 x i64 | i32 length | an empty list (5 bytes)
        assertEquals(1 + 8 + 4 + 4 * 8 + 4 + 5, sizes[0]);
        assertEquals(sizes[0], sizes[1], "a million splits take as many bytes as a thousand");
    }

    @Test
    void laneBRegistrationHandsOutEveryOwnSplitThenNoMoreSplits() {
        Ctx ctx = new Ctx(2, false);
        Numbers e = new Numbers(ctx, 5, true);
        e.registerReader(1);
        assertEquals(Arrays.asList(1, 3), ctx.assigned.get(1));
        assertEquals(Collections.singletonList(1), ctx.noMore);
        e.registerReader(0);
        assertEquals(Arrays.asList(0, 2, 4), ctx.assigned.get(0));
        assertEquals(Arrays.asList(1, 0), ctx.noMore);
    }

    @Test
    void splitsGivenBackGoOutBeforeTheOwnersNextNumbers() {
        Ctx ctx = new Ctx(2, true);
        Numbers e = new Numbers(ctx, 10, true);
        e.handleSplitDemand(0, 2);
        e.addSplitsBack(Collections.singletonList(new NumberSplit(2)), 0);
        assertEquals(Collections.singletonList(0), ctx.available, "the owner has splits again");
        e.handleSplitDemand(0, 2);
        assertEquals(Arrays.asList(0, 2, 2, 4), ctx.assigned.get(0));
        e.handleSplitDemand(0, 100);
        assertEquals(Arrays.asList(0, 2, 2, 4, 6, 8), ctx.assigned.get(0));
        assertEquals(Collections.singletonList(0), ctx.noMore, "done once all of its are out");
    }

    @Test
    void aDeliveryThatFailsHandsOutNothing() {
        Ctx ok = new Ctx(2, true);
        Ctx failing =
                new Ctx(2, true) {
                    @Override
                    public void assignSplit(int subtaskId, List<NumberSplit> splits) {
                        throw new IllegalStateException("reader gone");
                    }
                };
        Numbers e = new Numbers(failing, 6, true);
        e.addSplitsBack(Collections.singletonList(new NumberSplit(4)), 1);
        assertThrows(IllegalStateException.class, () -> e.handleSplitDemand(0, 10));
        assertEquals(7, e.currentUnassignedSplitSize(), "the queue and the cursor are as before");
        NumberedSplitState<NumberSplit> s = snapshot(e);
        Numbers again = new Numbers(ok, s, true);
        again.handleSplitDemand(0, 10);
        assertEquals(Arrays.asList(4, 0, 2, 4), ok.assigned.get(0));
    }

    @Test
    void aRestoreAtAnotherParallelismHandsOutEverySplitOnce() throws Exception {
        Ctx before = new Ctx(3, true);
        Numbers e = new Numbers(before, 20, true);
        e.handleSplitDemand(0, 1);
        e.handleSplitDemand(2, 5);
        // Split 5 came back from reader 2 before the checkpoint.
        e.addSplitsBack(Collections.singletonList(new NumberSplit(5)), 2);
        NumberedSplitStateSerializer<NumberSplit> ser =
                new NumberedSplitStateSerializer<>(
                        new DiscoveringSplitEnumeratorTest.NumberSplitSerializer());
        NumberedSplitState<NumberSplit> state = ser.deserialize(ser.serialize(snapshot(e)));

        Ctx after = new Ctx(5, true);
        Numbers restored = new Numbers(after, state, true);
        for (int s = 0; s < 5; s++) {
            restored.handleSplitDemand(s, 100);
        }
        List<Integer> all = new ArrayList<>();
        for (List<Integer> l : before.assigned.values()) {
            all.addAll(l);
        }
        all.remove(Integer.valueOf(5));
        for (Map.Entry<Integer, List<Integer>> m : after.assigned.entrySet()) {
            for (int n : m.getValue()) {
                assertEquals(n % 5, (int) m.getKey(), "split " + n + " goes to its new owner");
            }
            all.addAll(m.getValue());
        }
        Collections.sort(all);
        assertEquals(stride(0, 1, 20), all, "every split once");
        assertEquals(Arrays.asList(0, 1, 2, 3, 4), after.noMore);
    }

    @Test
    void anUnboundedSourceTellsTheOwnersOfNewSplits() {
        Ctx ctx = new Ctx(3, true);
        Numbers e = new Numbers(ctx, 2, false);
        for (int s = 0; s < 3; s++) {
            e.handleSplitDemand(s, 10);
        }
        assertTrue(ctx.noMore.isEmpty(), "an unbounded source never says no more splits");
        e.found(4);
        assertEquals(Arrays.asList(0, 2), ctx.available, "owners of the new splits 2 and 3");
        e.found(3);
        assertEquals(4, e.count(), "a smaller count is ignored");
        e.handleSplitDemand(0, 10);
        assertEquals(Arrays.asList(0, 3), ctx.assigned.get(0));
        Numbers bounded = new Numbers(new Ctx(1, true), 1, true);
        assertThrows(IllegalStateException.class, () -> bounded.found(2));
    }

    private static NumberedSplitState<NumberSplit> snapshot(Numbers e) {
        try {
            return e.snapshotState(1);
        } catch (Exception x) {
            throw new AssertionError(x);
        }
    }
}
