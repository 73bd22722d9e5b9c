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
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * The drive policy of one engine call ({@link ReaderDriver}), engine-neutral: how many turns a call
 * runs, when it returns, and what the final barrier does. No test waits for a signal: the idle wait
 * is 0, so an idle call returns at once.
 */
class ReaderDriverTest {
    private final ManualClock clock = new ManualClock();
    private final RecordingReader reader = new RecordingReader();
    private final Object lock = new Object();
    private final List<String> emitted = new ArrayList<>();
    private boolean finalBarrier;

    private ReaderAttempt<String, TestSplit> attempt() throws Exception {
        Collector<String> out =
                new Collector<String>() {
                    @Override
                    public void collect(String record) {
                        emitted.add(record);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return lock;
                    }
                };
        ReaderUplink uplink =
                new ReaderUplink() {
                    @Override
                    public long coordinatorEpoch() {
                        return 0;
                    }

                    @Override
                    public CompletableFuture<AdmissionAck> send(SourceCommandEnvelope command) {
                        return new CompletableFuture<>();
                    }

                    @Override
                    public void registered(long coordinatorEpoch) {}
                };
        ReaderAttempt<String, TestSplit> a =
                ReaderAttempt.<String, TestSplit>builder()
                        .ids(7, 3, 1, 11)
                        .mailboxLimits(MailboxLimits.defaults())
                        .workerBudget(new WorkerMailboxBudget(1 << 20))
                        .clock(clock)
                        .reader(reader)
                        .output(out)
                        .pollBudget(PollBudget.defaults())
                        .recordSizer(String::length)
                        .splitSerializer(
                                new Serializer<TestSplit>() {
                                    @Override
                                    public byte[] serialize(TestSplit s) {
                                        return s.id.getBytes(StandardCharsets.UTF_8);
                                    }

                                    @Override
                                    public TestSplit deserialize(byte[] b) {
                                        return new TestSplit(new String(b, StandardCharsets.UTF_8));
                                    }
                                })
                        .capabilityDigest(reader.managedSourceCapability().digest())
                        .uplink(uplink)
                        .build();
        a.start();
        return a;
    }

    private ReaderDriver driver(ReaderAttempt<?, ?> a) {
        return new ReaderDriver(a, clock, 0, () -> finalBarrier);
    }

