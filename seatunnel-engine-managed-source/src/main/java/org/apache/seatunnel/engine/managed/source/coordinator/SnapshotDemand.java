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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.engine.managed.source.concurrent.SerialExecutor;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's snapshot demand on one coordinator loop: the asynchronous {@link #snapshot} and the
 * synchronous {@link #snapshotAndWait} of an engine checkpoint, whose caller may take the loop over
 * (see {@link CoordinatorLoop}).
 *
 * <p>The one synchronous demand is the enumerator snapshot of an engine checkpoint: {@link
 * #snapshotAndWait} blocks its caller (never the loop) for at most {@link
 * CoordinatorConfig#snapshotTimeout()} (plus the one command that may be running when it expires).
 * To spare the checkpoint two thread hops (caller → executor → caller), the caller takes the loop
 * over when no drain is running — a drain merely scheduled is claimed from under the executor,
 * whose task then finds the loop taken and returns — and drains on its own thread until its
 * snapshot is taken; a drain running elsewhere hands the loop to the waiting caller when it ends.
 * The single-owner rule holds either way: whoever wins the claim is the only thread touching loop
 * state until it releases it. The caller may hold engine monitors (Zeta holds {@code
 * enumeratorContext}); neither the loop nor connector code on it takes any lock a caller could hold
 * (connector enumerators get this loop's context, never the engine's), and no command blocks, so
 * this cannot deadlock.
 *
 * <p>Threading: both methods may be called from any thread but the loop's own; the snapshot command
 * runs on the loop, and a waiting caller is woken by its answer or by the release of a drain
 * running elsewhere.
 */
final class SnapshotDemand<SplitT extends SourceSplit, StateT> {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorEventLoop.class);

    private final CoordinatorLoop<SplitT, StateT> loop;
    private final CoordinatorConfig config;
    private final CoordinatorMetrics metrics;
    private final SerialExecutor serial;
    private final SnapshotWaitReport snapshotWaits;

    SnapshotDemand(
            CoordinatorLoop<SplitT, StateT> loop,
            CoordinatorConfig config,
            CoordinatorMetrics metrics,
            SerialExecutor serial) {
        this.loop = loop;
        this.config = config;
        this.metrics = metrics;
        this.serial = serial;
        this.snapshotWaits = new SnapshotWaitReport(config, metrics, System.nanoTime());
    }

    /**
     * Enumerator and tracker state of checkpoint {@code checkpointId} as one blob, taken after
     * every command offered before this call (strict cut). Completes on the loop; fails when the
     * queue is full or the loop is closed.
     */
    public CompletableFuture<byte[]> snapshot(long checkpointId) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        SnapshotCommand c = new SnapshotCommand(checkpointId, f);
        OfferResult r = loop.offer(c);
        if (!r.isEnqueued()) {
            f.completeExceptionally(new RejectedExecutionException("coordinator loop " + r));
        }
        return f;
    }

    /**
     * The engine's synchronous snapshot demand: the same strict cut as {@link #snapshot}, taken on
     * the calling thread when the loop is free (see the class comment), else by the loop's current
     * owner, who hands the loop over when it ends its drain. Waits at most {@link
     * CoordinatorConfig#snapshotTimeout()} — checked between commands when the caller drains itself
     * — then throws {@link TimeoutException} so the engine fails this checkpoint (the loop itself
     * never waits). A wait above {@link CoordinatorConfig#snapshotSlowThreshold()} is counted and
     * logged. Must not be called on the loop.
     */
    public byte[] snapshotAndWait(long checkpointId) throws Exception {
        if (loop.isOwnerThread()) {
            throw new IllegalStateException(
                    "snapshotAndWait on the coordinator loop would deadlock");
        }
        long start = System.nanoTime();
        long deadline = start + config.snapshotTimeout().toNanos();
        Thread me = Thread.currentThread();
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        SnapshotCommand c = new SnapshotCommand(checkpointId, f, me);
        // Not scheduled on the executor yet: the caller first tries to run it itself.
        OfferResult r = loop.offerOnly(c);
        if (!r.isEnqueued()) {
            f.completeExceptionally(new RejectedExecutionException("coordinator loop " + r));
        }
        boolean waiter = serial.registerHandoffWaiter(me);
        try {
            awaitSnapshot(f, deadline, waiter);
        } catch (TimeoutException e) {
            long now = System.nanoTime();
            snapshotWaits.timedOut(checkpointId, now - start, now);
            throw e;
        } finally {
            if (waiter) {
                serial.clearHandoffWaiter(me);
            }
        }
        long now = System.nanoTime();
        snapshotWaits.answered(checkpointId, now - start, now);
        return f.get();
    }

    private void awaitSnapshot(CompletableFuture<byte[]> f, long deadline, boolean waiter)
            throws InterruptedException, TimeoutException {
        while (!f.isDone()) {
            if (Thread.interrupted()) {
                // The engine cancelling: leave the snapshot to the executor.
                loop.scheduleDrain();
                throw new InterruptedException("interrupted waiting for the coordinator snapshot");
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                loop.scheduleDrain();
                throw new TimeoutException(
                        "coordinator snapshot not taken within coordinator.snapshot-timeout");
            }
            // An unopened (or failed) loop keeps the snapshot until open: the executor runs it.
            boolean mayDrainHere = loop.isRunning();
            if (mayDrainHere && serial.runOnCaller(f, deadline)) {
                metrics.increment(Counter.SNAPSHOTS_ON_CALLER);
                continue;
            }
            if (!mayDrainHere || !waiter) {
                loop.scheduleDrain();
                try {
                    f.get(left, TimeUnit.NANOSECONDS);
                } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                    // Timeout: checked above; failure: snapshotAndWait rethrows it.
                }
                continue;
            }
            // Another thread drains: woken by the snapshot's answer or by that drain's release.
            LockSupport.parkNanos(this, left);
        }
    }

    /**
     * The snapshot command: its future fails instead of hanging when the command is dropped; a
     * parked {@link #snapshotAndWait} caller is woken when it is answered either way.
     */
    private final class SnapshotCommand extends CoordinatorLoop.Command {
        private final CompletableFuture<byte[]> future;
        private final Thread waiter;

        SnapshotCommand(long checkpointId, CompletableFuture<byte[]> future) {
            this(checkpointId, future, null);
        }

        SnapshotCommand(long checkpointId, CompletableFuture<byte[]> future, Thread waiter) {
            super(
                    CoordinatorCommandType.SNAPSHOT,
                    () -> {
                        try {
                            future.complete(loop.core().snapshot(checkpointId));
                            wake(waiter);
                        } catch (Exception e) {
                            // The engine fails this checkpoint; the coordinator itself is fine.
                            metrics.increment(Counter.SNAPSHOT_FAILURES);
                            LOG.warn(
                                    "Coordinator epoch {} could not snapshot checkpoint {}",
                                    config.epoch(),
                                    checkpointId,
                                    e);
                            future.completeExceptionally(e);
                            wake(waiter);
                        }
                    });
            this.future = future;
            this.waiter = waiter;
        }

        @Override
        void drop(String why) {
            if (future.completeExceptionally(
                    new IllegalStateException("coordinator snapshot not taken: " + why))) {
                metrics.increment(Counter.SNAPSHOT_FAILURES);
            }
            wake(waiter);
        }
    }

    private static void wake(Thread waiter) {
        if (waiter != null && waiter != Thread.currentThread()) {
            LockSupport.unpark(waiter);
        }
    }
}
