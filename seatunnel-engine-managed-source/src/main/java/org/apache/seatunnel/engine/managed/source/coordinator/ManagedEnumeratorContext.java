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

import java.util.List;
import java.util.Set;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;

/**
 * Threading: every method may be called only on the coordinator loop, i.e. from inside an
 * enumerator callback or a scheduler result handler; other threads get an IllegalStateException.
 *
 * <p>The context handed to the connector's enumerator. It only records intent: {@code assignSplit}
 * adds tracker entries that the loop dispatches after the callback returns, {@code
 * signalNoMoreSplits} marks a subtask, {@code sendEventToSourceReader} queues an ephemeral command.
 * Nothing here waits on a remote call. A managed enumerator reaches the {@link
 * CoordinatorScheduler} through {@link #scheduler()}.
 */
public final class ManagedEnumeratorContext<SplitT extends SourceSplit>
        implements SourceSplitEnumerator.Context<SplitT> {

    private final CoordinatorCore<SplitT, ?> core;
    private final LoopPort loop;
    private final int parallelism;
    private final MetricsContext metricsContext;
    private final EventListener eventListener;

    ManagedEnumeratorContext(
            CoordinatorCore<SplitT, ?> core,
            LoopPort loop,
            int parallelism,
            MetricsContext metricsContext,
            EventListener eventListener) {
        this.core = core;
        this.loop = loop;
        this.parallelism = parallelism;
        this.metricsContext = metricsContext;
        this.eventListener = eventListener;
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public Set<Integer> registeredReaders() {
        loop.checkOwnerThread("registeredReaders");
        return core.registeredReaders();
    }

    @Override
    public void assignSplit(int subtaskIndex, List<SplitT> splits) {
        loop.checkOwnerThread("assignSplit");
        core.assign(subtaskIndex, splits);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        loop.checkOwnerThread("signalNoMoreSplits");
        core.signalNoMoreSplits(subtask);
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        loop.checkOwnerThread("sendEventToSourceReader");
        core.sendEvent(subtaskId, event);
    }

    /** The host's metrics context, or null when the host supplied none. */
    @Override
    public MetricsContext getMetricsContext() {
        return metricsContext;
    }

    /** The host's event listener, or null when the host supplied none. */
    @Override
    public EventListener getEventListener() {
        return eventListener;
    }

    /** The scheduler of this coordinator epoch; loop only. */
    public CoordinatorScheduler scheduler() {
        loop.checkOwnerThread("scheduler");
        return core.scheduler();
    }
}
