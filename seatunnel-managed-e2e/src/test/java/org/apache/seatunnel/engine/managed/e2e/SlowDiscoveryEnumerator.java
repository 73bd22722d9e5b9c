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

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * The managed FakeSource's enumerator plus slow discovery: on open it submits {@code burst}
 * discoveries (distinct keys) through {@code scheduler().callAsync}, each taking {@code
 * discoveryMillis} on a worker, and submits each key again when its result arrives, so the
 * coordinator always has discovery work in flight. A submission the pool refuses reaches the result
 * handler as a {@link RejectedExecutionException}; that key is not submitted again.
 *
 * <p>Threading: every callback, including the result handlers, on the coordinator loop (Lane A
 * only); the callables on the member's async workers touch only the probe.
 */
final class SlowDiscoveryEnumerator
        implements SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> {

    private final SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            splits;
    private final ManagedEnumeratorContext<ManagedFakeSplit> context;
    private final SlowDiscoveryProbe probe;
    private final int burst;
    private final long discoveryMillis;
    private final AsyncTaskOptions options =
            AsyncTaskOptions.builder()
                    .overlapPolicy(AsyncTaskOptions.OverlapPolicy.REJECT)
                    .timeout(java.time.Duration.ofMinutes(5))
                    .build();
    // Loop-owned.
    private boolean closed;

    SlowDiscoveryEnumerator(
            Context<ManagedFakeSplit> engineContext,
            SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>> splits,
            String runId,
            int burst,
            long discoveryMillis) {
        this.splits = splits;
        this.context = ManagedEnumeratorContext.of(engineContext);
        this.probe = SlowDiscoveryProbe.of(runId);
        this.burst = burst;
        this.discoveryMillis = discoveryMillis;
    }

    @Override
    public void open() {
        splits.open();
        CoordinatorScheduler scheduler = context.scheduler();
        for (int i = 0; i < burst; i++) {
            discover(scheduler, AsyncTaskKey.of("slow-discovery-" + i));
        }
    }

    private void discover(CoordinatorScheduler scheduler, AsyncTaskKey key) {
        probe.submitted.incrementAndGet();
        scheduler.callAsync(
                key,
                () -> {
                    probe.callableThreads.add(Thread.currentThread().getName());
                    probe.running.incrementAndGet();
                    try {
                        // Models a slow metadata call; the probe ends it early at test end.
                        probe.release.await(discoveryMillis, TimeUnit.MILLISECONDS);
                        return key;
                    } finally {
                        probe.running.decrementAndGet();
                    }
                },
                (done, error) -> {
                    if (error instanceof RejectedExecutionException) {
                        probe.rejections.add(error);
                        return;
                    }
                    if (error != null) {
                        probe.otherFailures.add(error);
                        return;
                    }
                    probe.finished.incrementAndGet();
                    if (!closed) {
                        discover(scheduler, key);
                    }
                },
                options);
    }

    @Override
    public void run() throws Exception {
        splits.run();
    }

    @Override
    public void close() throws java.io.IOException {
        closed = true;
        splits.close();
    }

    @Override
    public void addSplitsBack(List<ManagedFakeSplit> list, int subtaskId) {
        splits.addSplitsBack(list, subtaskId);
    }

    @Override
    public int currentUnassignedSplitSize() {
        return splits.currentUnassignedSplitSize();
    }

    @Override
    public void handleSplitRequest(int subtaskId) {
        splits.handleSplitRequest(subtaskId);
    }

    @Override
    public void registerReader(int subtaskId) {
        splits.registerReader(subtaskId);
    }

    @Override
    public NumberedSplitState<ManagedFakeSplit> snapshotState(long checkpointId) throws Exception {
        return splits.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        splits.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        splits.handleSourceEvent(subtaskId, sourceEvent);
    }
}
