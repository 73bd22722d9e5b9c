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

package org.apache.seatunnel.api.source.managed;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Lane B scheduler that {@link ManagedEnumeratorContext#of} adds to a stock engine context:
 * everything runs on its one named daemon thread, one-shots run once, repeating schedules keep a
 * fixed delay, async results reach their handler on that thread, and close stops the thread. Waits
 * are bounded latches and awaitility conditions on real time; nothing asserts a duration except the
 * lower bounds a scheduler must respect (never early).
 */
class SingleThreadCoordinatorSchedulerTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final AsyncTaskKey K = AsyncTaskKey.of("k");

    private final StockContext engine = new StockContext();
    private ManagedEnumeratorContext<Split> context;

    private SingleThreadCoordinatorScheduler scheduler() {
        context = ManagedEnumeratorContext.of(engine);
        return (SingleThreadCoordinatorScheduler) context.scheduler();
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void ofWrapsAStockContextOnceAndDelegatesEveryEngineCall() {
        ManagedEnumeratorContext<Split> managed = ManagedEnumeratorContext.of(engine);
        context = managed;
        assertSame(managed, ManagedEnumeratorContext.of(managed), "a managed context is returned");
        assertSame(managed.scheduler(), managed.scheduler(), "one scheduler per context");
        managed.assignSplit(1, new Split("a"));
        managed.signalNoMoreSplits(1);
        assertEquals(List.of("assign:1:[a]", "noMoreSplits:1"), engine.calls);
        assertEquals(3, managed.currentParallelism());
    }

    @Test
    void oneShotRunsOnceOnTheSchedulerThreadAfterItsDelay() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch ran = new CountDownLatch(1);
        long scheduledAt = System.nanoTime();
        AtomicReference<Long> ranAfter = new AtomicReference<>();
        Cancellable handle =
                s.scheduleOnceInCoordinatorThread(
                        K,
                        Duration.ofMillis(50),
                        () -> {
                            ranAfter.set(System.nanoTime() - scheduledAt);
                            threads.add(Thread.currentThread().getName());
                            ran.countDown();
                        });
        assertTrue(ran.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(ranAfter.get() >= TimeUnit.MILLISECONDS.toNanos(50), "never early");
        assertEquals(List.of(s.threadName()), threads);
        assertTrue(s.threadName().startsWith(SingleThreadCoordinatorScheduler.THREAD_NAME_PREFIX));
        assertFalse(handle.cancel(), "a one-shot that ran can no longer be cancelled");
        assertFalse(handle.isCancelled());
        // Once: a later barrier task on the same thread proves no second run was queued before it.
        CountDownLatch barrier = new CountDownLatch(1);
        s.scheduleOnceInCoordinatorThread(
                AsyncTaskKey.of("barrier"), Duration.ofMillis(100), barrier::countDown);
        assertTrue(barrier.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(1, threads.size());
    }

    @Test
    void oneShotCancelledBeforeItFallsDueNeverRuns() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        AtomicInteger runs = new AtomicInteger();
        Cancellable handle =
                s.scheduleOnceInCoordinatorThread(K, Duration.ofMillis(200), runs::incrementAndGet);
        assertTrue(handle.cancel());
        assertFalse(handle.cancel(), "idempotent");
        assertTrue(handle.isCancelled());
        CountDownLatch later = new CountDownLatch(1);
        s.scheduleOnceInCoordinatorThread(
                AsyncTaskKey.of("later"), Duration.ofMillis(400), later::countDown);
        assertTrue(later.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(0, runs.get());
    }

    @Test
    void pendingKeyCoalescesAndTheOtherKindIsRefused() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<String> runs = new CopyOnWriteArrayList<>();
        CountDownLatch ran = new CountDownLatch(1);
        Cancellable first =
                s.scheduleOnceInCoordinatorThread(K, Duration.ofMillis(100), () -> runs.add("1"));
        Cancellable second =
                s.scheduleOnceInCoordinatorThread(
                        K,
                        Duration.ofMillis(100),
                        () -> {
                            runs.add("2");
                            ran.countDown();
                        });
        assertSame(first, second);
        assertThrows(
                IllegalStateException.class,
                () -> s.scheduleInCoordinatorThread(K, Duration.ofMillis(1), () -> {}));
        assertTrue(ran.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(List.of("2"), runs);
    }

    @Test
    void repeatingScheduleKeepsAFixedDelayAfterEachRunUntilCancelled() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<Long> starts = new CopyOnWriteArrayList<>();
        List<Long> ends = new CopyOnWriteArrayList<>();
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger maxConcurrent = new AtomicInteger();
        CountDownLatch three = new CountDownLatch(3);
        Cancellable handle =
                s.scheduleInCoordinatorThread(
                        K,
                        Duration.ofMillis(30),
                        () -> {
                            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                            starts.add(System.nanoTime());
                            // Busy for a while: fixed delay counts from the end of a run.
                            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
                            while (System.nanoTime() < until) {
                                Thread.onSpinWait();
                            }
                            ends.add(System.nanoTime());
                            concurrent.decrementAndGet();
                            three.countDown();
                        });
        assertTrue(three.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(handle.cancel());
        int afterCancel = starts.size();
        for (int i = 1; i < 3; i++) {
            long gap = starts.get(i) - ends.get(i - 1);
            assertTrue(gap >= TimeUnit.MILLISECONDS.toNanos(30), "gap " + gap + " ns");
        }
        assertEquals(1, maxConcurrent.get(), "no re-entry");
        CountDownLatch barrier = new CountDownLatch(1);
        s.scheduleOnceInCoordinatorThread(
                AsyncTaskKey.of("barrier"), Duration.ofMillis(100), barrier::countDown);
        assertTrue(barrier.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(afterCancel, starts.size(), "no run after cancel");
    }

    @Test
    void repeatingScheduleWhoseTaskThrowsIsCancelled() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        AtomicInteger runs = new AtomicInteger();
        Cancellable handle =
                s.scheduleInCoordinatorThread(
                        K,
                        Duration.ofMillis(10),
                        () -> {
                            runs.incrementAndGet();
                            throw new IllegalStateException("boom");
                        });
        await().atMost(BOUND).until(handle::isCancelled);
        assertEquals(1, runs.get());
    }

    @Test
    void callAsyncRunsTheCallableAndThenItsHandlerOnTheSchedulerThread() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicReference<String> result = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        s.callAsync(
                K,
                () -> {
                    threads.add("call@" + Thread.currentThread().getName());
                    return "v";
                },
                (r, e) -> {
                    threads.add("handler@" + Thread.currentThread().getName());
                    result.set(e == null ? r : e.toString());
                    handled.countDown();
                },
                AsyncTaskOptions.defaults());
        assertTrue(handled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals("v", result.get());
        assertEquals(List.of("call@" + s.threadName(), "handler@" + s.threadName()), threads);
    }

    @Test
    void callAsyncTimeoutRejectionAndFailureReachTheirHandlersInOrder() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<String> results = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        AsyncTaskOptions reject =
                AsyncTaskOptions.builder()
                        .overlapPolicy(AsyncTaskOptions.OverlapPolicy.REJECT)
                        .timeout(Duration.ofMillis(50))
                        .build();
        s.callAsync(
                K,
                () -> {
                    // Slow work that outlives its 50 ms timeout (a latch nobody counts down).
                    new CountDownLatch(1).await(150, TimeUnit.MILLISECONDS);
                    return "late";
                },
                (r, e) -> {
                    results.add("k:" + (e == null ? r : e.getClass().getSimpleName()));
                    three.countDown();
                },
                reject);
        // The first call of K is queued or running: REJECT refuses a second one.
        s.callAsync(
                K,
                () -> "second",
                (r, e) -> {
                    results.add("k2:" + (e == null ? r : e.getClass().getSimpleName()));
                    three.countDown();
                },
                reject);
        s.callAsync(
                AsyncTaskKey.of("fails"),
                () -> {
                    throw new IllegalArgumentException("x");
                },
                (r, e) -> {
                    results.add("fails:" + (e == null ? r : e.getClass().getSimpleName()));
                    three.countDown();
                },
                AsyncTaskOptions.defaults());
        assertTrue(three.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(
                List.of(
                        "k:" + TimeoutException.class.getSimpleName(),
                        "k2:" + RejectedExecutionException.class.getSimpleName(),
                        "fails:IllegalArgumentException"),
                results,
                "one thread: handlers in submission order");
    }

    @Test
    void coalesceOneKeepsOnlyTheNewestWaitingCall() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        List<String> results = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch two = new CountDownLatch(2);
        List<Cancellable> handles = new ArrayList<>();
        for (String v : List.of("1", "2", "3")) {
            handles.add(
                    s.callAsync(
                            K,
                            () -> {
                                gate.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                                return v;
                            },
                            (r, e) -> {
                                results.add(e == null ? r : e.toString());
                                two.countDown();
                            },
                            AsyncTaskOptions.defaults()));
        }
        assertTrue(handles.get(1).isCancelled(), "replaced by the newer waiting call");
        gate.countDown();
        assertTrue(two.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(List.of("1", "3"), results);
    }

    @Test
    void closeStopsTheThreadAndRefusesLaterWork() throws Exception {
        SingleThreadCoordinatorScheduler s = scheduler();
        AtomicReference<Thread> thread = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        s.scheduleOnceInCoordinatorThread(
                K,
                Duration.ZERO,
                () -> {
                    thread.set(Thread.currentThread());
                    ran.countDown();
                });
        assertTrue(ran.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(thread.get().isDaemon());
        AtomicInteger lateRuns = new AtomicInteger();
        Cancellable pending =
                s.scheduleOnceInCoordinatorThread(
                        AsyncTaskKey.of("pending"),
                        Duration.ofMillis(50),
                        lateRuns::incrementAndGet);
        context.close();
        context.close(); // idempotent
        assertTrue(pending.isCancelled(), "close cancels what is pending");
        await().atMost(BOUND).until(() -> !thread.get().isAlive());
        assertTrue(s.isTerminated());
        Cancellable after =
                s.scheduleOnceInCoordinatorThread(K, Duration.ZERO, lateRuns::incrementAndGet);
        assertTrue(after.isCancelled(), "a closed scheduler hands back a cancelled handle");
        Cancellable call =
                s.callAsync(
                        K,
                        () -> "x",
                        (r, e) -> lateRuns.incrementAndGet(),
                        AsyncTaskOptions.defaults());
        assertTrue(call.isCancelled());
        assertEquals(0, lateRuns.get());
        assertNotSame(
                s,
                ManagedEnumeratorContext.of(engine).scheduler(),
                "a new wrapper, a new scheduler");
    }

    /** A split with an id. */
    static final class Split implements SourceSplit {
        private static final long serialVersionUID = 1L;
        final String id;

        Split(String id) {
            this.id = id;
        }

        @Override
        public String splitId() {
            return id;
        }

        @Override
        public String toString() {
            return id;
        }
    }

    /** Stands in for the stock engine's context: records calls. */
    static final class StockContext implements SourceSplitEnumerator.Context<Split> {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public int currentParallelism() {
            return 3;
        }

        @Override
        public Set<Integer> registeredReaders() {
            return Set.of(0, 1);
        }

        @Override
        public void assignSplit(int subtaskIndex, List<Split> splits) {
            calls.add("assign:" + subtaskIndex + ":" + splits);
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            calls.add("noMoreSplits:" + subtask);
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
            calls.add("event:" + subtaskId);
        }

        @Override
        public MetricsContext getMetricsContext() {
            return null;
        }

        @Override
        public EventListener getEventListener() {
            return null;
        }
    }
}
