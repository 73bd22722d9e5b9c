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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * The pull-model enumerator: it assigns nothing on its own, only one pending split in answer to
 * each {@code handleSplitRequest}, and tells a reader no more splits will come when it asks with
 * none left. Before it answers it checks, through the {@link PullProbe}, that the reader's call
 * that sent the request has returned (see {@link PullProbe#awaitCallReturned}).
 *
 * <p>Threading: on Lane A the runtime calls every method on the coordinator loop, one at a time; on
 * Lane B the engine calls from several threads, so state is guarded by this object's monitor.
 */
final class PullEnumerator implements SourceSplitEnumerator<PullSplit, ArrayList<PullSplit>> {
    /** How long a request's handling waits for the call that sent it to return. */
    static final long CALL_RETURN_BOUND_MILLIS = 2_000;

    private final Context<PullSplit> context;
    private final PullProbe probe;
    // Guarded by this.
    private final List<PullSplit> pending;
    private final long[] handledPerSubtask;

    PullEnumerator(Context<PullSplit> context, List<PullSplit> pending, PullProbe probe) {
        this.context = context;
        this.pending = new ArrayList<>(pending);
        this.probe = probe;
        this.handledPerSubtask = new long[Math.max(1, context.currentParallelism())];
    }

    @Override
    public void open() {}

    @Override
    public void run() {}

    @Override
    public void handleSplitRequest(int subtaskId) {
        long nth;
        synchronized (this) {
            nth = ++handledPerSubtask[subtaskId];
        }
        probe.requestsHandled.incrementAndGet();
        probe.awaitCallReturned(subtaskId, nth, CALL_RETURN_BOUND_MILLIS);
        PullSplit next;
        synchronized (this) {
            next = pending.isEmpty() ? null : pending.remove(0);
        }
        if (next == null) {
            context.signalNoMoreSplits(subtaskId);
        } else {
            probe.splitsAssigned.incrementAndGet();
            context.assignSplit(subtaskId, next);
        }
    }

    @Override
    public synchronized void addSplitsBack(List<PullSplit> splits, int subtaskId) {
        pending.addAll(splits);
    }

    @Override
    public synchronized int currentUnassignedSplitSize() {
        return pending.size();
    }

    @Override
    public void registerReader(int subtaskId) {}

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof PullSource.Hello && ((PullSource.Hello) event).subtask == subtaskId) {
            probe.eventsBySubtask
                    .computeIfAbsent(subtaskId, s -> new AtomicInteger())
                    .incrementAndGet();
        }
    }

    @Override
    public synchronized ArrayList<PullSplit> snapshotState(long checkpointId) {
        return new ArrayList<>(pending);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() {}
}
