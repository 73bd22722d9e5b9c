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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeConfig;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * The reader of {@link SafetyNetSource}: a fetch thread of its own reads the assigned splits' rows
 * into an element queue, one row per {@code row.arrival.millis}, and poll turns emit from that
 * queue, advancing split state only where they emit. What it gets wrong on purpose depends on the
 * behaviour (see {@link SafetyNetSource}).
 *
 * <p>Threading: every method but {@link #wakeup()} runs on the reader event loop; the fetch thread
 * sees only immutable split descriptions (split number, start offset) and the element queue, except
 * in behaviour {@code off-loop}, where it advances the split offsets itself (the bug under test)
 * and completes the availability future it guards with {@code availableLock}.
 */
final class SafetyNetReader implements ManagedSourceReader<SeaTunnelRow, ManagedFakeSplit> {
    private static final Object WAKE = new Object();

    private final SourceReader.Context context;
    private final ManagedFakeConfig fake;
    private final SafetyNetSource.Settings settings;
    private final String tableId = ManagedFakeRows.TABLE_PATH.toString();
    // Split number -> next seq to emit; loop thread only, except in behaviour off-loop, where the
    // fetch thread moves it to the next seq to fetch (hence a concurrent map).
    private final Map<Integer, Long> offsets = new ConcurrentSkipListMap<>();
    private final boolean offLoop;
    private final Object availableLock = new Object();
    // Behaviour off-loop: completed by the fetch thread after each row; guarded by availableLock.
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreSplits;
    // Fetch thread -> loop: rows, and WAKE tokens from wakeup().
    private final LinkedBlockingQueue<Object> fetched = new LinkedBlockingQueue<>();
    // Loop -> fetch thread: newly assigned splits as {number, from}.
    private final ConcurrentLinkedQueue<long[]> toFetch = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<Void> neverCompleted = new CompletableFuture<>();
    private final CountDownLatch neverReleased = new CountDownLatch(1);
    private ScheduledExecutorService fetcher;
    // Fetch thread only.
    private long[] fetching;

    SafetyNetReader(
            SourceReader.Context context,
            ManagedFakeConfig fake,
            SafetyNetSource.Settings settings) {
        this.context = context;
        this.fake = fake;
        this.settings = settings;
        this.offLoop = "off-loop".equals(settings.behaviour);
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return SafetyNetSource.CAPABILITY;
    }

    @Override
    public void open() {
        fetcher =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t =
                                    new Thread(
                                            r, "safety-net-fetch-" + context.getIndexOfSubtask());
                            t.setDaemon(true);
                            return t;
                        });
        fetcher.scheduleAtFixedRate(
                this::fetchOne,
                settings.rowArrivalMillis,
                settings.rowArrivalMillis,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Fetch thread: one row of the current split, if any. Never touches the availability future.
     */
    private void fetchOne() {
        if (fetching == null || fetching[1] >= fake.rowsPerSplit()) {
            fetching = toFetch.poll();
            if (fetching == null) {
                return;
            }
        }
        if (fetching[1] < fake.rowsPerSplit()) {
            int split = (int) fetching[0];
            long seq = fetching[1]++;
            SeaTunnelRow row =
                    new SeaTunnelRow(
                            new Object[] {
                                ManagedFakeRows.rowId(split, fake.splitCount(), seq),
                                split,
                                seq,
                                ManagedFakeRows.payload(split, seq)
                            });
            row.setTableId(tableId);
            if (offLoop) {
                // The bug under test: the position moves when a row is fetched, not when it is
                // emitted, so a checkpoint taken meanwhile skips the rows still queued.
                offsets.put(split, seq + 1);
            }
            fetched.add(row);
            if (offLoop) {
                synchronized (availableLock) {
                    available.complete(null);
                }
            }
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if ("unsignalled".equals(settings.behaviour)) {
            // The bug under test: data arrives, this future never says so.
            return neverCompleted;
        }
        if (offLoop) {
            // Never loses a wakeup: the fetch thread completes the current future after it queued
            // a row, under the same lock as this check and replacement.
            synchronized (availableLock) {
                if (!fetched.isEmpty()) {
                    return CompletableFuture.completedFuture(null);
                }
                if (available.isDone()) {
                    available = new CompletableFuture<>();
                }
                return available;
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
            throws Exception {
        if (settings.blocks(context.getIndexOfSubtask()) && !offsets.isEmpty()) {
            // A poll turn that blocks past every budget: interruptible, deaf to wakeup().
            neverReleased.await();
        }
        boolean waitForData = "block".equals(settings.behaviour);
        while (ctx.remainingRecords() > 0 && !ctx.shouldYield()) {
            Object next;
            if (waitForData) {
                long left = ctx.deadlineNanos() - ctx.nanoTime();
                next = left > 0 ? fetched.poll(left, TimeUnit.NANOSECONDS) : null;
            } else {
                next = fetched.poll();
            }
            if (next == null) {
                break;
            }
            if (next == WAKE) {
                continue;
            }
            SeaTunnelRow row = (SeaTunnelRow) next;
            output.collect(row);
            if (!offLoop) {
                offsets.put((Integer) row.getField(1), (Long) row.getField(2) + 1);
            }
        }
        if (finished()) {
            return PollStatus.END_OF_INPUT;
        }
        return fetched.isEmpty() ? PollStatus.NOTHING_AVAILABLE : PollStatus.MORE_AVAILABLE;
    }

    private boolean finished() {
        if (!fake.bounded() || !noMoreSplits || !fetched.isEmpty()) {
            return false;
        }
        for (long next : offsets.values()) {
            if (next < fake.rowsPerSplit()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void wakeup() {
        fetched.add(WAKE);
    }

    @Override
    public void pollNext(Collector<SeaTunnelRow> output) {
        throw new UnsupportedOperationException("SafetyNetProbe runs on Lane A only");
    }

    @Override
    public List<ManagedFakeSplit> snapshotState(long checkpointId) {
        List<ManagedFakeSplit> out = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            out.add(new ManagedFakeSplit(e.getKey(), e.getValue()));
        }
        return out;
    }

    @Override
    public void addSplits(List<ManagedFakeSplit> splits) {
        for (ManagedFakeSplit s : splits) {
            offsets.put(s.splitNumber(), s.offset());
            toFetch.add(new long[] {s.splitNumber(), s.offset()});
        }
    }

    @Override
    public void handleNoMoreSplits() {
        noMoreSplits = true;
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() {
        if (fetcher != null) {
            fetcher.shutdownNow();
        }
    }
}
