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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The loop's safety nets for readers that break the poll contract, driven by the in-process harness
 * and its manual clock: a reader whose availability future never completes is still polled (after
 * every applied command and every {@code reader.idle-wait}) and reported once per attempt;
 * soft-budget overruns are counted and logged at most once a minute; emitting past the record
 * budget is counted and reported once; an interrupt is a cancel, not a connector failure.
 */
class ReaderLoopSafetyNetTest {
    private static final long IDLE_MS = 1000;
    private static final String NOT_SIGNALLED = "availability not signalled";

    private LogCapture logs;

    @BeforeEach
    void captureLogs() {
        logs = LogCapture.attach(ReaderEventLoop.class.getName());
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
        // A test that ends with the thread interrupted must not leak it into the next one.
        Thread.interrupted();
    }

    private static PollBudget budget(int records, long softMs) {
        return new PollBudget(
                records,
                4L << 20,
                TimeUnit.MILLISECONDS.toNanos(softMs),
                TimeUnit.SECONDS.toNanos(1),
                TimeUnit.SECONDS.toNanos(30),
                TimeUnit.SECONDS.toNanos(60),
                TimeUnit.MILLISECONDS.toNanos(IDLE_MS));
    }

    private static LoopHarness harness(int records, long softMs) {
        return new LoopHarness(MailboxLimits.defaults(), budget(records, softMs), 256L << 20);
    }

    /**
     * A reader whose data arrives on a "fetch thread" (here: the test) into a queue, and whose
     * availability future is never completed: it answers NOTHING_AVAILABLE on an empty queue.
     */
    private static ArrayDeque<String> fetchQueueReader(LoopHarness h) {
        ArrayDeque<String> fetched = new ArrayDeque<>();
        h.reader.onPoll =
                (out, ctx) -> {
                    while (!fetched.isEmpty() && ctx.remainingRecords() > 0) {
                        out.collect(fetched.poll());
                    }
                    return fetched.isEmpty()
                            ? PollStatus.NOTHING_AVAILABLE
                            : PollStatus.MORE_AVAILABLE;
                };
        return fetched;
    }

    private static long polls(LoopHarness h) {
        return h.reader.trace.stream().filter("poll"::equals).count();
    }

    @Test
    void anIdleReaderIsPolledAfterEveryCommandAndAtMostEveryIdleWait() throws Exception {
        LoopHarness h = harness(64, 5);
        fetchQueueReader(h);
        h.loop.start(0);
        assertEquals(LoopStatus.IDLE, h.runUntilQuiet());
        assertEquals(1, polls(h));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(IDLE_MS), h.loop.nanosUntilIdlePoll());

