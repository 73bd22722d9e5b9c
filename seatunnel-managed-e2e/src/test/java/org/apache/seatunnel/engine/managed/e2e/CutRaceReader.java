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

package org.apache.seatunnel.engine.managed.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * The reader of {@link CutRaceSource}. Rows are paced at one per {@code row.interval.millis} (with
 * catch-up, so the engine's empty-poll sleep does not slow it) until the injected fault fired; the
 * restored attempt reads at full speed. Once per run, when the enumerator's cut was requested, one
 * poll turn holds the checkpoint lock until the S1 assignment landed (bounded) and for at least
 * {@code hold.millis}: on Lane B inside {@code synchronized (output.getCheckpointLock())} like
 * today's slow readers, on Lane A by overrunning the turn's deadline (the host runs the turn under
 * the same lock). Every split it is given is read, even a split id it already has.
 *
 * <p>Threading: {@code pollNext}/{@code pollNextManaged}, {@code open} and {@code close} on the
 * task thread (Lane A: inside the host's loop turn); {@code addSplits} on an operation thread (Lane
 * B) or the task thread inside the loop (Lane A); {@code snapshotState} on an engine pool thread
 * holding the checkpoint lock; {@code wakeup} on any thread. {@code stateLock} guards the cursors;
 * {@code signal} guards the wakeup flag.
 */
final class CutRaceReader implements ManagedSourceReader<SeaTunnelRow, ManagedFakeSplit> {

    private static final long LANDING_WAIT_MILLIS = 5_000;
    private static final int FAST_BATCH = 64;

    private final SourceReader.Context context;
    private final CutRaceSource.Settings settings;
    private final CutRaceProbe probe;
    private final boolean restoredAttempt;
    private final String tableId = ManagedFakeRows.TABLE_PATH.toString();
    private final long intervalNanos;

    private final Object stateLock = new Object();
    // guarded by stateLock
    private final List<Cursor> cursors = new ArrayList<>();
    // guarded by stateLock
    private int roundRobin;
    // guarded by stateLock
    private long pacingStartNanos = Long.MIN_VALUE;
    // guarded by stateLock
    private long pacedRows;
    // guarded by stateLock
    private long lastSnapshot = -1;
    // guarded by stateLock
    private CompletableFuture<Void> availability;

    private final Object signal = new Object();
    // guarded by signal
    private boolean wakeupPending;

    CutRaceReader(SourceReader.Context context, CutRaceSource.Settings settings) {
        this.context = context;
        this.settings = settings;
        this.probe = CutRaceProbe.of(settings.runId);
        this.restoredAttempt = probe.faultFired();
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, settings.rowIntervalMillis));
        int n = probe.readerCreated();
        probe.log("reader attempt " + n + " created (after the fault: " + restoredAttempt + ")");
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return FakeSplitTestSource.CAPABILITY;
    }

    @Override
    public void open() {}

    @Override
    public void close() {
        wakeup();
    }

    // ---------------------------------------------------------------- Lane B

    @Override
    public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
        probe.legacyPoll();
        long wait = nanosUntilNextRow();
        if (wait > 0 && !probe.startHoldPossible()) {
            awaitSignal(System.nanoTime() + wait);
        }
        synchronized (output.getCheckpointLock()) {
            if (probe.startHold()) {
                holdLaneB();
                return;
            }
            failIfArmed("pollNext");
            emit(output, FAST_BATCH);
        }
    }

    /** Under the checkpoint lock: today's reader that waits for data while holding it. */
    private void holdLaneB() throws InterruptedException {
        long start = System.nanoTime();
        probe.readerHolding();
        boolean landed = probe.awaitS1ReachedReader(LANDING_WAIT_MILLIS);
        holdAtLeast(start);
        probe.holdEnded(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), landed);
    }

    // ---------------------------------------------------------------- Lane A

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
            throws Exception {
        probe.managedPoll();
        if (probe.startHold()) {
            holdLaneA();
            return PollStatus.MORE_AVAILABLE;
        }
        failIfArmed("pollNextManaged");
        synchronized (stateLock) {
            if (!hasUnfinished()) {
                return PollStatus.NOTHING_AVAILABLE;
            }
        }
        long wait = nanosUntilNextRow();
        if (wait > 0) {
            awaitSignal(Math.min(System.nanoTime() + wait, ctx.deadlineNanos()));
        }
        emit(output, ctx.remainingRecords());
        synchronized (stateLock) {
            return hasUnfinished() ? PollStatus.MORE_AVAILABLE : PollStatus.NOTHING_AVAILABLE;
        }
    }

    /**
     * One turn that overruns its deadline on purpose: the host holds the checkpoint lock around it,
     * so the engine's barrier N waits while the S1 assignment (cut N) reaches the mailbox on an
     * operation thread. The only command that can be admitted meanwhile is that assignment (no
     * checkpoint completes and no barrier is offered while the lock is held), so a rise of the
     * admitted count is its landing.
     */
    private void holdLaneA() throws InterruptedException {
        long start = System.nanoTime();
        long admittedBefore = admitted();
        probe.readerHolding();
        boolean assigned = probe.awaitS1Assigned(LANDING_WAIT_MILLIS);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LANDING_WAIT_MILLIS);
        boolean landed = false;
        while (assigned && System.nanoTime() - until < 0) {
            if (admitted() > admittedBefore) {
                landed = true;
                break;
            }
            synchronized (signal) {
                // A short timed wait on our own monitor; wakeups are ignored during the hold.
                signal.wait(1);
            }
        }
        holdAtLeast(start);
        probe.holdEnded(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), landed);
    }

    private static long admitted() {
        Long v = RuntimeStats.admissions().get(AdmissionStatus.ACCEPTED);
        return v == null ? 0 : v;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        synchronized (stateLock) {
            if (hasUnfinished()) {
                return CompletableFuture.completedFuture(null);
            }
            if (availability == null || availability.isDone()) {
                availability = new CompletableFuture<>();
            }
            return availability;
        }
    }

    @Override
    public void wakeup() {
        synchronized (signal) {
            wakeupPending = true;
            signal.notifyAll();
        }
    }

    // ---------------------------------------------------------------- splits and state

    @Override
    public void addSplits(List<ManagedFakeSplit> splits) {
        CompletableFuture<Void> ready;
        boolean s1 = false;
        boolean afterBarrierN;
        synchronized (stateLock) {
            for (ManagedFakeSplit split : splits) {
                cursors.add(new Cursor(split.splitNumber(), split.offset()));
                s1 |= split.splitNumber() == CutRaceSource.S1;
            }
            long n = probe.cutCheckpoint();
            afterBarrierN = n >= 0 && lastSnapshot >= n;
            ready = availability;
            availability = null;
        }
        probe.log("reader addSplits " + splits);
        if (s1 && !restoredAttempt) {
            probe.s1ReachedReader(afterBarrierN);
        }
        if (ready != null) {
            ready.complete(null);
        }
    }

    @Override
    public void handleNoMoreSplits() {}

    @Override
    public List<ManagedFakeSplit> snapshotState(long checkpointId) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        synchronized (stateLock) {
            for (Cursor c : cursors) {
                out.add(new ManagedFakeSplit(c.split, c.next));
                ids.add(ManagedFakeSplit.splitId(c.split) + "@" + c.next);
            }
            lastSnapshot = Math.max(lastSnapshot, checkpointId);
        }
        probe.readerSnapshot(checkpointId, ids);
        // Safety net: should the armed fault not have fired before the next barrier, fail this
        // checkpoint instead, so the job still restores from N.
        failIfArmed("snapshotState(" + checkpointId + ")");
        return out;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    // ---------------------------------------------------------------- internals

    private void failIfArmed(String where) {
        if (probe.fireFault()) {
            probe.log("reader fails in " + where);
            throw new IllegalStateException(
                    "CutRace injected reader failure in "
                            + where
                            + " of subtask "
                            + context.getIndexOfSubtask());
        }
    }

    /** 0 when a row may go now; the restored attempt is not paced. */
    private long nanosUntilNextRow() {
        if (restoredAttempt) {
            return 0;
        }
        synchronized (stateLock) {
            if (pacingStartNanos == Long.MIN_VALUE) {
                return 0;
            }
            long dueAt = pacingStartNanos + pacedRows * intervalNanos;
            return Math.max(0, dueAt - System.nanoTime());
        }
    }

    /** Emits the rows due now (round-robin over unfinished cursors), at most {@code limit}. */
    private void emit(Collector<SeaTunnelRow> output, int limit) {
        List<SeaTunnelRow> rows = new ArrayList<>();
        boolean exhausted;
        synchronized (stateLock) {
            long now = System.nanoTime();
            if (pacingStartNanos == Long.MIN_VALUE && hasUnfinished()) {
                pacingStartNanos = now;
            }
            long budget =
                    restoredAttempt
                            ? FAST_BATCH
                            : (now - pacingStartNanos) / intervalNanos + 1 - pacedRows;
            budget = Math.min(budget, Math.min(limit, FAST_BATCH));
            while (budget-- > 0) {
                SeaTunnelRow row = nextRow();
                if (row == null) {
                    break;
                }
                rows.add(row);
                pacedRows++;
            }
            exhausted = restoredAttempt && !cursors.isEmpty() && !hasUnfinished();
        }
        for (SeaTunnelRow row : rows) {
            output.collect(row);
        }
        if (exhausted) {
            probe.exhaustedAfterFault();
        }
    }

    /** Under stateLock. */
    private SeaTunnelRow nextRow() {
        int n = cursors.size();
        for (int i = 0; i < n; i++) {
            Cursor c = cursors.get((roundRobin + i) % n);
            if (c.next < settings.rowsPerSplit) {
                roundRobin = (roundRobin + i + 1) % n;
                long seq = c.next++;
                SeaTunnelRow row =
                        new SeaTunnelRow(
                                new Object[] {
                                    ManagedFakeRows.rowId(c.split, CutRaceSource.SPLIT_COUNT, seq),
                                    c.split,
                                    seq,
                                    ManagedFakeRows.payload(c.split, seq)
                                });
                row.setTableId(tableId);
                return row;
            }
        }
        return null;
    }

    /** Under stateLock. */
    private boolean hasUnfinished() {
        for (Cursor c : cursors) {
            if (c.next < settings.rowsPerSplit) {
                return true;
            }
        }
        return false;
    }

    private void holdAtLeast(long startNanos) throws InterruptedException {
        long until = startNanos + TimeUnit.MILLISECONDS.toNanos(settings.holdMillis);
        synchronized (signal) {
            for (long left = until - System.nanoTime();
                    left > 0;
                    left = until - System.nanoTime()) {
                // Wakeups are ignored: this turn overruns on purpose.
                TimeUnit.NANOSECONDS.timedWait(signal, left);
            }
        }
    }

    /** Waits until {@code untilNanos} or a wakeup, whichever is first. */
    private void awaitSignal(long untilNanos) throws InterruptedException {
        synchronized (signal) {
            while (!wakeupPending) {
                long left = untilNanos - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(signal, left);
            }
            wakeupPending = false;
        }
    }

    /** Threading: guarded by stateLock. The read position of one assigned split. */
    private static final class Cursor {
        final int split;
        long next;

        Cursor(int split, long next) {
            this.split = split;
            this.next = next;
        }
    }
}
