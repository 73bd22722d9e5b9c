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

package org.apache.seatunnel.connectors.managed.fake;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.junit.jupiter.api.Test;

/**
 * What ManagedFake adds to the reader base: Lane B's lock-holding slow data, one chunk per legacy
 * poll, the hooks (a failing row leaves no trace in the state, events reach the hooks).
 */
class ManagedFakeReaderTest {

    private static ManagedFakeReader reader(
            TestSupport.FakeReaderContext ctx, ManagedFakeConfig config, ManagedFakeHooks hooks) {
        return new ManagedFakeReader(ctx, config, hooks);
    }

    private static TestSupport.FakeReaderContext bounded() {
        return new TestSupport.FakeReaderContext(0, Boundedness.BOUNDED);
    }

    @Test
    void legacyPollEmitsOneChunkInsideTheCheckpointLock() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(2).rowsPerSplit(500).build();
        try (ManagedFakeReader r = reader(bounded(), config, ManagedFakeHooks.NONE)) {
            r.addSplits(TestSupport.splits(2));
            r.isAvailable().get(10, TimeUnit.SECONDS);
            TestSupport.ListCollector out = new TestSupport.ListCollector();
            r.pollNext(out);
            assertEquals(ManagedFakeReader.CHUNK_ROWS, out.rows.size());
            assertTrue(out.heldLock.stream().allMatch(b -> b), "every row under the lock");
        }
    }

    @Test
    void legacySlowDataWaitsWhileHoldingTheCheckpointLock() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder()
                        .splitCount(1)
                        .rowsPerSplit(500)
                        .slowDataMillis(60_000)
                        .slowDataJitter(false)
                        .build();
        TestSupport.ListCollector out = new TestSupport.ListCollector();
        try (ManagedFakeReader r = reader(bounded(), config, ManagedFakeHooks.NONE)) {
            r.addSplits(TestSupport.splits(1));
            Thread poller =
                    new Thread(
                            () -> {
                                try {
                                    r.pollNext(out);
                                } catch (Exception e) {
                                    // The test ends the wait with an interrupt.
                                }
                            });
            poller.setDaemon(true);
            poller.start();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> poller.getState() == Thread.State.TIMED_WAITING);
            // A barrier thread must take the checkpoint lock: it is blocked behind the wait.
            Thread barrier =
                    new Thread(
                            () -> {
                                synchronized (out.getCheckpointLock()) {
                                    out.heldLock.add(true);
                                }
                            });
            barrier.setDaemon(true);
            barrier.start();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> barrier.getState() == Thread.State.BLOCKED);
            assertTrue(out.rows.isEmpty(), "no chunk yet");
            poller.interrupt();
            barrier.join(10_000);
        }
    }

    @Test
    void aRowFaultFailsThePollBeforeTheRowOrItsPosition() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(1).rowsPerSplit(100).build();
        ManagedFakeHooks failAt10 =
                new ManagedFakeHooks() {
                    @Override
                    public void beforeRow(int subtask, long rowsEmitted) {
                        if (rowsEmitted == 10) {
                            throw new IllegalStateException("injected");
                        }
                    }
                };
        try (ManagedFakeReader r = reader(bounded(), config, failAt10)) {
            r.addSplits(TestSupport.splits(1));
            r.isAvailable().get(10, TimeUnit.SECONDS);
            TestSupport.ListCollector out = new TestSupport.ListCollector();
            TestSupport.Budget budget =
                    new TestSupport.Budget(System::nanoTime, 64, Long.MAX_VALUE);
            assertThrows(
                    IllegalStateException.class,
                    () -> r.pollNextManaged(budget.counting(out), budget));
            assertEquals(10, out.rows.size());
            assertEquals(List.of(new ManagedFakeSplit(0, 10)), r.snapshotState(1));
        }
    }

    @Test
    void sourceEventsReachTheHooksWithTheReceivingSubtask() {
        AtomicInteger receivedBy = new AtomicInteger(-1);
        ManagedFakeHooks hooks =
                new ManagedFakeHooks() {
                    @Override
                    public void sourceEventReceived(int subtask, SourceEvent event) {
                        receivedBy.set(subtask);
                    }
                };
        try (ManagedFakeReader r =
                reader(
                        new TestSupport.FakeReaderContext(3, Boundedness.BOUNDED),
                        ManagedFakeConfig.builder().build(),
                        hooks)) {
            r.handleSourceEvent(new ManagedFakeEvent("run", 3));
        }
        assertEquals(3, receivedBy.get());
    }

    @Test
    void managedBoundedEndsOnlyAfterNoMoreSplits() throws Exception {
        ManagedFakeConfig config =
                ManagedFakeConfig.builder().splitCount(1).rowsPerSplit(5).build();
        try (ManagedFakeReader r = reader(bounded(), config, ManagedFakeHooks.NONE)) {
            r.addSplits(TestSupport.splits(1));
            TestSupport.ListCollector out = new TestSupport.ListCollector();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (out.rows.size() < 5 && System.nanoTime() < deadline) {
                TestSupport.Budget b = new TestSupport.Budget(System::nanoTime, 64, Long.MAX_VALUE);
                PollStatus s = r.pollNextManaged(b.counting(out), b);
                assertTrue(s != PollStatus.END_OF_INPUT, "not before no-more-splits");
                if (s == PollStatus.NOTHING_AVAILABLE && out.rows.size() < 5) {
                    CompletableFuture<Void> f = r.isAvailable();
                    f.get(10, TimeUnit.SECONDS);
                }
            }
            TestSupport.Budget b = new TestSupport.Budget(System::nanoTime, 64, Long.MAX_VALUE);
            assertEquals(PollStatus.NOTHING_AVAILABLE, r.pollNextManaged(b.counting(out), b));
            r.handleNoMoreSplits();
            assertEquals(PollStatus.END_OF_INPUT, r.pollNextManaged(b.counting(out), b));
        }
    }
}
