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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.junit.jupiter.api.Test;

/**
 * The scheduler through a real loop, with manual worker executor and timer: stale epochs, timeouts,
 * cancellation, classloader, bounds, overlap policies, fixed-delay ticks and one-shots.
 */
class CoordinatorSchedulerImplTest {
    private static final AsyncTaskKey K = AsyncTaskKey.of("k");

    private final List<String> results = new ArrayList<>();
    private final List<Boolean> handlerOnLoop = new ArrayList<>();
    private LoopFixture f;

    private LoopFixture fixture() {
        f = new LoopFixture(LoopFixture.config(1).build(), LoopFixture.splits(0), false, null);
        f.loop.open();
        f.drain();
        return f;
    }

    /** Runs {@code body} on the loop (as an enumerator callback would) and drains. */
    private void onLoop(Consumer<CoordinatorScheduler> body) {
        f.enumerator.onCallback =
                name -> {
                    if (name.startsWith("handleSourceEvent")) {
                        body.accept(f.loop.scheduler());
                    }
                };
        f.loop.registerReader(0, 1);
        f.loop.handleSourceEvent(0, 1, new org.apache.seatunnel.api.source.SourceEvent() {});
        f.drain();
        f.enumerator.onCallback = name -> {};
    }

    private <T> BiConsumer<T, Throwable> handler(String name) {
        return (r, e) -> {
            results.add(name + ":" + (e != null ? e.getClass().getSimpleName() : r));
            handlerOnLoop.add(f.loop.isOwnerThread());
        };
    }

    private Cancellable call(
            CoordinatorScheduler s, AsyncTaskKey key, Callable<String> c, AsyncTaskOptions o) {
        return s.callAsync(key, c, handler(key.name()), o);
    }

    @Test
    void resultHandlerRunsOnTheLoopWithImmutableInput() {
        fixture();
        onLoop(s -> call(s, K, () -> "v", AsyncTaskOptions.defaults()));
        assertTrue(results.isEmpty(), "nothing runs before a worker does");
        f.workers.runAll();
        assertTrue(results.isEmpty(), "the result is only posted to the loop");
        f.drain();
        assertEquals(List.of("k:v"), results);
        assertEquals(List.of(true), handlerOnLoop);
        assertEquals(0, f.timer.pending(), "timeout disarmed");
    }

    @Test
    void resultOfAStaleEpochIsDroppedAndCounted() {
        fixture();
        AsyncTaskOptions keepRunning = AsyncTaskOptions.builder().cancelOnClose(false).build();
        onLoop(s -> call(s, K, () -> "late", keepRunning));
        // Coordinator failover: the epoch-1 loop closes while its task is still queued.
        f.loop.close();
        f.drain();
        f.workers.runAll();
        f.drain();
        assertTrue(results.isEmpty());
        assertEquals(1, f.count(Counter.STALE_RESULTS));
    }

    @Test
    void cancelOnCloseCancelsAndTheCallableNeverRuns() {
        fixture();
        List<String> ran = new ArrayList<>();
        onLoop(
                s ->
                        call(
                                s,
                                K,
                                () -> {
                                    ran.add("x");
                                    return "x";
                                },
                                AsyncTaskOptions.defaults()));
        f.loop.close();
        f.drain();
        f.workers.runAll();
        f.drain();
        assertTrue(ran.isEmpty());
        assertTrue(results.isEmpty());
    }

    @Test
    void timeoutDeliversTimeoutExceptionAndFencesTheLateResult() {
        fixture();
        AsyncTaskOptions o = AsyncTaskOptions.builder().timeout(Duration.ofSeconds(2)).build();
        onLoop(s -> call(s, K, () -> "slow", o));
        f.timer.advance(Duration.ofMillis(1999));
        f.drain();
        assertTrue(results.isEmpty());
        f.timer.advance(Duration.ofMillis(1));
        f.drain();
        assertEquals(List.of("k:TimeoutException"), results);
        f.workers.runAll();
        f.drain();
        assertEquals(1, results.size(), "late result dropped");
        assertEquals(1, f.count(Counter.ASYNC_TIMEOUTS));
        assertEquals(1, f.count(Counter.CANCELLED_RESULTS));
    }

