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

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.common.metrics.AbstractMetricsContext;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumeratorTest.NumberSplit;

/**
 * A managed enumerator context whose scheduler the test runs by hand, and which checks the rules of
 * the runtime as it goes: at most one discovery in flight, no split assigned while a reader holds
 * it, no assignment to a reader after it was told no more splits (until it registers again), and
 * no-more-splits only when the enumerator's own state says it is true.
 *
 * <p>Threading: the test thread only (it stands for the coordinator loop).
 */
final class ManualDiscoveryContext implements ManagedEnumeratorContext<NumberSplit> {
    final int parallelism;
    final boolean demand;

    /** One async call the test has not run yet. */
    static final class Call {
        final AsyncTaskKey key;
        final Callable<?> callable;
        final BiConsumer<Object, Throwable> handler;
        final AsyncTaskOptions options;

        @SuppressWarnings("unchecked")
        Call(AsyncTaskKey key, Callable<?> c, BiConsumer<?, Throwable> h, AsyncTaskOptions o) {
            this.key = key;
            this.callable = c;
            this.handler = (BiConsumer<Object, Throwable>) h;
            this.options = o;
        }
    }

    final ArrayDeque<Call> calls = new ArrayDeque<>();
    final List<AsyncTaskOptions> issued = new ArrayList<>();
    Runnable once;
    Duration onceDelay;
    final Map<Integer, Set<Integer>> held = new TreeMap<>();
    final Map<Integer, List<Integer>> assignedOrder = new TreeMap<>();
    final Set<Integer> told = new TreeSet<>();
    final List<Integer> noMoreSignals = new ArrayList<>();
    final List<Integer> available = new ArrayList<>();
    final List<Throwable> failedCoordinator = new ArrayList<>();
    DiscoveringSplitEnumerator<NumberSplit, Long> enumerator;
    boolean closed;
    final Metrics metrics = new Metrics();
    // Lane B's scheduler: no coordinator to fail, every failure goes to the handler
    boolean stockScheduler;

    /** SeaTunnel's metrics context with nothing added, as the engine's. */
    static final class Metrics extends AbstractMetricsContext {
        private static final long serialVersionUID = 1L;

        long value(String name) {
            return counter(name).getCount();
        }
    }

    ManualDiscoveryContext(int parallelism, boolean demand) {
        this.parallelism = parallelism;
        this.demand = demand;
    }

    // ------------------------------------------------------------------ driving

    /** Runs the one pending discovery on this thread and hands its result to the enumerator. */
    boolean runDiscovery() {
        Call c = calls.pollFirst();
        if (c == null) {
            return false;
        }
        Object result = null;
        Throwable error = null;
        try {
            result = c.callable.call();
        } catch (Throwable t) {
            error = t;
        }
        deliver(c, result, error);
        return true;
    }

    /** Fails the pending discovery with {@code error}, as a timeout or a broker outage would. */
    void failDiscovery(Throwable error) {
        Call c = calls.pollFirst();
        if (c == null) {
            throw new AssertionError("no discovery in flight");
        }
        deliver(c, null, error);
    }

    private void deliver(Call c, Object result, Throwable error) {
        if (error != null
                && !stockScheduler
                && c.options.failurePolicy() == AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR) {
            // Lane A's runtime: the handler never sees it, the job fails.
            failedCoordinator.add(error);
            return;
        }
        c.handler.accept(result, error);
    }

    /** Runs the pending one-shot schedule (the next periodic discovery), if any. */
    boolean tick() {
        Runnable r = once;
        once = null;
        if (r == null) {
            return false;
        }
        r.run();
        return true;
    }

    /** A reader failed: its splits come back, as on a restore of the reader's state. */
    List<NumberSplit> takeBack(int subtask) {
        List<NumberSplit> back = new ArrayList<>();
        for (int n : held.getOrDefault(subtask, new HashSet<>())) {
            back.add(new NumberSplit(n));
        }
        held.remove(subtask);
        return back;
    }

    Set<Integer> allHeld() {
        Set<Integer> all = new TreeSet<>();
        for (Set<Integer> s : held.values()) {
            all.addAll(s);
        }
        return all;
    }

    // ------------------------------------------------------------------ context

    @Override
    public CoordinatorScheduler scheduler() {
        return new CoordinatorScheduler() {
            @Override
            public <T> Cancellable callAsync(
                    AsyncTaskKey key,
                    Callable<T> callable,
                    BiConsumer<T, Throwable> resultHandler,
                    AsyncTaskOptions options) {
                if (!calls.isEmpty()) {
                    throw new AssertionError("a second discovery while one is in flight");
                }
                calls.add(new Call(key, callable, resultHandler, options));
                issued.add(options);
                return handle();
            }

            @Override
            public Cancellable scheduleInCoordinatorThread(
                    AsyncTaskKey key, Duration delay, Runnable task) {
                throw new UnsupportedOperationException("the base schedules one-shots");
            }

            @Override
            public Cancellable scheduleOnceInCoordinatorThread(
                    AsyncTaskKey key, Duration delay, Runnable task) {
                once = task;
                onceDelay = delay;
                return new Cancellable() {
                    @Override
                    public boolean cancel() {
                        boolean was = once == task;
                        if (was) {
                            once = null;
                        }
                        return was;
                    }

                    @Override
                    public boolean isCancelled() {
                        return once != task;
                    }
                };
            }
        };
    }

    private static Cancellable handle() {
        return new Cancellable() {
            @Override
            public boolean cancel() {
                return false;
            }

            @Override
            public boolean isCancelled() {
                return false;
            }
        };
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
    public void close() {
        closed = true;
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public Set<Integer> registeredReaders() {
        return new HashSet<>();
    }

    /** A reader registering (again, after a failure): it may be told no more splits anew. */
    void registered(int subtask) {
        told.remove(subtask);
    }

    @Override
    public void assignSplit(int subtaskId, List<NumberSplit> splits) {
        if (told.contains(subtaskId)) {
            throw new AssertionError("splits assigned to reader " + subtaskId + " after no-more");
        }
        Set<Integer> all = allHeld();
        for (NumberSplit s : splits) {
            if (!all.add(s.n)) {
                throw new AssertionError("split " + s.n + " handed out while a reader holds it");
            }
            if (s.n % parallelism != subtaskId) {
                throw new AssertionError("split " + s.n + " assigned to non-owner " + subtaskId);
            }
            held.computeIfAbsent(subtaskId, k -> new LinkedHashSet<>()).add(s.n);
            assignedOrder.computeIfAbsent(subtaskId, k -> new ArrayList<>()).add(s.n);
        }
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        try {
            DiscoveryState<NumberSplit, Long> state = enumerator.snapshotState(-1);
            if (!state.finished()) {
                throw new AssertionError(
                        "no-more-splits to " + subtask + " before discovery ended");
            }
            for (NumberSplit s : state.pending()) {
                if (s.n % parallelism == subtask) {
                    throw new AssertionError(
                            "no-more-splits to " + subtask + " while split " + s.n + " waits");
                }
            }
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        if (!told.add(subtask)) {
            throw new AssertionError("no-more-splits to " + subtask + " twice");
        }
        noMoreSignals.add(subtask);
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

    @Override
    public MetricsContext getMetricsContext() {
        return metrics;
    }

    @Override
    public EventListener getEventListener() {
        return event -> {};
    }
}
