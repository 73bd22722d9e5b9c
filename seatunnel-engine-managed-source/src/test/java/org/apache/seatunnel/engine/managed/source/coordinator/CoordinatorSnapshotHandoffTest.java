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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.junit.jupiter.api.Test;

/**
 * The engine's synchronous snapshot demand ({@link CoordinatorEventLoop#snapshotAndWait}) on the
 * caller's thread: no executor hop when the loop is free, a hand-over from a running drain, the
 * strict cut and the single-owner rule kept, the wait bounded, counted and reported.
 */
class CoordinatorSnapshotHandoffTest {

    /** A loop over a {@link TestEnumerator} on the given executor. */
    private static final class Fixture {
        final CoordinatorEventLoop<TestSplit, TestEnumerator.State> loop;
        final AtomicReference<TestEnumerator> enumerator = new AtomicReference<>();
        final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        // Installed on the enumerator when the loop creates it.
        volatile Consumer<String> onCallback = name -> {};

        Fixture(CoordinatorConfig config, Executor executor, int splits) {
            List<TestSplit> s = LoopFixture.splits(splits);
            this.loop =
                    CoordinatorEventLoop.<TestSplit, TestEnumerator.State>builder()
                            .config(config)
                            .enumeratorFactory(
                                    new EnumeratorFactory<TestSplit, TestEnumerator.State>() {
                                        @Override
                                        public TestEnumerator create(
                                                SourceSplitEnumerator.Context<TestSplit> c) {
                                            TestEnumerator e =
                                                    new TestEnumerator(c, s, false, null);
                                            e.onCallback = name -> onCallback.accept(name);
                                            enumerator.set(e);
                                            return e;
                                        }

                                        @Override
                                        public TestEnumerator restore(
                                                SourceSplitEnumerator.Context<TestSplit> c,
                                                TestEnumerator.State st) {
                                            throw new UnsupportedOperationException();
                                        }
                                    })
                            .splitSerializer(new TestSplit.Ser())
                            .stateSerializer(new TestEnumerator.StateSer())
                            .dispatcher((env, cb) -> {})
                            .executor(executor)
                            .timer(new ManualTimer())
                            .workerPool(new SourceAsyncWorkerPool(new ManualExecutor()))
                            .classLoader(LoopFixture.CONNECTOR_LOADER)
                            .failureHandler((where, cause) -> failures.add(cause))
                            .build();
        }

        TestEnumerator enumerator() {
            return enumerator.get();
        }

        long count(Counter c) {
            return loop.metrics().get(c);
        }
    }

    /**
     * Runs its first task on a thread of its own and only queues the rest: a drain rescheduled
     * after the first can then only be taken over by a snapshot caller.
     */
    private static final class FirstTaskOnly implements Executor {
        final List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch go = new CountDownLatch(1);
        private final AtomicBoolean first = new AtomicBoolean(true);

        @Override
        public void execute(Runnable r) {
            if (first.compareAndSet(true, false)) {
                Thread t =
                        new Thread(
                                () -> {
                                    awaitQuietly(go);
                                    r.run();
                                },
                                "first-drain");
                t.setDaemon(true);
                t.start();
            } else {
                queued.add(r);
            }
        }
    }

    private static Fixture opened(CoordinatorConfig config, ManualExecutor executor) {
        Fixture f = new Fixture(config, executor, 3);
        f.loop.open();
        f.loop.registerReader(0, 1);
        executor.runAll();
        return f;
    }

    @Test
    void snapshotOfAnIdleLoopIsTakenOnTheCallerWithoutAnExecutorTask() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        Fixture f = opened(LoopFixture.config(1).build(), executor);
        Thread caller = Thread.currentThread();
        AtomicReference<Thread> snapshotThread = new AtomicReference<>();
        f.enumerator().onCallback =
                name -> {
                    if (name.startsWith("snapshotState")) {
                        snapshotThread.set(Thread.currentThread());
                    }
                };

        byte[] blob = f.loop.snapshotAndWait(5);