    @Test
    void cancellationBeforeRunAndBeforeDelivery() {
        fixture();
        AtomicReference<Cancellable> first = new AtomicReference<>();
        AtomicReference<Cancellable> second = new AtomicReference<>();
        List<String> ran = new ArrayList<>();
        onLoop(
                s -> {
                    first.set(
                            call(
                                    s,
                                    K,
                                    () -> {
                                        ran.add("a");
                                        return "a";
                                    },
                                    AsyncTaskOptions.defaults()));
                    second.set(
                            call(s, AsyncTaskKey.of("k2"), () -> "b", AsyncTaskOptions.defaults()));
                });
        assertTrue(first.get().cancel());
        assertFalse(first.get().cancel(), "idempotent");
        assertTrue(first.get().isCancelled());
        f.workers.runAll(); // first is skipped, second computes
        assertTrue(second.get().cancel(), "result not delivered yet: still cancellable");
        f.drain();
        assertTrue(ran.isEmpty());
        assertTrue(results.isEmpty());
        assertEquals(2, f.count(Counter.CANCELLED_RESULTS));
    }

    @Test
    void contextClassLoaderIsTheConnectorsDuringTheCallAndRestoredAfter() {
        fixture();
        AtomicReference<ClassLoader> during = new AtomicReference<>();
        onLoop(
                s ->
                        call(
                                s,
                                K,
                                () -> {
                                    during.set(Thread.currentThread().getContextClassLoader());
                                    return "ok";
                                },
                                AsyncTaskOptions.defaults()));
        ClassLoader worker = new ClassLoader(null) {};
        Thread t = Thread.currentThread();
        ClassLoader original = t.getContextClassLoader();
        t.setContextClassLoader(worker);
        try {
            f.workers.runAll();
            assertSame(worker, t.getContextClassLoader(), "restored after the call");
        } finally {
            t.setContextClassLoader(original);
        }
        assertSame(LoopFixture.CONNECTOR_LOADER, during.get());
        // Also restored when the callable throws.
        onLoop(
                s ->
                        call(
                                s,
                                K,
                                () -> {
                                    throw new IllegalStateException("x");
                                },
                                AsyncTaskOptions.defaults()));
        t.setContextClassLoader(worker);
        try {
            f.workers.runAll();
            assertSame(worker, t.getContextClassLoader());
        } finally {
            t.setContextClassLoader(original);
        }
        f.drain();
        assertEquals("k:IllegalStateException", results.get(results.size() - 1));
    }

    @Test
    void perCoordinatorConcurrencyAndQueueAreBounded() {
        ManualExecutor workers = new ManualExecutor();
        SourceAsyncWorkerPool pool = new SourceAsyncWorkerPool(workers);
        f =
                new LoopFixture(
                        LoopFixture.config(1).asyncBounds(2, 1).build(),
                        LoopFixture.splits(0),
                        false,
                        null,
                        pool);
        f.loop.open();
        f.drain();
        onLoop(
                s -> {
                    for (int i = 0; i < 4; i++) {
                        call(s, AsyncTaskKey.of("t" + i), () -> "v", AsyncTaskOptions.defaults());
                    }
                });
        assertEquals(2, workers.pending(), "two run, one waits, one refused");
        assertEquals(1, pool.rejected());
        f.drain();
        assertEquals(List.of("t3:RejectedExecutionException"), results);
        workers.runOne();
        assertEquals(2, workers.pending(), "the finished slot passed to the waiting task");
        workers.runAll();
        f.drain();
        assertEquals(4, results.size());
        assertEquals(1, f.count(Counter.ASYNC_REJECTED));
        assertEquals(1, pool.openShares());
        f.loop.close();
        f.drain();
        assertEquals(0, pool.openShares(), "the coordinator's lane is released with it");
    }

    @Test
    void coalesceOneKeepsOnlyTheNewestWaitingSubmission() {
        fixture();
        onLoop(
                s -> {
                    call(s, K, () -> "1", AsyncTaskOptions.defaults());
                    call(s, K, () -> "2", AsyncTaskOptions.defaults());
                    call(s, K, () -> "3", AsyncTaskOptions.defaults());
                });
        assertEquals(1, f.workers.pending(), "no overlap per key");
        f.workers.runAll();
        f.drain();
        f.workers.runAll();
        f.drain();
        assertEquals(List.of("k:1", "k:3"), results);
        assertEquals(1, f.count(Counter.ASYNC_COALESCED));
    }

