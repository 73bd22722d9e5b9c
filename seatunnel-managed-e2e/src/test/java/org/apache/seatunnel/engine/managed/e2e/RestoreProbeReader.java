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

/**
 * The reader of {@link RestoreProbeSource}: one row per {@code row.interval.millis} (with
 * catch-up), round-robin over its splits, each split's offset moving past the rows emitted. The
 * first attempt fails once per run where {@code fail.at} says; every attempt reports the splits it
 * is given, its snapshots and completed checkpoints to {@link RestoreProbe}.
 *
 * <p>Threading: {@code pollNext}/{@code pollNextManaged}, {@code open} and {@code close} on the
 * task thread (Lane A: inside the host's loop turn); {@code addSplits} on an operation thread (Lane
 * B) or inside the loop (Lane A); {@code snapshotState} and {@code notifyCheckpointComplete} on
 * engine threads (Lane A: inside the loop); {@code wakeup} on any thread. {@code stateLock} guards
 * the cursors, the pacing and the armed poll fault; {@code signal} guards the wakeup flag.
 */
final class RestoreProbeReader implements ManagedSourceReader<SeaTunnelRow, ManagedFakeSplit> {

    private static final int MAX_BATCH = 64;
    private static final long IDLE_WAIT_MILLIS = 20;

    private final RestoreProbeSource.Settings settings;
    private final RestoreProbe probe;
    private final int attempt;
    private final String tableId = ManagedFakeRows.TABLE_PATH.toString();
    private final long intervalNanos;

    private final Object stateLock = new Object();
    // guarded by stateLock
    private final List<long[]> cursors = new ArrayList<>();
    // guarded by stateLock
    private int roundRobin;
    // guarded by stateLock
    private long pacingStartNanos = Long.MIN_VALUE;
    // guarded by stateLock
    private long pacedRows;
    // guarded by stateLock
    private boolean pollFaultArmed;
    // guarded by stateLock
    private CompletableFuture<Void> availability;

    private final Object signal = new Object();
    // guarded by signal
    private boolean wakeupPending;

    RestoreProbeReader(SourceReader.Context context, RestoreProbeSource.Settings settings) {
        this.settings = settings;
        this.probe = RestoreProbe.of(settings.runId);
        this.attempt = probe.readerCreated();
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, settings.rowIntervalMillis));
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
        long wait = nanosUntilNextRow();
        if (wait > 0) {
            awaitSignal(System.nanoTime() + wait);
        }
        synchronized (output.getCheckpointLock()) {
            failIfPollArmed();
            emit(output, MAX_BATCH);
        }
    }

    // ---------------------------------------------------------------- Lane A

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
            throws Exception {
        failIfPollArmed();
        synchronized (stateLock) {
            if (cursors.isEmpty()) {
                return PollStatus.NOTHING_AVAILABLE;
            }
        }
        long wait = nanosUntilNextRow();
        if (wait > 0) {
            awaitSignal(Math.min(System.nanoTime() + wait, ctx.deadlineNanos()));
        }
        emit(output, Math.min(MAX_BATCH, ctx.remainingRecords()));
        return PollStatus.MORE_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        synchronized (stateLock) {
            if (!cursors.isEmpty()) {
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
        synchronized (stateLock) {
            for (ManagedFakeSplit s : splits) {
                cursors.add(new long[] {s.splitNumber(), s.offset()});
            }
            ready = availability;
            availability = null;
        }
        probe.splitsReceived(attempt, RestoreProbeEnumerator.ids(splits));
        if (ready != null) {
            ready.complete(null);
        }
        wakeup();
    }

    @Override
    public void handleNoMoreSplits() {}

    @Override
    public List<ManagedFakeSplit> snapshotState(long checkpointId) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        synchronized (stateLock) {
            for (long[] c : cursors) {
                out.add(new ManagedFakeSplit((int) c[0], c[1]));
            }
        }
        probe.snapshot(attempt, checkpointId, RestoreProbeEnumerator.ids(out));
        if (settings.failAt == RestoreProbeSource.FailAt.SNAPSHOT) {
            failOnce(checkpointId, "snapshotState(" + checkpointId + ")");
        }
        return out;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        probe.checkpointComplete(attempt, checkpointId);
        if (settings.failAt == RestoreProbeSource.FailAt.COMPLETE) {
            failOnce(checkpointId, "notifyCheckpointComplete(" + checkpointId + ")");
        } else if (settings.failAt == RestoreProbeSource.FailAt.POLL_AFTER_COMPLETE
                && attempt == 0
                && checkpointId >= settings.failCheckpoint) {
            synchronized (stateLock) {
                pollFaultArmed = true;
            }
        }
    }

    // ---------------------------------------------------------------- internals

    private void failOnce(long checkpointId, String where) {
        if (attempt == 0 && checkpointId >= settings.failCheckpoint && probe.fire(where)) {
            throw new IllegalStateException("RestoreProbe injected reader failure in " + where);
        }
    }

    private void failIfPollArmed() {
        boolean armed;
        synchronized (stateLock) {
            armed = pollFaultArmed;
            pollFaultArmed = false;
        }
        if (armed && probe.fire("the first poll after the checkpoint completed")) {
            throw new IllegalStateException(
                    "RestoreProbe injected reader failure in the first poll after checkpoint "
                            + settings.failCheckpoint
                            + " completed");
        }
    }

    /** 0 when a row may go now. */
    private long nanosUntilNextRow() {
        synchronized (stateLock) {
            if (cursors.isEmpty()) {
                return TimeUnit.MILLISECONDS.toNanos(IDLE_WAIT_MILLIS);
            }
            if (pacingStartNanos == Long.MIN_VALUE) {
                return 0;
            }
            long dueAt = pacingStartNanos + pacedRows * intervalNanos;
            return Math.max(0, dueAt - System.nanoTime());
        }
    }

    /** Emits the rows due now, round-robin over the splits, at most {@code limit}. */
    private void emit(Collector<SeaTunnelRow> output, int limit) {
        List<SeaTunnelRow> rows = new ArrayList<>();
        synchronized (stateLock) {
            if (cursors.isEmpty()) {
                return;
            }
            long now = System.nanoTime();
            if (pacingStartNanos == Long.MIN_VALUE) {
                pacingStartNanos = now;
            }
            long due = (now - pacingStartNanos) / intervalNanos + 1 - pacedRows;
            for (long n = Math.min(due, limit); n > 0; n--) {
                long[] c = cursors.get(roundRobin);
                roundRobin = (roundRobin + 1) % cursors.size();
                int split = (int) c[0];
                long seq = c[1]++;
                SeaTunnelRow row =
                        new SeaTunnelRow(
                                new Object[] {
                                    ManagedFakeRows.rowId(
                                            split, RestoreProbeSource.SPLIT_COUNT, seq),
                                    split,
                                    seq,
                                    ManagedFakeRows.payload(split, seq)
                                });
                row.setTableId(tableId);
                rows.add(row);
                pacedRows++;
            }
        }
        for (SeaTunnelRow row : rows) {
            output.collect(row);
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
}
