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

package org.apache.seatunnel.api.source.managed;

import java.util.List;
import java.util.Set;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * The Lane B view of a stock engine context: every engine method delegates unchanged, and the
 * scheduler is a {@link SingleThreadCoordinatorScheduler} of this context.
 *
 * <p>Threading: the delegated methods are as thread-safe as the engine's context; {@link
 * #scheduler()} and {@link #close()} may be called from any thread (guarded by {@code this}).
 */
final class StockEnumeratorContext<SplitT extends SourceSplit>
        implements ManagedEnumeratorContext<SplitT> {

    private final SourceSplitEnumerator.Context<SplitT> engine;

    // guarded by this; created on first use so enumerators that never schedule cost no thread
    private SingleThreadCoordinatorScheduler scheduler;
    // guarded by this
    private boolean closed;

    StockEnumeratorContext(SourceSplitEnumerator.Context<SplitT> engine) {
        this.engine = engine;
    }

    @Override
    public synchronized CoordinatorScheduler scheduler() {
        if (scheduler == null) {
            scheduler = new SingleThreadCoordinatorScheduler();
            if (closed) {
                // A scheduler asked for after close refuses everything, as a closed one does.
                scheduler.close();
            }
        }
        return scheduler;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (scheduler != null) {
            scheduler.close();
        }
    }

    @Override
    public int currentParallelism() {
        return engine.currentParallelism();
    }

    @Override
    public Set<Integer> registeredReaders() {
        return engine.registeredReaders();
    }

    @Override
    public void assignSplit(int subtaskIndex, List<SplitT> splits) {
        engine.assignSplit(subtaskIndex, splits);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        engine.signalNoMoreSplits(subtask);
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        engine.sendEventToSourceReader(subtaskId, event);
    }

    @Override
    public MetricsContext getMetricsContext() {
        return engine.getMetricsContext();
    }

    @Override
    public EventListener getEventListener() {
        return engine.getEventListener();
    }
}