    @Test
    void rejectPolicyRefusesAnOverlappingSubmission() {
        fixture();
        AsyncTaskOptions reject =
                AsyncTaskOptions.builder()
                        .overlapPolicy(AsyncTaskOptions.OverlapPolicy.REJECT)
                        .build();
        onLoop(
                s -> {
                    call(s, K, () -> "1", reject);
                    call(s, K, () -> "2", reject);
                });
        assertEquals(List.of("k:RejectedExecutionException"), results);
        f.workers.runAll();
        f.drain();
        assertEquals(List.of("k:RejectedExecutionException", "k:1"), results);
    }

    @Test
    void failCoordinatorPolicyGoesToTheFailureHandler() {
        fixture();
        AsyncTaskOptions o =
                AsyncTaskOptions.builder()
                        .failurePolicy(AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR)
                        .build();
        onLoop(
                s ->
                        call(
                                s,
                                K,
                                () -> {
                                    throw new RejectedExecutionException("boom");
                                },
                                o));
        f.workers.runAll();
        f.drain();
        assertTrue(results.isEmpty());
        assertEquals(List.of("async task k"), f.failures);
    }

    @Test
    void fixedDelayTickRunsOnTheLoopWithoutReentryAndCoalesces() {
        fixture();
        List<Long> runs = new ArrayList<>();
        AtomicReference<Cancellable> handle = new AtomicReference<>();
        onLoop(
                s ->
                        handle.set(
                                s.scheduleInCoordinatorThread(
                                        K,
                                        Duration.ofMillis(100),
                                        () -> runs.add(f.timer.nowMillis()))));
        f.timer.advance(Duration.ofMillis(100));
        f.timer.advance(Duration.ofMillis(300));
        assertTrue(runs.isEmpty(), "ticks only post; the loop has not drained");
        assertEquals(0, f.timer.pending(), "not re-armed before the run: no pile-up");
        f.drain();
        assertEquals(1, runs.size());
        f.timer.advance(Duration.ofMillis(100));
        f.drain();
        assertEquals(List.of(400L, 500L), runs, "next run a full delay after the previous one");
        AtomicReference<Cancellable> again = new AtomicReference<>();
        onLoop(
                s ->
                        again.set(
                                s.scheduleInCoordinatorThread(
                                        K, Duration.ofMillis(1), () -> runs.add(-1L))));
        assertSame(handle.get(), again.get(), "same key coalesces into the pending schedule");
        assertTrue(handle.get().cancel());
        f.timer.advance(Duration.ofSeconds(1));
        f.drain();
        assertEquals(2, runs.size());
    }

    @Test
    void oneShotRunsOnceOnTheLoopAfterItsDelay() {
        fixture();
        List<Long> runs = new ArrayList<>();
        List<Boolean> onLoop = new ArrayList<>();
        AtomicReference<Cancellable> handle = new AtomicReference<>();
        onLoop(
                s ->
                        handle.set(
                                s.scheduleOnceInCoordinatorThread(
                                        K,
                                        Duration.ofMillis(100),
                                        () -> {
                                            runs.add(f.timer.nowMillis());
                                            onLoop.add(f.loop.isOwnerThread());
                                        })));
        f.timer.advance(Duration.ofMillis(99));
        f.drain();
        assertTrue(runs.isEmpty(), "not before its delay");
        f.timer.advance(Duration.ofMillis(1));
        assertTrue(runs.isEmpty(), "the timer only posts; the loop has not drained");
        f.drain();
        assertEquals(List.of(100L), runs);
        assertEquals(List.of(true), onLoop);
        assertEquals(0, f.timer.pending(), "never re-armed");
        f.timer.advance(Duration.ofSeconds(10));
        f.drain();
        assertEquals(1, runs.size(), "once");
        assertFalse(handle.get().cancel(), "a one-shot that ran can no longer be cancelled");
        assertFalse(handle.get().isCancelled());
        assertEquals(1, f.count(Counter.TICKS));
    }

