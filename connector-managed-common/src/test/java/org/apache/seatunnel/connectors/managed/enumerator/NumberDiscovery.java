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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;

/**
 * A discovering enumerator of numbered splits: the first discovery finds {@code first} splits, each
 * later one {@code step} more (at most its budget), until {@code total}; split {@code n} belongs to
 * subtask {@code n % parallelism}. It counts how often its hooks ran at the same time as
 * themselves, which the base promises never happens.
 *
 * <p>Threading: as the base's contract; the counters are atomic so any thread may read them.
 */
class NumberDiscovery extends DiscoveringSplitEnumerator<NumberSplit, Long> {
    final int first;
    final int step;
    final int total;
    final AtomicInteger ownerInside = new AtomicInteger();
    final AtomicInteger discoverInside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicInteger discoveries = new AtomicInteger();
    final List<Integer> budgets = new ArrayList<>();
    // set by the test thread, read by discover(): the next discovery throws it once
    volatile Exception failNext;
    // spin inside owner() so that an unserialised caller would overlap visibly
    volatile int ownerSpins;

    NumberDiscovery(
            SourceSplitEnumerator.Context<NumberSplit> context,
            DiscoveryState<NumberSplit, Long> state,
            DiscoveryConfig config,
            int first,
            int step,
            int total) {
        super(context, state, config);
        this.first = first;
        this.step = step;
        this.total = total;
    }

    @Override
    protected DiscoveryResult<NumberSplit, Long> discover(Long cursor, int budget)
            throws Exception {
        if (discoverInside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        try {
            discoveries.incrementAndGet();
            synchronized (budgets) {
                budgets.add(budget);
            }
            Exception fail = failNext;
            if (fail != null) {
                failNext = null;
                throw fail;
            }
            long from = cursor;
            long want = from == 0 ? first : step;
            long to = Math.min(total, from + Math.min(want, budget));
            List<NumberSplit> found = new ArrayList<>();
            for (long n = from; n < to; n++) {
                found.add(new NumberSplit((int) n));
            }
            return to >= total ? DiscoveryResult.last(found, to) : DiscoveryResult.more(found, to);
        } finally {
            discoverInside.decrementAndGet();
        }
    }

    @Override
    protected int owner(NumberSplit split, int parallelism) {
        if (ownerInside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        try {
            for (int i = ownerSpins; i > 0; i--) {
                Thread.onSpinWait();
            }
            return split.n % parallelism;
        } finally {
            ownerInside.decrementAndGet();
        }
    }
}
