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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.junit.jupiter.api.Test;

/** The kit's static-list enumerator on demand (Lane A) next to its eager Lane B shape. */
class StaticSplitEnumeratorTest {

    /** A split named by its number; owned by subtask number % parallelism. */
    static final class NumberSplit implements SourceSplit {
        private static final long serialVersionUID = 1L;
        final int n;

        NumberSplit(int n) {
            this.n = n;
        }

        @Override
        public String splitId() {
            return "n-" + n;
        }
    }

    /** Records assignments; on demand when {@code demand}. Threading: the test thread. */
    static class Ctx implements ManagedEnumeratorContext<NumberSplit> {
        final int parallelism;
        final boolean demand;
        final Map<Integer, List<Integer>> assigned = new TreeMap<>();
        final List<Integer> noMore = new ArrayList<>();
        final List<Integer> available = new ArrayList<>();

        Ctx(int parallelism, boolean demand) {
            this.parallelism = parallelism;
            this.demand = demand;
        }

        @Override
        public CoordinatorScheduler scheduler() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean splitDemand() {
            return demand;
        }

        @Override
        public void splitsAvailable(int subtaskId) {
            available.add(subtaskId);
        }

        @Override
        public void close() {}

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Set<Integer> registeredReaders() {
            return new HashSet<>();
        }

        @Override
        public void assignSplit(int subtaskId, List<NumberSplit> splits) {
            for (NumberSplit s : splits) {
                assigned.computeIfAbsent(subtaskId, k -> new ArrayList<>()).add(s.n);
            }
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            noMore.add(subtask);
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

        @Override
        public MetricsContext getMetricsContext() {
            return null;
        }

        @Override
        public EventListener getEventListener() {
            return event -> {};
        }
    }

    static final class ByNumber extends StaticSplitEnumerator<NumberSplit> {
        ByNumber(Ctx ctx, int splits, boolean bounded) {
            super(ctx, numbers(0, splits), bounded);
        }

        @Override
        protected int owner(NumberSplit split, int parallelism) {
            return split.n % parallelism;
        }

        void discovered(int from, int to) {
            addSplits(numbers(from, to));
        }
    }

    static List<NumberSplit> numbers(int from, int to) {
        List<NumberSplit> l = new ArrayList<>();
        for (int i = from; i < to; i++) {
            l.add(new NumberSplit(i));
        }
        return l;
    }

    @Test
    void onDemandAReaderGetsAtMostWhatItIsAskedForOfItsOwnSplits() throws Exception {
        Ctx ctx = new Ctx(2, true);
        ByNumber e = new ByNumber(ctx, 10, true);
        e.registerReader(0);
        e.handleSplitRequest(0);
        assertTrue(ctx.assigned.isEmpty(), "registration and requests assign nothing on demand");
        e.handleSplitDemand(0, 2);
        assertEquals(Arrays.asList(0, 2), ctx.assigned.get(0));
        assertTrue(ctx.noMore.isEmpty());
        e.handleSplitDemand(0, 100);
        assertEquals(Arrays.asList(0, 2, 4, 6, 8), ctx.assigned.get(0));
        assertEquals(Arrays.asList(0), ctx.noMore, "bounded: done once its own are out");
        assertEquals(5, e.snapshotState(1).size(), "subtask 1's splits stay here");
    }

    @Test
    void laneBHandsAReaderAllOfItsSplitsWhenItRegisters() {
        Ctx ctx = new Ctx(2, false);
        ByNumber e = new ByNumber(ctx, 6, true);
        e.registerReader(1);
        assertEquals(Arrays.asList(1, 3, 5), ctx.assigned.get(1));
        assertEquals(Arrays.asList(1), ctx.noMore);
    }

    @Test
    void discoveredSplitsWaitForDemandOnLaneAAndGoOutAtOnceOnLaneB() {
        Ctx a = new Ctx(2, true);
        ByNumber onDemand = new ByNumber(a, 0, false);
        onDemand.registerReader(0);
        onDemand.discovered(0, 3);
        assertTrue(a.assigned.isEmpty());
        assertEquals(Arrays.asList(0, 1), a.available, "the runtime hears of both owners");
        onDemand.handleSplitDemand(0, 5);
        assertEquals(Arrays.asList(0, 2), a.assigned.get(0));

        Ctx b = new Ctx(2, false);
        ByNumber eager = new ByNumber(b, 0, false);
        eager.registerReader(0);
        eager.discovered(0, 3);
        assertEquals(Arrays.asList(0, 2), b.assigned.get(0));
        assertTrue(b.available.isEmpty());
    }

    @Test
    void aBoundedSourceCannotDiscoverSplits() {
        ByNumber e = new ByNumber(new Ctx(1, true), 1, true);
        assertThrows(IllegalStateException.class, () -> e.discovered(1, 2));
    }
}