        assertEquals(5, CoordinatorSnapshotCodec.decode(blob).checkpointId());
        assertSame(caller, snapshotThread.get(), "the snapshot ran on the engine's thread");
        assertEquals(0, executor.pending(), "no drain task was submitted for it");
        assertEquals(1, f.count(Counter.SNAPSHOTS_ON_CALLER));
        assertTrue(f.loop.tracker() != null && f.failures.isEmpty(), f.failures.toString());
    }

    @Test
    void callerTakesOverAScheduledDrainKeepingTheStrictCut() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        Fixture f = opened(LoopFixture.config(1).build(), executor);
        f.loop.handleSplitRequest(0, 1);
        assertEquals(1, executor.pending(), "a drain is scheduled but has not run");

        byte[] blob = f.loop.snapshotAndWait(2);

        // The request offered before the snapshot is inside it: one of three splits handed out.
        TestEnumerator.State st =
                new TestEnumerator.StateSer()
                        .deserialize(CoordinatorSnapshotCodec.decode(blob).enumeratorState());
        assertEquals(2, st.pending.size());
        List<String> log = new ArrayList<>(f.enumerator().log);
        long applied = f.count(Counter.COMMANDS_APPLIED);
        // The executor's task finds the loop already drained: nothing runs twice.
        executor.runAll();
        assertEquals(log, f.enumerator().log);
        assertEquals(applied, f.count(Counter.COMMANDS_APPLIED));
        assertEquals(
                List.of(
                        "open",
                        "run",
                        "registerReader:0",
                        "handleSplitRequest:0",
                        "snapshotState:2"),
                log);
    }

    @Test
    void aRunningDrainHandsTheLoopToTheWaitingCaller() throws Exception {
        FirstTaskOnly executor = new FirstTaskOnly();
        // The first drain runs open, the registration and the blocked request, then ends with the
        // snapshot still queued; every later drain task is only queued, so the snapshot can only
        // be taken by the caller once that drain hands the loop over.
        Fixture f = new Fixture(LoopFixture.config(1).drainBatch(3).build(), executor, 3);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        f.onCallback =
                name -> {
                    if (name.equals("handleSplitRequest:0")) {
                        entered.countDown();
                        awaitQuietly(release);
                    }
                };
        f.loop.open();
        f.loop.registerReader(0, 1);
        f.loop.handleSplitRequest(0, 1);
        executor.go.countDown();
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        AtomicReference<byte[]> blob = new AtomicReference<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread caller =
                new Thread(
                        () -> {
                            try {
                                blob.set(f.loop.snapshotAndWait(3));
                            } catch (Throwable e) {
                                error.set(e);
                            }
                        },
                        "snapshot-caller");
        caller.start();
        try {
            // Parked: the loop is owned by the blocked drain.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> caller.getState() == Thread.State.TIMED_WAITING);
            assertEquals(0, f.count(Counter.SNAPSHOTS_ON_CALLER));
            release.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(caller.isAlive());
            assertEquals(null, error.get());
            assertEquals(3, CoordinatorSnapshotCodec.decode(blob.get()).checkpointId());
            assertEquals(
                    List.of(
                            "open",
                            "run",
                            "registerReader:0",
                            "handleSplitRequest:0",
                            "snapshotState:3"),
                    f.enumerator().log);
            assertEquals(1, f.count(Counter.SNAPSHOTS_ON_CALLER));
        } finally {
            release.countDown();
        }
    }

    @Test
    void aWaitPastTheTimeoutFailsTheSnapshotAndIsCounted() throws Exception {
        FirstTaskOnly executor = new FirstTaskOnly();
        Fixture f =
                new Fixture(
                        LoopFixture.config(1).snapshotTimeout(Duration.ofMillis(50)).build(),
                        executor,
                        3);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        f.onCallback =
                name -> {
                    if (name.startsWith("registerReader")) {
                        entered.countDown();
                        awaitQuietly(release);
                    }
                };
        f.loop.open();
        executor.go.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.loop.state() == LoopState.RUNNING);
        // The registration's drain task is only queued: the first snapshot caller takes the loop
        // over and blocks in it, holding the loop.
        ExecutorService blocker = Executors.newSingleThreadExecutor();
        try {
            f.loop.registerReader(0, 1);
            Future<byte[]> first = blocker.submit(() -> f.loop.snapshotAndWait(1));
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            // The loop is owned by the blocked thread: this demand can only wait, and times out.
            assertThrows(TimeoutException.class, () -> f.loop.snapshotAndWait(2));
            assertEquals(1, f.count(Counter.SNAPSHOT_TIMEOUTS));
            release.countDown();
            // The draining caller checks its own deadline between commands: past it, it gives the
            // loop back instead of going on.
            ExecutionException e =
                    assertThrows(ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof TimeoutException, e.toString());
            assertEquals(2, f.count(Counter.SNAPSHOT_TIMEOUTS));
            // Nothing is stuck: the executor's queued drain takes both snapshots (answers unused).
            for (Runnable r : new ArrayList<>(executor.queued)) {
                r.run();
            }
            assertTrue(
                    f.enumerator().log.contains("snapshotState:1"), f.enumerator().log.toString());
            assertTrue(
                    f.enumerator().log.contains("snapshotState:2"), f.enumerator().log.toString());
        } finally {
            release.countDown();
            blocker.shutdownNow();
        }
    }

    @Test
    void aWaitAboveTheSlowThresholdIsCounted() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        Fixture f =
                opened(
                        LoopFixture.config(1).snapshotSlowThreshold(Duration.ofNanos(1)).build(),
                        executor);
        f.loop.snapshotAndWait(1);
        assertEquals(1, f.count(Counter.SNAPSHOT_SLOW_WAITS));
        assertTrue(f.count(Counter.SNAPSHOT_WAIT_NANOS) > 0);
        Fixture fast = opened(LoopFixture.config(1).build(), new ManualExecutor());
        fast.loop.snapshotAndWait(1);
        assertEquals(0, fast.count(Counter.SNAPSHOT_SLOW_WAITS));
    }

    @Test
    void slowWaitWarningsAreRateLimited() {
        SnapshotWaitReport r =
                new SnapshotWaitReport(LoopFixture.config(1).build(), new CoordinatorMetrics(), 0);
        assertTrue(r.mayWarn(0));
        assertFalse(r.mayWarn(1));
        assertFalse(r.mayWarn(SnapshotWaitReport.WARN_INTERVAL_NANOS - 1));
        assertTrue(r.mayWarn(SnapshotWaitReport.WARN_INTERVAL_NANOS));
        assertEquals(2, r.suppressedSinceLastWarning());
    }

    @Test
    void anInterruptedCallerLeavesTheSnapshotToTheExecutor() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        Fixture f = opened(LoopFixture.config(1).build(), executor);
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> f.loop.snapshotAndWait(4));
        } finally {
            Thread.interrupted();
        }
        assertFalse(f.enumerator().log.contains("snapshotState:4"));
        executor.runAll();
        assertTrue(f.enumerator().log.contains("snapshotState:4"), "the drain was not lost");
    }

    /**
     * Many offering threads, pool drains on two threads and snapshot callers at once: callbacks
     * never overlap, every snapshot is answered and every command applied once. Seeded: {@code
     * -Dstress.seed=S}.
     */
    @Test
    void callersAndPoolDrainsNeverOwnTheLoopAtOnce() throws Exception {
        long seed = Long.getLong("stress.seed", System.nanoTime());
        System.out.println("CoordinatorSnapshotHandoffTest seed " + seed);
        Random random = new Random(seed);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ExecutorService actors = Executors.newFixedThreadPool(4);
        Fixture f = new Fixture(LoopFixture.config(4).build(), pool, 0);
        AtomicBoolean inside = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        f.onCallback =
                name -> {
                    if (!inside.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    for (int i = 0; i < 50; i++) {
                        Thread.onSpinWait();
                    }
                    inside.set(false);
                };
        try {
            f.loop.open();
            for (int r = 0; r < 4; r++) {
                f.loop.registerReader(r, 1);
            }
            int requestsPerActor = 200 + random.nextInt(200);
            List<Future<?>> done = new ArrayList<>();
            for (int a = 0; a < 3; a++) {
                int reader = a;
                done.add(
                        actors.submit(
                                () -> {
                                    for (int i = 0; i < requestsPerActor; i++) {
                                        while (!f.loop.handleSplitRequest(reader, 1).isEnqueued()) {
                                            Thread.onSpinWait();
                                        }
                                    }
                                    return null;
                                }));
            }
            int snapshots = 20 + random.nextInt(20);
            done.add(
                    actors.submit(
                            () -> {
                                for (long id = 1; id <= snapshots; id++) {
                                    CoordinatorSnapshotCodec.decode(f.loop.snapshotAndWait(id));
                                }
                                return null;
                            }));
            for (Future<?> d : done) {
                d.get(60, TimeUnit.SECONDS);
            }
            byte[] last = f.loop.snapshotAndWait(snapshots + 1L);
            assertEquals(snapshots + 1L, CoordinatorSnapshotCodec.decode(last).checkpointId());
            assertEquals(0, overlaps.get(), "two threads ran enumerator callbacks at once");
            long requests =
                    f.enumerator().log.stream()
                            .filter(s -> s.startsWith("handleSplitRequest"))
                            .count();
            // With no splits, the first request of each reader gets no-more-splits and the rest
            // are answered by the runtime: each request reached exactly one of the two.
            assertEquals(
                    3L * requestsPerActor,
                    requests + f.count(Counter.SPLIT_REQUESTS_AFTER_NO_MORE_SPLITS));
            assertTrue(f.failures.isEmpty(), f.failures.toString());
        } finally {
            actors.shutdownNow();
            pool.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
