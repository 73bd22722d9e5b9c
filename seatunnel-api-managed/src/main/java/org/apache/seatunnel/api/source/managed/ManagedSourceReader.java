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

import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.annotation.Experimental;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * A source reader whose checkpoint-visible state the engine owns (STIP-31 Lane A).
 *
 * <p>Threading: on Lane A every method of this interface and of {@link SourceReader} is called by
 * the reader event loop, one call at a time, never concurrently, with the sole exception of {@link
 * #wakeup()}, which any thread may call at any time. {@code addSplits}, {@code handleNoMoreSplits},
 * {@code handleSourceEvent}, {@code snapshotState} and checkpoint callbacks are therefore never
 * concurrent with {@link #pollNextManaged}. Background threads the reader starts may fetch data but
 * must never mutate split state that {@code snapshotState} returns.
 *
 * <p>The legacy {@link SourceReader#pollNext} stays the Lane B entry point: the same class runs
 * unchanged when an operator keeps the job on Lane B.
 *
 * <p>Schema change. A reader reports a change of its table's schema through the collector of the
 * turn, with SeaTunnel's own calls: in one turn the rows read before the change, then {@link
 * Collector#markSchemaChangeBeforeCheckpoint()}, and return; in the next turn the change events
 * ({@link Collector#collect(org.apache.seatunnel.api.table.event.SchemaChangeEvent)}), then {@link
 * Collector#markSchemaChangeAfterCheckpoint()}, and return; rows with the new schema in later
 * turns. After a mark {@link PollContext#shouldYield()} is true, the checkpoint cut falls at the
 * end of that turn, and no further turn runs until that checkpoint completed. One change at a time:
 * a mark while one is in progress fails the attempt. The position and schema version belong in the
 * split state, advanced in the same turn. The connector guide ("Schema change") gives the rules and
 * what SeaTunnel 2.3.8's engine carries.
 */
@Experimental
public interface ManagedSourceReader<T, SplitT extends SourceSplit>
        extends SourceReader<T, SplitT> {

    /**
     * The versioned capability descriptor. Called once per deployment; the result's digest is
     * recorded in the job plan and in every checkpoint and must not depend on runtime state.
     */
    ManagedSourceCapability managedSourceCapability();

    /**
     * A future that completes when a poll turn could produce records. Non-blocking. Must never lose
     * a wakeup: if data arrives between a {@link PollStatus#NOTHING_AVAILABLE} result and this
     * call, the returned future is already complete. May return the same future until it completes.
     */
    CompletableFuture<Void> isAvailable();

    /**
     * Emits at most the budget of {@code context} to {@code output} and returns. Must not block
     * past {@link PollContext#deadlineNanos()}; a wait for data honours the deadline and {@link
     * #wakeup()}. Every record emitted and the split-state advancement it implies belong to this
     * turn: a snapshot runs only between turns.
     */
    PollStatus pollNextManaged(Collector<T> output, PollContext context) throws Exception;

    /**
     * How many splits this reader holds that it has not yet read to their end, or {@link
     * #SPLIT_BACKLOG_UNKNOWN} if it does not count them. Lane A keeps what it sends a reader that
     * counts within {@code reader.split-window}: the splits wait, bounded, in the coordinator until
     * the backlog falls, so a reader's memory and its checkpoint state stay small however many
     * splits the enumerator has.
     *
     * <p>Count only if every split this reader may be given ends (a file, a range, a bounded
     * partition): a reader whose splits may never end (a stream's partitions) must return {@link
     * #SPLIT_BACKLOG_UNKNOWN}, or it would stop getting splits once it held a window of endless
     * ones. Called on the reader event loop after every turn and apply: it must be cheap.
     */
    default int splitBacklog() {
        return SPLIT_BACKLOG_UNKNOWN;
    }

    /** {@link #splitBacklog()} of a reader that does not count its splits. */
    int SPLIT_BACKLOG_UNKNOWN = -1;

    /**
     * Makes a running or future wait inside {@link #pollNextManaged} return promptly. Idempotent,
     * thread-safe, non-blocking; called from any thread, including while a poll turn runs.
     */
    void wakeup();
}