    @Test
    void aCallThatEmitsRunsAtMostTheTurnCapAndReturns() throws Exception {
        reader.onPoll =
                (out, ctx) -> {
                    out.collect("row");
                    return PollStatus.MORE_AVAILABLE;
                };
        ReaderAttempt<String, TestSplit> a = attempt();
        ReaderDriver.Outcome outcome =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(10),
                        () -> driver(a).drive(lock, ReaderDriver.FlowControl.NONE));
        assertEquals(ReaderDriver.Outcome.RETURNED, outcome);
        assertEquals(ReaderDriver.MAX_TURNS_PER_CALL, a.loopMetrics().pollTurns());
        assertEquals(ReaderDriver.MAX_TURNS_PER_CALL, emitted.size());
    }

    @Test
    void aReaderThatSaysNothingMoreWaitsInTheSameCallForItsNextRows() throws Exception {
        reader.onPoll =
                (out, ctx) -> {
                    out.collect("row");
                    reader.available = new CompletableFuture<>();
                    return PollStatus.NOTHING_AVAILABLE;
                };
        ReaderAttempt<String, TestSplit> a = attempt();
        long idleWait = TimeUnit.SECONDS.toNanos(1);
        List<Long> waits = new ArrayList<>();
        ReaderDriver.FlowControl host =
                new TimedHost() {
                    @Override
                    public void awaitSignal(LoopSignal signal, long maxNanos) {
                        waits.add(maxNanos);
                        if (waits.size() == 1) {
                            // The next row becomes available 50 ms later.
                            clock.advanceMillis(50);
                            reader.available.complete(null);
                        } else {
                            // Nothing more: the call's wait runs out.
                            clock.advanceNanos(maxNanos);
                        }
                        signal.clear();
                    }
                };
        ReaderDriver d = new ReaderDriver(a, clock, idleWait, () -> finalBarrier);
        assertEquals(ReaderDriver.Outcome.RETURNED, d.drive(lock, host));
        assertEquals(Arrays.asList("row", "row"), emitted, "both rows in one engine call");
        assertEquals(2, a.loopMetrics().pollTurns());
        assertEquals(
                Arrays.asList(idleWait, idleWait - TimeUnit.MILLISECONDS.toNanos(50)),
                waits,
                "the waits share one reader.idle-wait per call");
    }

    /**
     * A host whose flow control does nothing but wait for the loop's signal, which a test replaces
     * to let time pass on the manual clock instead ({@link ReaderDriver.FlowControl#NONE} with the
     * waiting hook open).
     */
    private abstract static class TimedHost implements ReaderDriver.FlowControl {
        @Override
        public void awaitAnnouncedBarrier() {
            ReaderDriver.FlowControl.NONE.awaitAnnouncedBarrier();
        }

        @Override
        public boolean outputBlocked() {
            return ReaderDriver.FlowControl.NONE.outputBlocked();
        }

        @Override
        public void awaitRoom(long maxNanos) {
            ReaderDriver.FlowControl.NONE.awaitRoom(maxNanos);
        }

        @Override
        public void turnEnded(boolean leftWork) {
            ReaderDriver.FlowControl.NONE.turnEnded(leftWork);
        }

        @Override
        public void readerIdled() {
            ReaderDriver.FlowControl.NONE.readerIdled();
        }

        @Override
        public abstract void awaitSignal(LoopSignal signal, long maxNanos);
    }

    @Test
    void withoutAnIdleWaitAReaderThatSaysNothingMoreReturnsAfterOneTurn() throws Exception {
        reader.onPoll =
                (out, ctx) -> {
                    out.collect("row");
                    return PollStatus.NOTHING_AVAILABLE;
                };
        ReaderAttempt<String, TestSplit> a = attempt();
        assertEquals(
                ReaderDriver.Outcome.RETURNED,
                driver(a).drive(lock, ReaderDriver.FlowControl.NONE));
        assertEquals(1, a.loopMetrics().pollTurns());
    }

    @Test
    void theFinalBarrierClosesGracefullyOnceAndRunsNoTurn() throws Exception {
        ReaderAttempt<String, TestSplit> a = attempt();
        finalBarrier = true;
        ReaderDriver d = driver(a);
        assertEquals(
                ReaderDriver.Outcome.FINAL_BARRIER, d.drive(lock, ReaderDriver.FlowControl.NONE));
        assertEquals(ReaderLifecycle.DRAINING, a.loop().lifecycle());
        a.gracefulClose();
        assertEquals(
                ReaderDriver.Outcome.FINAL_BARRIER, d.drive(lock, ReaderDriver.FlowControl.NONE));
        assertEquals(0, a.loopMetrics().pollTurns(), "no record may follow the final barrier");
        assertEquals(0, a.mailbox().commandCount(), "one graceful close was offered, and applied");
        assertEquals(1, a.loopMetrics().commandsApplied(), "the graceful close, once");
    }

    @Test
    void aTerminatedAttemptEndsTheCall() throws Exception {
        ReaderAttempt<String, TestSplit> a = attempt();
        a.mailbox().terminate(TerminalSignal.fatal(ReasonCode.CONNECTOR_FAILURE, null));
        assertEquals(
                ReaderDriver.Outcome.TERMINATED,
                driver(a).drive(lock, ReaderDriver.FlowControl.NONE));
    }

    @Test
    void endOfInputFinishes() throws Exception {
        reader.onPoll = (out, ctx) -> PollStatus.END_OF_INPUT;
        ReaderAttempt<String, TestSplit> a = attempt();
        assertEquals(
                ReaderDriver.Outcome.FINISHED,
                driver(a).drive(lock, ReaderDriver.FlowControl.NONE));
    }

    @Test
    void aFullOutputPastTheIdleWaitReturnsBeforeAnyTurn() throws Exception {
        ReaderAttempt<String, TestSplit> a = attempt();
        List<String> calls = new ArrayList<>();
        ReaderDriver.FlowControl blocked =
                new ReaderDriver.FlowControl() {
                    @Override
                    public void awaitAnnouncedBarrier() {
                        calls.add("barrier");
                    }

                    @Override
                    public boolean outputBlocked() {
                        return true;
                    }

                    @Override
                    public void awaitRoom(long maxNanos) {
                        calls.add("room");
                    }

                    @Override
                    public void turnEnded(boolean leftWork) {
                        calls.add("turn");
                    }

                    @Override
                    public void readerIdled() {
                        calls.add("idle");
                    }
                };
        assertEquals(ReaderDriver.Outcome.RETURNED, driver(a).drive(lock, blocked));
        assertEquals(0, a.loopMetrics().pollTurns());
        assertEquals(java.util.Collections.singletonList("barrier"), calls);
    }
}
