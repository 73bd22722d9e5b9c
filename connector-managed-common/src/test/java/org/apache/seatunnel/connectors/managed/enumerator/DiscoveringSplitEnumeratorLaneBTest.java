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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;
import org.junit.jupiter.api.Test;

/**
 * The base on Lane B's real scheduler ({@code ManagedEnumeratorContext.of} a stock context): the
 * first discovery in {@code run()}, and several engine threads calling back while discovery results
 * arrive on the scheduler thread, with the author's hooks never overlapping and no split out twice.
 */
class DiscoveringSplitEnumeratorLaneBTest {

    /**
     * A stock engine context that records what readers hold and every broken rule.
     *
     * <p>Threading: any thread; every method is synchronized.
     */
    static final class StockContext implements SourceSplitEnumerator.Context<NumberSplit> {
        final int parallelism;
        final Map<Integer, Set<Integer>> held = new TreeMap<>();
        final Set<Integer> told = new TreeSet<>();
        final List<String> violations = new ArrayList<>();
        int assignments;

        StockContext(int parallelism) {
            this.parallelism = parallelism;
        }

        synchronized void registered(int subtask) {
            told.remove(subtask);
        }

        synchronized List<NumberSplit> takeBack(int subtask) {
            List<NumberSplit> back = new ArrayList<>();
            Set<Integer> mine = held.remove(subtask);
            if (mine != null) {
                for (int n : mine) {
                    back.add(new NumberSplit(n));
                }
            }
            return back;
        }

        synchronized Set<Integer> allHeld() {
            Set<Integer> all = new TreeSet<>();
            for (Set<Integer> s : held.values()) {
                all.addAll(s);
            }
            return all;
        }

        synchronized Set<Integer> told() {
            return new TreeSet<>(told);
        }

        synchronized List<String> violations() {
            return new ArrayList<>(violations);
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public synchronized Set<Integer> registeredReaders() {
            return new HashSet<>();
        }

        @Override
        public synchronized void assignSplit(int subtaskId, List<NumberSplit> splits) {
            assignments++;
            if (told.contains(subtaskId)) {
                violations.add("assigned to " + subtaskId + " after no-more-splits");
            }
            Set<Integer> all = allHeld();
            for (NumberSplit s : splits) {
                if (!all.add(s.n)) {
                    violations.add("split " + s.n + " assigned while held");
                }
                held.computeIfAbsent(subtaskId, k -> new LinkedHashSet<>()).add(s.n);
            }
        }

        @Override
        public synchronized void signalNoMoreSplits(int subtask) {
            if (!told.add(subtask)) {
                violations.add("no-more-splits to " + subtask + " twice");
            }
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

    @Test
    void runWaitsForTheFirstDiscoveryAndThrowsItsFailure() throws Exception {
        StockContext ctx = new StockContext(2);
        NumberDiscovery ok =
                new NumberDiscovery(
                        ctx, DiscoveryState.initial(0L), DiscoveryConfig.defaults(), 4, 2, 4);
        ok.registerReader(0);
        ok.registerReader(1);
        ok.run();
        // run() returned after the first result was applied: no waiting needed here.
        assertEquals(new TreeSet<>(Arrays.asList(0, 1, 2, 3)), ctx.allHeld());
        assertEquals(new TreeSet<>(Arrays.asList(0, 1)), ctx.told());
        ok.close();

        NumberDiscovery failing =
                new NumberDiscovery(
                        new StockContext(1),
                        DiscoveryState.initial(0L),
                        DiscoveryConfig.defaults(),
                        4,
                        2,
                        4);
        IOException cause = new IOException("no such bucket");
        failing.failNext = cause;
        IllegalStateException thrown = assertThrows(IllegalStateException.class, failing::run);
        assertSame(cause, thrown.getCause(), "the job fails with the discovery's own cause");
        failing.close();
    }

    @Test
    void engineThreadsAndDiscoveryResultsNeverRunTheAuthorsHooksAtOnce() throws Exception {
        long seed = Long.getLong("discovery.seed", System.nanoTime());
        System.out.println("DiscoveringSplitEnumeratorLaneBTest seed: " + seed);
        int parallelism = 4;
        int total = 600;
        StockContext ctx = new StockContext(parallelism);
        DiscoveryConfig config = DiscoveryConfig.builder().interval(1).maxPendingSplits(50).build();
        NumberDiscovery e =
                new NumberDiscovery(ctx, DiscoveryState.initial(0L), config, 3, 7, total);
        e.ownerSpins = 2_000;
        e.open();
        e.run();
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger snapshots = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t <= parallelism; t++) {
            int subtask = t;
            Random random = new Random(seed + t);
            threads.add(
                    new Thread(
                            () -> {
                                try {
                                    go.await();
                                    for (int i = 0; i < 400; i++) {
                                        if (subtask == parallelism) {
                                            e.snapshotState(i);
                                            snapshots.incrementAndGet();
                                            continue;
                                        }
                                        switch (random.nextInt(4)) {
                                            case 0:
                                                ctx.registered(subtask);
                                                e.registerReader(subtask);
                                                break;
                                            case 1:
                                                e.handleSplitRequest(subtask);
                                                break;
                                            case 2:
                                                e.addSplitsBack(ctx.takeBack(subtask), subtask);
                                                break;
                                            default:
                                                e.currentUnassignedSplitSize();
                                        }
                                    }
                                } catch (Throwable x) {
                                    synchronized (errors) {
                                        errors.add(x);
                                    }
                                }
                            },
                            "engine-" + t));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread t : threads) {
            t.join(60_000);
            assertTrue(!t.isAlive(), t.getName() + " did not finish");
        }
        assertTrue(errors.isEmpty(), "callbacks threw: " + errors);
        for (int s = 0; s < parallelism; s++) {
            ctx.registered(s);
            e.registerReader(s);
        }
        Set<Integer> all = new TreeSet<>();
        for (int n = 0; n < total; n++) {
            all.add(n);
        }
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> ctx.told().size() == parallelism);
        e.close();
        assertEquals(all, ctx.allHeld(), "every split held by its reader, once");
        assertEquals(new ArrayList<String>(), ctx.violations());
        assertEquals(0, e.overlaps.get(), "the author's hooks overlapped");
        assertTrue(e.discoveries.get() > 10, "discovery ran while the threads called");
    }
}
