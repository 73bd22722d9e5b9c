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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * The pull-model reader: it reads its splits one after another and, whenever it has none, asks for
 * one with {@code context.sendSplitRequest()} from inside the poll turn — every turn, until a split
 * or no-more-splits arrives — then reports {@code NOTHING_AVAILABLE}. Rows are {@code (split
 * number, n)}.
 *
 * <p>Threading: on Lane A every method but {@link #wakeup()} runs on the reader event loop; on Lane
 * B the engine calls {@code pollNext} on the task thread and {@code addSplits}/{@code
 * handleNoMoreSplits} on operation threads, so state is guarded by this object's monitor (held
 * neither across {@code sendSplitRequest} nor across {@code collect}).
 */
final class PullReader implements ManagedSourceReader<SeaTunnelRow, PullSplit> {
    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
    private static final int LANE_B_BATCH = 64;

    private final SourceReader.Context context;
    private final PullProbe probe;
    private final int subtask;
    // Guarded by this.
    private final ArrayDeque<PullSplit> splits = new ArrayDeque<>();
    private long next = -1;
    private boolean noMoreSplits;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    PullReader(SourceReader.Context context, PullProbe probe) {
        this.context = context;
        this.probe = probe;
        this.subtask = context.getIndexOfSubtask();
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    /** Says hello to the enumerator: sent before the attempt registered, so it waits for that. */
    @Override
    public void open() {
        context.sendSourceEventToEnumerator(new PullSource.Hello(subtask));
    }

    @Override
    public synchronized CompletableFuture<Void> isAvailable() {
        if (!splits.isEmpty() || noMoreSplits) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx) {
        int emitted = 0;
        for (; ; ) {
            PullSplit split;
            long n;
            synchronized (this) {
                split = splits.peekFirst();
                if (split == null) {
                    if (noMoreSplits) {
                        return PollStatus.END_OF_INPUT;
                    }
                } else {
                    if (next < 0) {
                        next = split.next;
                    }
                    if (next >= split.end) {
                        splits.pollFirst();
                        next = -1;
                        continue;
                    }
                }
                n = next;
            }
            if (split == null) {
                if (emitted == 0) {
                    askForASplit();
                    return PollStatus.NOTHING_AVAILABLE;
                }
                return PollStatus.MORE_AVAILABLE;
            }
            if (ctx.shouldYield()) {
                return PollStatus.MORE_AVAILABLE;
            }
            output.collect(new SeaTunnelRow(new Object[] {split.number, n}));
            emitted++;
            synchronized (this) {
                next = n + 1;
            }
        }
    }

    private void askForASplit() {
        context.sendSplitRequest();
        probe.callReturned(subtask);
    }

    /** Lane B: the same reading, a batch of rows under the engine's checkpoint lock. */
    @Override
    public void pollNext(Collector<SeaTunnelRow> output) {
        PullSplit split;
        boolean ask;
        synchronized (this) {
            split = splits.peekFirst();
            ask = split == null && !noMoreSplits;
            if (split == null && noMoreSplits) {
                context.signalNoMoreElement();
                return;
            }
        }
        if (ask) {
            askForASplit();
            return;
        }
        synchronized (output.getCheckpointLock()) {
            synchronized (this) {
                if (next < 0) {
                    next = split.next;
                }
                for (int i = 0; i < LANE_B_BATCH && next < split.end; i++) {
                    output.collect(new SeaTunnelRow(new Object[] {split.number, next}));
                    next++;
                }
                if (next >= split.end) {
                    splits.pollFirst();
                    next = -1;
                }
            }
        }
    }

    @Override
    public synchronized List<PullSplit> snapshotState(long checkpointId) {
        List<PullSplit> state = new ArrayList<>();
        boolean first = true;
        for (PullSplit s : splits) {
            state.add(first && next >= 0 ? new PullSplit(s.number, next, s.end) : s);
            first = false;
        }
        return state;
    }

    @Override
    public void addSplits(List<PullSplit> added) {
        CompletableFuture<Void> f;
        synchronized (this) {
            splits.addAll(added);
            f = available;
        }
        f.complete(null);
    }

    @Override
    public void handleNoMoreSplits() {
        CompletableFuture<Void> f;
        synchronized (this) {
            noMoreSplits = true;
            f = available;
        }
        f.complete(null);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void wakeup() {
        // A turn never waits: nothing to wake.
    }

    @Override
    public void close() {}
}
