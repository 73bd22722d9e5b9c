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

package org.apache.seatunnel.managed.testkit.conformance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The timing rules of the reader contract: a turn keeps its budget and yields when asked, no
 * wake-up is lost, {@code wakeup()} is idempotent and thread-safe and ends a blocked poll.
 *
 * <p>Threading: one test thread per instance; see {@link ConformanceRules}.
 */
final class TimingRules<T, SplitT extends SourceSplit> extends ReaderRuleSupport<T, SplitT> {
    TimingRules(ConformanceTarget<T, SplitT> target, ExpectedRecords expected) {
        super(target, expected);
    }

    /** See {@link ConformanceRules#pollReturnsWithinBudgetAndHonoursShouldYield()}. */
    void pollReturnsWithinBudgetAndHonoursShouldYield() throws Exception {
        ConformanceRule rule = ConformanceRule.POLL_WITHIN_BUDGET;
        Random rnd = new Random(target.seed());
        long soft = TimeUnit.MILLISECONDS.toNanos(20);
        long deadline = System.nanoTime() + target.readBoundNanos();
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            for (int turn = 0; ; turn++) {
                int max = 1 + rnd.nextInt(32);
                int yieldAfter = 1 + rnd.nextInt(max);
                ReaderDriver.TurnResult r = d.turn(max, yieldAfter, soft);
                if (r.records > max) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " emitted "
                                    + r.records
                                    + " records; its limit was "
                                    + max);
                }
                if (r.recordsAfterYield > target.recordsPerShouldYield()) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " emitted "
                                    + r.recordsAfterYield
                                    + " records after shouldYield() turned true (allowed "
                                    + target.recordsPerShouldYield()
                                    + ")");
                }
                if (r.tookNanos > soft + target.turnGraceNanos()) {
                    throw violation(
                            rule,
                            "turn "
                                    + turn
                                    + " took "
                                    + TimeUnit.NANOSECONDS.toMillis(r.tookNanos)
                                    + " ms; its deadline was "
                                    + TimeUnit.NANOSECONDS.toMillis(soft)
                                    + " ms (+ "
                                    + TimeUnit.NANOSECONDS.toMillis(target.turnGraceNanos())
                                    + " ms grace)");
                }
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    d.awaitAvailable();
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            assertSameRecords(rule, "records read in budgeted turns", d.emitted());
        }
    }

    /** See {@link ConformanceRules#noLostWakeupUnderAdversarialTiming()}. */
    void noLostWakeupUnderAdversarialTiming() throws Exception {
        ConformanceRule rule = ConformanceRule.NO_LOST_WAKEUP;
        Random rnd = new Random(target.seed() ^ 0x5DEECE66DL);
        List<SplitT> pending = new ArrayList<>(target.splits());
        Collections.shuffle(pending, rnd);
        long deadline = System.nanoTime() + target.readBoundNanos();
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(Collections.singletonList(pending.remove(0)));
            boolean noMore = false;
            for (; ; ) {
                if (!noMore && pending.isEmpty()) {
                    d.noMoreSplits();
                    noMore = true;
                }
                ReaderDriver.TurnResult r = d.turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
                if (r.status == PollStatus.END_OF_INPUT) {
                    break;
                }
                if (r.status == PollStatus.NOTHING_AVAILABLE) {
                    spin(rnd.nextInt(4) == 0 ? rnd.nextInt(2_000_000) : rnd.nextInt(2_000));
                    if (!pending.isEmpty() && rnd.nextInt(3) == 0) {
                        // A command arrives: the runtime polls again after applying it.
                        d.addSplits(Collections.singletonList(pending.remove(0)));
                        continue;
                    }
                    if (pending.isEmpty()) {
                        d.awaitAvailable();
                    } else if (!d.reader().isAvailable().isDone()) {
                        d.addSplits(Collections.singletonList(pending.remove(0)));
                    }
                } else if (!pending.isEmpty() && rnd.nextInt(8) == 0) {
                    d.addSplits(Collections.singletonList(pending.remove(0)));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw violation(rule, "the fixture data was not read within the read bound");
                }
            }
            assertSameRecords(rule, "records read with splits arriving one by one", d.emitted());
        }
    }

    /** See {@link ConformanceRules#wakeupIsIdempotentAndThreadSafe()}. */
    void wakeupIsIdempotentAndThreadSafe() throws Exception {
        ConformanceRule rule = ConformanceRule.WAKEUP_THREAD_SAFE;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong slowest = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t =
                        new Thread(
                                () -> {
                                    try {
                                        for (int n = 0; n < 2000; n++) {
                                            long s = System.nanoTime();
                                            d.reader().wakeup();
                                            long took = System.nanoTime() - s;
                                            slowest.accumulateAndGet(took, Math::max);
                                        }
                                    } catch (Throwable e) {
                                        failure.compareAndSet(null, e);
                                    }
                                },
                                "conformance-wakeup-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            d.readToEnd(rule);
            for (Thread t : threads) {
                t.join(TimeUnit.NANOSECONDS.toMillis(target.readBoundNanos()));
                if (t.isAlive()) {
                    throw violation(rule, "a thread calling wakeup() did not finish: blocked");
                }
            }
            if (failure.get() != null) {
                throw new ConformanceViolation(
                        rule, "wakeup() threw " + failure.get() + seedNote(), failure.get());
            }
            if (slowest.get() > TimeUnit.SECONDS.toNanos(1)) {
                throw violation(
                        rule,
                        "a wakeup() call blocked for "
                                + TimeUnit.NANOSECONDS.toMillis(slowest.get())
                                + " ms");
            }
            assertSameRecords(rule, "records read while wakeup() was called", d.emitted());
        }
    }

    /** See {@link ConformanceRules#wakeupEndsABlockedPoll()}. */
    boolean wakeupEndsABlockedPoll() throws Exception {
        ConformanceRule rule = ConformanceRule.WAKEUP_ENDS_BLOCKED_POLL;
        int records = expectedRecords().size();
        AtomicReference<Thread> loopThread = new AtomicReference<>();
        ExecutorService loop =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "conformance-loop");
                            t.setDaemon(true);
                            loopThread.set(t);
                            return t;
                        });
        ReaderDriver<T, SplitT> d = null;
        try {
            long bound = target.readBoundNanos();
            d =
                    loop.submit(
                                    () -> {
                                        ReaderDriver<T, SplitT> dd = open().fixtureRecords(records);
                                        dd.addSplits(target.splits());
                                        readUntilDrained(rule, dd);
                                        return dd;
                                    })
                            .get(bound, TimeUnit.NANOSECONDS);
            ReaderDriver<T, SplitT> driver = d;
            long turnNanos = target.blockedTurn().toNanos();
            AtomicBoolean inTurn = new AtomicBoolean();
            Future<ReaderDriver.TurnResult> turn =
                    loop.submit(
                            () -> {
                                inTurn.set(true);
                                try {
                                    return driver.turn(64, 64, turnNanos);
                                } finally {
                                    inTurn.set(false);
                                }
                            });
            try {
                Awaitility.await()
                        .atMost(Duration.ofNanos(target.availabilityBoundNanos()))
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(5))
                        .until(() -> turn.isDone() || (inTurn.get() && waiting(loopThread.get())));
            } catch (ConditionTimeoutException stillRunning) {
                // Inside the turn but not waiting (a busy wait): wake it all the same.
            }
            if (turn.isDone()) {
                turn.get();
                return false;
            }
            long woke = System.nanoTime();
            driver.reader().wakeup();
            try {
                Awaitility.await()
                        .atMost(target.wakeupBound())
                        .pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(1))
                        .until(turn::isDone);
            } catch (ConditionTimeoutException notWoken) {
                String state = String.valueOf(loopThread.get().getState());
                long waited;
                try {
                    turn.get(turnNanos + target.turnGraceNanos(), TimeUnit.NANOSECONDS);
                    waited = System.nanoTime() - woke;
                } catch (TimeoutException stuck) {
                    waited = -1;
                }
                throw violation(
                        rule,
                        "a poll turn waiting for data (its thread "
                                + state
                                + ") did not return within "
                                + target.wakeupBound().toMillis()
                                + " ms of wakeup(); "
                                + (waited < 0
                                        ? "it had not returned at its deadline either"
                                        : "it returned after "
                                                + TimeUnit.NANOSECONDS.toMillis(waited)
                                                + " ms (turn deadline "
                                                + target.blockedTurn().toMillis()
                                                + " ms)"));
            }
            turn.get();
            return true;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConformanceViolation) {
                throw (ConformanceViolation) cause;
            }
            throw e;
        } finally {
            if (d != null) {
                ReaderDriver<T, SplitT> toClose = d;
                try {
                    loop.submit(
                                    () -> {
                                        toClose.close();
                                        return null;
                                    })
                            .get(target.closeBound().toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // The rule's own failure (if any) is the one to report.
                }
            }
            loop.shutdownNow();
        }
    }

    private void readUntilDrained(ConformanceRule rule, ReaderDriver<T, SplitT> d)
            throws Exception {
        long deadline = System.nanoTime() + target.readBoundNanos();
        while (!d.drained()) {
            ReaderDriver.TurnResult r = d.turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
            if (r.status == PollStatus.END_OF_INPUT) {
                return;
            }
            if (r.status == PollStatus.NOTHING_AVAILABLE && !d.drained()) {
                d.awaitAvailable();
            }
            if (System.nanoTime() - deadline > 0) {
                throw violation(rule, "the fixture data was not read within the read bound");
            }
        }
    }
}