        // Nothing signalled, idle-wait not over: no poll, however often the host asks.
        h.clock.advanceMillis(IDLE_MS - 1);
        for (int i = 0; i < 5; i++) {
            assertEquals(LoopStatus.IDLE, h.loop.runOnce());
        }
        assertEquals(1, polls(h));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), h.loop.nanosUntilIdlePoll());

        // reader.idle-wait after the last NOTHING_AVAILABLE: polled although the future is open.
        h.clock.advanceMillis(1);
        assertEquals(0, h.loop.nanosUntilIdlePoll());
        h.loop.runOnce();
        assertEquals(2, polls(h));
        assertFalse(h.reader.available.isDone());

        // Every applied command earns a poll, checkpoint commands and barriers included.
        h.local.checkpointComplete(1);
        h.loop.runOnce();
        assertEquals(3, polls(h));
        h.local.barrier(2);
        h.loop.runOnce();
        assertEquals(4, polls(h));
        assertEquals(1, h.checkpoints.size());
        h.local.checkpointAborted(3);
        h.loop.runOnce();
        assertEquals(5, polls(h));
        assertEquals(LoopStatus.IDLE, h.loop.runOnce());
        assertEquals(5, polls(h));
        assertEquals(0, h.loop.metrics().availabilityNotSignalled());
        assertTrue(logs.matching(Level.WARN, NOT_SIGNALLED).isEmpty());
    }

    @Test
    void recordsTheFutureDidNotSignalAreCountedAndReportedOncePerAttempt() throws Exception {
        LoopHarness h = harness(64, 5);
        ArrayDeque<String> fetched = fetchQueueReader(h);
        h.loop.start(0);
        h.runUntilQuiet();

        // Data arrives on the fetch thread, which forgets to complete the future.
        fetched.add("r1");
        fetched.add("r2");
        assertEquals(LoopStatus.IDLE, h.loop.runOnce());
        assertTrue(h.emitted.isEmpty(), "no signal, no command, idle-wait not over");
        h.clock.advanceMillis(IDLE_MS);
        h.runUntilQuiet();
        assertEquals(List.of("r1", "r2"), h.emitted);
        assertEquals(1, h.loop.metrics().availabilityNotSignalled());

        // Again: counted again, not logged again within the attempt.
        fetched.add("r3");
        h.clock.advanceMillis(IDLE_MS);
        h.runUntilQuiet();
        assertEquals(2, h.loop.metrics().availabilityNotSignalled());
        List<String> warnings = logs.matching(Level.WARN, NOT_SIGNALLED);
        assertEquals(1, warnings.size(), logs.lines().toString());
        String w = warnings.get(0);
        assertTrue(
                w.contains("connector TestConnector")
                        && w.contains("job test-job (" + LoopHarness.JOB + ")")
                        && w.contains("subtask " + LoopHarness.SUBTASK),
                w);

        // A split assignment may bring data without the future: not reported.
        fetched.add("r4");
        h.offer(h.assign("s1"));
        h.runUntilQuiet();
        assertTrue(h.emitted.contains("r4"));
        assertEquals(2, h.loop.metrics().availabilityNotSignalled());

        // A reader that does complete its future is not reported either.
        fetched.add("r5");
        CompletableFuture<Void> f = h.reader.available;
        h.reader.available = new CompletableFuture<>();
        f.complete(null);
        h.runUntilQuiet();
        assertTrue(h.emitted.contains("r5"));
        assertEquals(2, h.loop.metrics().availabilityNotSignalled());

        // A new attempt of the same reader reports again, once.
        LoopHarness next = harness(64, 5);
        ArrayDeque<String> nextFetched = fetchQueueReader(next);
        next.loop.start(0);
        next.runUntilQuiet();
        nextFetched.add("x");
        next.clock.advanceMillis(IDLE_MS);
        next.runUntilQuiet();
        assertEquals(1, next.loop.metrics().availabilityNotSignalled());
        assertEquals(2, logs.matching(Level.WARN, NOT_SIGNALLED).size());
    }

    @Test
    void aFutureCompletedWhileTheTurnRanIsNotReported() throws Exception {
        LoopHarness h = harness(64, 5);
        AtomicInteger pending = new AtomicInteger();
        h.reader.onPoll =
                (out, ctx) -> {
                    if (pending.get() == 0) {
                        return PollStatus.NOTHING_AVAILABLE;
                    }
                    // The fetch thread put the row and is completing the future right now.
                    h.reader.available.complete(null);
                    h.reader.available = new CompletableFuture<>();
                    out.collect("r" + pending.decrementAndGet());
                    return PollStatus.NOTHING_AVAILABLE;
                };
        h.loop.start(0);
        h.runUntilQuiet();
        pending.set(1);
        h.clock.advanceMillis(IDLE_MS);
        h.runUntilQuiet();
        assertEquals(List.of("r0"), h.emitted);
        assertEquals(0, h.loop.metrics().availabilityNotSignalled());
        assertTrue(logs.matching(Level.WARN, NOT_SIGNALLED).isEmpty());
    }

    @Test
    void softOverrunsAreCountedEveryTimeAndLoggedAtMostOncePerMinute() throws Exception {
        LoopHarness h = harness(64, 5);
        h.reader.onPoll =
                (out, ctx) -> {
                    out.collect("slow");
                    h.clock.advanceMillis(10);
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.start(0);
        for (int i = 0; i < 5; i++) {
            h.loop.runOnce();
        }
        assertEquals(5, h.loop.metrics().softOverruns());
        List<String> warnings = logs.matching(Level.WARN, "past poll.soft-duration");
        assertEquals(1, warnings.size(), logs.lines().toString());
        assertTrue(
                warnings.get(0).contains("connector TestConnector")
                        && warnings.get(0).contains("subtask " + LoopHarness.SUBTASK)
                        && warnings.get(0).contains("took 10.0 ms")
                        && warnings.get(0).contains("(5 ms)"),
                warnings.get(0));

        // Just under a minute after the first report: counted, not logged.
        h.clock.advanceMillis(60_000 - 10 * 5 - 10);
        h.loop.runOnce();
        assertEquals(6, h.loop.metrics().softOverruns());
        assertEquals(1, logs.matching(Level.WARN, "past poll.soft-duration").size());

        // A minute on: logged again, with the overruns since the last report.
        h.clock.advanceMillis(10);
        h.loop.runOnce();
        assertEquals(7, h.loop.metrics().softOverruns());
        warnings = logs.matching(Level.WARN, "past poll.soft-duration");
        assertEquals(2, warnings.size(), logs.lines().toString());
        assertTrue(warnings.get(1).contains("6 such turn(s)"), warnings.get(1));
    }

    @Test
    void emittingPastTheRecordBudgetIsCountedAndReportedOncePerAttempt() throws Exception {
        LoopHarness h = harness(4, 5);
        h.reader.onPoll =
                (out, ctx) -> {
                    // Ignores remainingRecords() and shouldYield().
                    for (int i = 0; i < 6; i++) {
                        out.collect("r");
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.start(0);
        h.loop.runOnce();
        h.loop.runOnce();
        h.loop.runOnce();
        assertEquals(3, h.loop.metrics().recordBudgetOverruns());
        List<String> warnings = logs.matching(Level.WARN, "past its budget of 4");
        assertEquals(1, warnings.size(), logs.lines().toString());
        assertTrue(
                warnings.get(0).contains("connector TestConnector")
                        && warnings.get(0).contains("emitted 6 records"),
                warnings.get(0));

        LoopHarness compliant = harness(4, 5);
        compliant.reader.onPoll =
                (out, ctx) -> {
                    while (ctx.remainingRecords() > 0) {
                        out.collect("r");
                    }
                    return PollStatus.MORE_AVAILABLE;
                };
        compliant.loop.start(0);
        compliant.loop.runOnce();
        assertEquals(4, compliant.emitted.size());
        assertEquals(0, compliant.loop.metrics().recordBudgetOverruns());
    }

    @Test
    void anInterruptInAPollTurnIsACancelNotAConnectorFailure() throws Exception {
        LoopHarness h = harness(64, 5);
        h.loop.start(0);
        h.reader.pollFailure = new InterruptedException("engine cancels the task");
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        TerminalSignal t = h.loop.terminalSignal();
        assertEquals(TerminalSignal.Kind.CANCEL, t.kind());
        assertEquals(ReasonCode.NONE, t.reason());
        assertEquals(ReaderLifecycle.CANCELLING, h.loop.lifecycle());
        assertTrue(Thread.interrupted(), "the interrupt stays visible to the engine");

        // Wrapped by the connector (e.g. an I/O library): still an interrupt.
        LoopHarness wrapped = harness(64, 5);
        wrapped.loop.start(0);
        wrapped.reader.pollFailure =
                new IllegalStateException(
                        "read failed", new java.nio.channels.ClosedByInterruptException());
        wrapped.loop.runOnce();
        assertEquals(TerminalSignal.Kind.CANCEL, wrapped.loop.terminalSignal().kind());
        assertTrue(Thread.interrupted());

        // A socket timeout is an InterruptedIOException but no interrupt: a connector failure.
        LoopHarness timeout = harness(64, 5);
        timeout.loop.start(0);
        timeout.reader.pollFailure = new java.net.SocketTimeoutException("read timed out");
        timeout.loop.runOnce();
        assertEquals(ReasonCode.CONNECTOR_FAILURE, timeout.loop.terminalSignal().reason());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theWatchdogsFailureIsKeptWhenItsInterruptSurfacesInTheConnector() throws Exception {
        LoopHarness h = harness(64, 5);
        AtomicInteger hooks = new AtomicInteger();
        h.loop.setCancellationTimeoutHook(hooks::incrementAndGet);
        h.reader.onPoll =
                (out, ctx) -> {
                    // The watchdog sees the turn, then again past the cancellation timeout.
                    h.loop.checkTurnBudget();
                    h.clock.advanceMillis(30_000);
                    h.loop.checkTurnBudget();
                    throw new IllegalStateException(
                            "blocked read", new InterruptedException("watchdog"));
                };
        h.loop.start(0);
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertEquals(1, hooks.get());
        TerminalSignal t = h.loop.terminalSignal();
        assertEquals(TerminalSignal.Kind.FATAL, t.kind());
        assertEquals(ReasonCode.POLL_CANCELLATION_TIMEOUT, t.reason());
        String why = t.cause().getMessage();
        assertTrue(
                why.contains("connector TestConnector")
                        && why.contains("subtask " + LoopHarness.SUBTASK)
                        && why.contains("poll.cancellation-timeout (30000 ms)"),
                why);
        assertEquals(1, logs.matching(Level.ERROR, "POLL_CANCELLATION_TIMEOUT").size());
    }
}
