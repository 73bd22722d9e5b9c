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

import java.util.Objects;
import org.apache.seatunnel.api.annotation.Experimental;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * An enumerator context that also offers the {@link CoordinatorScheduler}; an enumerator reaches it
 * with {@link #of} from whatever context the engine handed it, so the same enumerator code runs on
 * both lanes without naming a runtime class.
 *
 * <p>Threading, Lane A (the managed runtime): every enumerator callback and scheduler result
 * handler runs on the source's coordinator loop. {@code assignSplit}, {@code signalNoMoreSplits}
 * and {@code sendEventToSourceReader} called from any other thread (a thread the enumerator started
 * itself, a client library's callback) are marshalled onto the loop through its bounded command
 * queue, in the order one thread made them, and counted as {@code
 * ManagedSourceEnumeratorCallsMarshalled}; a call the loop refuses (queue full, coordinator closed)
 * throws {@link java.util.concurrent.RejectedExecutionException} naming the reason. A marshalled
 * call takes effect when the loop reaches it, so an error it would have raised on the loop (for
 * example an assignment after no-more-splits) fails the coordinator instead of reaching the caller.
 * {@code registeredReaders()} from another thread returns an immutable snapshot, which may lag
 * behind registrations the loop has not applied yet. The scheduler's methods stay loop-only.
 *
 * <p>Threading, Lane B (the stock engine's context): every context method is the engine's own, as
 * thread-safe as it always was. The scheduler is a single daemon thread of this context, started by
 * the first {@link #scheduler()} call; tasks, callables and result handlers all run on that thread,
 * one at a time, so the enumerator must synchronise its state against engine callbacks exactly as
 * it does without the scheduler. {@link #close()} stops that thread.
 *
 * <p>Life cycle: call {@link #of} once (in the enumerator's constructor or {@code open()}) and keep
 * the result; call {@link #close()} from the enumerator's own {@code close()}.
 */
@Experimental
public interface ManagedEnumeratorContext<SplitT extends SourceSplit>
        extends SourceSplitEnumerator.Context<SplitT> {

    /**
     * The coordinator scheduler. Lane A: the scheduler of this coordinator epoch, whose methods may
     * only be called on the coordinator loop. Lane B: the context's single scheduler thread,
     * started on the first call; its methods may be called from any thread.
     */
    CoordinatorScheduler scheduler();

    /**
     * True when the runtime asks an enumerator that implements {@link SupportSplitDemand} for
     * splits (Lane A), false when it never does (Lane B: the stock engine expects assignment at
     * registration or on split requests).
     */
    default boolean splitDemand() {
        return false;
    }

    /**
     * Tells the runtime the enumerator has splits for reader {@code subtaskId} again (it discovered
     * new ones). Lane A: an enumerator that implements {@link SupportSplitDemand} and answered an
     * earlier demand of that reader with none is asked again; the runtime never repeats an
     * unanswered demand on its own. May be called from any thread, like {@code assignSplit}. Lane
     * B: nothing (the stock engine never asks).
     */
    default void splitsAvailable(int subtaskId) {}

    /**
     * Releases what this context started for the enumerator. Lane B: cancels every pending task and
     * stops the scheduler thread (a task or handler running at that moment is interrupted and
     * finishes; none starts afterwards). Lane A: nothing, the runtime closes the scheduler with the
     * coordinator. Idempotent; call it from the enumerator's own {@code close()}.
     */
    void close();

    /**
     * The managed view of {@code context}: the context itself when the runtime already supplies one
     * (Lane A), otherwise a wrapper that delegates every engine method to {@code context} and adds
     * a scheduler of its own (Lane B). Each call on a stock context makes a new wrapper with its
     * own scheduler, so call it once and keep the result.
     */
    @SuppressWarnings("unchecked")
    static <S extends SourceSplit> ManagedEnumeratorContext<S> of(
            SourceSplitEnumerator.Context<S> context) {
        Objects.requireNonNull(context, "context");
        if (context instanceof ManagedEnumeratorContext) {
            return (ManagedEnumeratorContext<S>) context;
        }
        return new StockEnumeratorContext<>(context);
    }
}