    @Test
    void oneShotCancelledBeforeItFiresNeverRuns() {
        fixture();
        List<String> runs = new ArrayList<>();
        AtomicReference<Cancellable> handle = new AtomicReference<>();
        onLoop(
                s ->
                        handle.set(
                                s.scheduleOnceInCoordinatorThread(
                                        K, Duration.ofMillis(100), () -> runs.add("x"))));
        assertTrue(handle.get().cancel());
        assertFalse(handle.get().cancel(), "idempotent");
        assertTrue(handle.get().isCancelled());
        assertEquals(0, f.timer.pending(), "the timer handle was cancelled too");
        f.timer.advance(Duration.ofSeconds(1));
        f.drain();
        assertTrue(runs.isEmpty());
        // Cancelled after the timer posted, before the loop ran it: still never runs.
        onLoop(
                s ->
                        handle.set(
                                s.scheduleOnceInCoordinatorThread(
                                        K, Duration.ofMillis(100), () -> runs.add("y"))));
        f.timer.advance(Duration.ofMillis(100));
        assertTrue(handle.get().cancel());
        f.drain();
        assertTrue(runs.isEmpty());
        assertEquals(0, f.count(Counter.TICKS));
    }

    @Test
    void oneShotOfAClosedEpochIsDroppedAndCountedAsStale() {
        fixture();
        List<String> runs = new ArrayList<>();
        onLoop(
                s ->
                        s.scheduleOnceInCoordinatorThread(
                                K, Duration.ofMillis(100), () -> runs.add("x")));
        // Coordinator failover: the epoch closes while its timer thread already holds the due
        // action, so cancelling the timer handle comes too late and the tick still arrives.
        f.loop.close();
        f.drain();
        f.timer.advanceRacingCancel(Duration.ofMillis(100));
        f.drain();
        assertTrue(runs.isEmpty());
        assertEquals(1, f.count(Counter.STALE_RESULTS));
    }

    @Test
    void oneShotKeyIsFreeWhenItRunsAndCoalescesWhilePending() {
        fixture();
        List<String> runs = new ArrayList<>();
        AtomicReference<Cancellable> first = new AtomicReference<>();
        AtomicReference<Cancellable> second = new AtomicReference<>();
        onLoop(
                s -> {
                    first.set(
                            s.scheduleOnceInCoordinatorThread(
                                    K, Duration.ofMillis(100), () -> runs.add("replaced")));
                    second.set(
                            s.scheduleOnceInCoordinatorThread(
                                    K,
                                    Duration.ofMillis(500),
                                    () -> {
                                        runs.add("a@" + f.timer.nowMillis());
                                        // Its key is free again: schedule a follow-up.
                                        f.loop.scheduler()
                                                .scheduleOnceInCoordinatorThread(
                                                        K,
                                                        Duration.ofMillis(50),
                                                        () -> runs.add("b@" + f.timer.nowMillis()));
                                    }));
                });
        assertSame(first.get(), second.get(), "coalesced into the pending one-shot");
        assertEquals(1, f.count(Counter.TICKS_COALESCED));
        f.timer.advance(Duration.ofMillis(100));
        f.drain();
        f.timer.advance(Duration.ofMillis(50));
        f.drain();
        assertEquals(List.of("a@100", "b@150"), runs, "the pending deadline stays");
        AtomicBoolean refused = new AtomicBoolean();
        onLoop(
                s -> {
                    s.scheduleOnceInCoordinatorThread(K, Duration.ofMillis(10), () -> {});
                    try {
                        s.scheduleInCoordinatorThread(K, Duration.ofMillis(10), () -> {});
                    } catch (IllegalStateException e) {
                        refused.set(true);
                    }
                });
        assertTrue(refused.get(), "a pending one-shot key cannot become a repeating schedule");
    }

    @Test
    void oneShotIsLoopOnly() {
        fixture();
        CoordinatorScheduler s = f.loop.context().scheduler();
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> s.scheduleOnceInCoordinatorThread(K, Duration.ZERO, () -> {}));
        assertTrue(e.getMessage().contains("scheduleOnceInCoordinatorThread"));
    }
}
