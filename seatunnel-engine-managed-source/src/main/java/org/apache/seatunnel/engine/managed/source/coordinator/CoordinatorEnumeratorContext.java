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

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.CoordinatorScheduler;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;

/**
 * The Lane A context handed to the connector's enumerator: it only records intent, and calls from
 * threads other than the coordinator loop are marshalled onto the loop.
 *
 * <p>Threading: on the coordinator loop (inside an enumerator callback or a scheduler result
 * handler) every method acts at once, after any call the enumerator's own threads made before it.
 * From any other thread, {@code assignSplit}, {@code signalNoMoreSplits}, {@code splitsAvailable}
 * and {@code sendEventToSourceReader} validate the subtask, copy their arguments and offer the call
 * to the loop's bounded {@link EnumeratorCallQueue} (the command queue's capacity), counted as
 * {@code ManagedSourceEnumeratorCallsMarshalled}; never blocking. A refused offer (queue full, loop
 * closed) throws {@link RejectedExecutionException} with the reason and nothing is recorded. Queued
 * calls take effect in the order they were made: on the loop's next pass, before any direct call on
 * the loop, and before the tracker half of a checkpoint is taken when they were made before the
 * enumerator's snapshot returned. {@code registeredReaders} returns the loop's live view on the
 * loop and an immutable snapshot elsewhere. {@link #scheduler()} may be fetched anywhere; the
 * scheduler's own methods check for the loop.
 *
 * <p>{@code assignSplit} adds tracker entries that the loop dispatches after the command returns,
 * {@code signalNoMoreSplits} marks a subtask, {@code splitsAvailable} re-arms a subtask's split
 * demand, {@code sendEventToSourceReader} queues an ephemeral command. Nothing here waits on a
 * remote call.
 */
public final class CoordinatorEnumeratorContext<SplitT extends SourceSplit>
        implements ManagedEnumeratorContext<SplitT> {

    private final CoordinatorCore<SplitT, ?> core;
    private final LoopPort loop;
    private final int parallelism;
    private final MetricsContext metricsContext;
    private final EventListener eventListener;

    CoordinatorEnumeratorContext(
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
        return loop.isOwnerThread() ? core.registeredReaders() : core.registeredReadersSnapshot();
    }

    @Override
    public void assignSplit(int subtaskIndex, List<SplitT> splits) {
        if (loop.isOwnerThread()) {
            applyEarlierCalls();
            core.assign(subtaskIndex, splits);
            return;
        }
        checkSubtask(subtaskIndex);
        // The caller may reuse its list once this returns; the loop reads the copy later.
        List<SplitT> copy = new ArrayList<>(splits);
        marshal("assignSplit", () -> core.assign(subtaskIndex, copy));
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        if (loop.isOwnerThread()) {
            applyEarlierCalls();
            core.signalNoMoreSplits(subtask);
            return;
        }
        checkSubtask(subtask);
        marshal("signalNoMoreSplits", () -> core.signalNoMoreSplits(subtask));
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        if (loop.isOwnerThread()) {
            applyEarlierCalls();
            core.sendEvent(subtaskId, event);
            return;
        }
        checkSubtask(subtaskId);
        marshal("sendEventToSourceReader", () -> core.sendEvent(subtaskId, event));
    }

    @Override
    public void splitsAvailable(int subtaskId) {
        if (loop.isOwnerThread()) {
            applyEarlierCalls();
            core.splitsAvailable(subtaskId);
            return;
        }
        checkSubtask(subtaskId);
        marshal("splitsAvailable", () -> core.splitsAvailable(subtaskId));
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

    /** Lane A asks an enumerator that implements {@code SupportSplitDemand} for its splits. */
    @Override
    public boolean splitDemand() {
        return true;
    }

    /** The scheduler of this coordinator epoch; its methods may be called on the loop only. */
    @Override
    public CoordinatorScheduler scheduler() {
        return core.scheduler();
    }

    /** Nothing to release: the coordinator closes its scheduler itself. */
    @Override
    public void close() {}

    /**
     * Loop: calls the enumerator's own threads made before this one take effect first, as they
     * would on the stock engine, where every call acts at once (e.g. an assignment marshalled from
     * a thread, then no-more-splits for that subtask from a callback).
     */
    private void applyEarlierCalls() {
        loop.applyEnumeratorCallsBefore(loop.enumeratorCallTicket());
    }

    private void marshal(String what, LoopPort.Action action) {
        OfferResult r = loop.offerEnumeratorCall(action);
        if (r == OfferResult.ENQUEUED) {
            return;
        }
        throw new RejectedExecutionException(
                what
                        + " from thread "
                        + Thread.currentThread().getName()
                        + " was refused by the coordinator loop: "
                        + (r == OfferResult.QUEUE_FULL
                                ? "its bounded command queue is full (counted as"
                                        + " CoordinatorQueueFull); retry later"
                                : "the coordinator is closed"));
    }

    /** Fails on the caller's thread what would otherwise fail the coordinator later. */
    private void checkSubtask(int subtask) {
        if (subtask < 0 || subtask >= parallelism) {
            throw new IllegalArgumentException(
                    "subtask " + subtask + " outside parallelism " + parallelism);
        }
    }
}
