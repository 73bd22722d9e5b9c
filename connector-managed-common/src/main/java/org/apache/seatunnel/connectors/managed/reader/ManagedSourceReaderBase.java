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

package org.apache.seatunnel.connectors.managed.reader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.connectors.managed.reader.fetcher.FetchQueue;
import org.apache.seatunnel.connectors.managed.reader.fetcher.SingleThreadFetcherManager;
import org.apache.seatunnel.connectors.managed.reader.fetcher.SplitFetcherManager;
import org.apache.seatunnel.connectors.managed.reader.fetcher.SplitPerThreadFetcherManager;

/**
 * The reader a Lane A connector extends: the author supplies a {@link ManagedSplitReader} (the
 * blocking I/O), a {@link ManagedRecordEmitter} and the conversion between a split and its mutable
 * state; the base owns the split-state map, the fetch threads, the bounded fetch queue,
 * availability, wakeup, snapshots, restore and the Lane B {@code pollNext}.
 *
 * <p>Threading: on Lane A the runtime calls every method from its reader loop, one at a time,
 * except {@link #wakeup()}. On Lane B the engine calls {@link #pollNext} on the task thread, {@link
 * #snapshotState} on another thread holding the checkpoint lock, and {@link #addSplits}, {@link
 * #handleNoMoreSplits} on operation threads; so the map of split states is guarded by its own
 * monitor for structural changes, and a split's state is only advanced while records are emitted,
 * which on Lane B happens under the checkpoint lock — never at the same time as a snapshot. Fetch
 * threads never see split state: they get the immutable splits as assigned or restored.
 *
 * <p>Snapshot and emit are atomic: a split's state moves only in {@link
 * ManagedRecordEmitter#emitRecord}, on the loop, so a snapshot holds exactly the records emitted
 * before it; fetched records not yet emitted are fetched again after a restore from the state's
 * position. A split read to its end leaves the state (and every later snapshot) once its last
 * record was emitted.
 *
 * @param <E> what the split reader fetches (e.g. a raw record with its offset)
 * @param <T> what the source emits (usually {@code SeaTunnelRow})
 * @param <SplitT> the connector's split, immutable
 * @param <SplitStateT> the mutable read position of one split, advanced by the emitter
 */
public abstract class ManagedSourceReaderBase<E, T, SplitT extends SourceSplit, SplitStateT>
        implements ManagedSourceReader<T, SplitT> {

    /** How splits map to fetch threads. */
    public enum FetchMode {
        /** One fetch thread and split reader for all splits. */
        SINGLE_THREAD,
        /** A fetch thread and split reader per split, at most {@code maxThreads} at once. */
        THREAD_PER_SPLIT
    }

    /** What the base promises the runtime: bounded poll turns and wakeup. */
    public static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    protected final SourceReader.Context context;
    protected final ManagedReaderConfig config;
    private final ManagedRecordEmitter<E, T, SplitStateT> emitter;
    private final FetchQueue<E> queue;
    private final SplitFetcherManager<E, SplitT> fetchers;
    private final ReaderBaseMetrics metrics;

    // structural changes and snapshots hold the monitor of splitStates
    private final Map<String, SplitStateT> splitStates = new LinkedHashMap<>();
    // guarded by splitStates
    private final RecentlyFinishedSplits finishedSplits;
    private volatile boolean noMoreSplits;

    // the polling thread only (the loop on Lane A, the task thread on Lane B)
    private FetchedRecords<E> current;
    private int splitIndex;
    private int recordIndex;
    private SplitStateT currentState;
    private boolean endSignalled;

    /** A base with one fetch thread (see {@link FetchMode#SINGLE_THREAD}). */
    protected ManagedSourceReaderBase(
            SourceReader.Context context,
            ManagedReaderConfig config,
            Supplier<ManagedSplitReader<E, SplitT>> splitReaders,
            ManagedRecordEmitter<E, T, SplitStateT> emitter) {
        this(context, config, FetchMode.SINGLE_THREAD, 1, splitReaders, emitter);
    }

    /**
     * @param maxThreads for {@link FetchMode#THREAD_PER_SPLIT}, the fetch threads running at once
     */
    protected ManagedSourceReaderBase(
            SourceReader.Context context,
            ManagedReaderConfig config,
            FetchMode mode,
            int maxThreads,
            Supplier<ManagedSplitReader<E, SplitT>> splitReaders,
            ManagedRecordEmitter<E, T, SplitStateT> emitter) {
        this.context = context;
        this.config = config;
        this.emitter = emitter;
        this.queue = new FetchQueue<>(config.fetchQueueMaxRecords(), config.fetchQueueMaxBytes());
        String prefix =
                "managed-fetcher-" + getClass().getSimpleName() + "-" + context.getIndexOfSubtask();
        this.fetchers =
                mode == FetchMode.SINGLE_THREAD
                        ? new SingleThreadFetcherManager<>(splitReaders, queue, config, prefix)
                        : new SplitPerThreadFetcherManager<>(
                                splitReaders, queue, config, prefix, maxThreads);
        this.metrics = new ReaderBaseMetrics(context.getMetricsContext(), queue);
        this.finishedSplits =
                new RecentlyFinishedSplits(
                        config.finishedSplitsRemembered(), metrics.finishedSplitsForgotten::inc);
    }

    // ---------------------------------------------------------------- what the author supplies

    /** The mutable read position of a newly assigned or restored split. */
    protected abstract SplitStateT initialState(SplitT split);

    /** An immutable split that resumes reading at {@code state}; used for snapshots. */
    protected abstract SplitT toSplit(String splitId, SplitStateT state);

    /**
     * Called on the polling thread after the last records of these splits were emitted; they have
     * left the state. Default: nothing.
     */
    protected void onSplitsFinished(Map<String, SplitStateT> finished) {}

    /** Override to declare more (e.g. source events); must keep bounded poll and wakeup. */
    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    // ---------------------------------------------------------------- splits and state

    @Override
    public void open() throws Exception {}

    /**
     * Registers the splits' initial state and hands them to the fetch threads. A split already
     * known to this reader (assigned, restored or finished) is ignored, so a repeated delivery
     * neither resets its position nor reads it twice.
     */
    @Override
    public void addSplits(List<SplitT> splits) {
        List<SplitT> fresh = new ArrayList<>(splits.size());
        synchronized (splitStates) {
            for (SplitT split : splits) {
                String id = split.splitId();
                if (splitStates.containsKey(id) || finishedSplits.contains(id)) {
                    metrics.duplicateSplits.inc();
                    continue;
                }
                splitStates.put(id, initialState(split));
                fresh.add(split);
            }
        }
        if (!fresh.isEmpty()) {
            fetchers.addSplits(fresh);
            metrics.assignedSplits.inc(fresh.size());
        }
    }

    @Override
    public void handleNoMoreSplits() {
        noMoreSplits = true;
        // A bounded reader with nothing left must get a chance to report its end.
        queue.signalAvailable();
    }

    /** The state of every unfinished split, in assignment order, as immutable splits. */
    @Override
    public List<SplitT> snapshotState(long checkpointId) {
        synchronized (splitStates) {
            List<SplitT> out = new ArrayList<>(splitStates.size());
            for (Map.Entry<String, SplitStateT> e : splitStates.entrySet()) {
                out.add(toSplit(e.getKey(), e.getValue()));
            }
            return out;
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Splits assigned and not yet read to their end. */
    public int unfinishedSplits() {
        synchronized (splitStates) {
            return splitStates.size();
        }
    }

    /**
     * {@link #unfinishedSplits()} when {@link #everySplitEnds()}, else unknown: see {@link
     * ManagedSourceReader#splitBacklog()}.
     */
    @Override
    public int splitBacklog() {
        return everySplitEnds() ? unfinishedSplits() : SPLIT_BACKLOG_UNKNOWN;
    }

    /**
     * Whether every split this reader may be given is read to an end (a file, a range, a bounded
     * partition). Then Lane A holds the splits it has not sent yet in the coordinator and gives
     * this reader at most {@code reader.split-window} unread splits at a time. False by default: a
     * reader of endless splits (a stream's partitions) must be able to hold all of them.
     */
    protected boolean everySplitEnds() {
        return false;
    }

    // ---------------------------------------------------------------- Lane A

    /**
     * Emits fetched records until the turn's budget is used up or nothing is fetched. Never blocks:
     * with nothing fetched it returns {@link PollStatus#NOTHING_AVAILABLE} and the queue completes
     * {@link #isAvailable()} when a batch arrives.
     */
    @Override
    public PollStatus pollNextManaged(Collector<T> output, PollContext ctx) throws Exception {
        fetchers.checkErrors();
        while (ctx.remainingRecords() > 0 && !ctx.shouldYield()) {
            if (!emitNext(output)) {
                break;
            }
        }
        // A turn whose budget ended with the batch's last record would otherwise report
        // MORE_AVAILABLE for an exhausted batch and cost the loop an empty turn.
        settleCurrent();
        if (hasFetched()) {
            return PollStatus.MORE_AVAILABLE;
        }
        return endOfInput() ? PollStatus.END_OF_INPUT : PollStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return queue.availability();
    }

    /** Completes a pending availability future; nothing in this base blocks the loop. */
    @Override
    public void wakeup() {
        queue.signalAvailable();
    }

    // ---------------------------------------------------------------- Lane B

    /**
     * Lane B: emits up to {@code reader.legacy-poll.max-records} fetched records inside one hold of
     * the checkpoint lock; with nothing fetched, waits up to {@code
     * reader.legacy-poll.idle-wait-ms} for a batch outside the lock, and signals the end of a
     * bounded input once.
     */
    @Override
    public void pollNext(Collector<T> output) throws Exception {
        fetchers.checkErrors();
        int emitted = 0;
        synchronized (output.getCheckpointLock()) {
            while (emitted < config.legacyPollMaxRecords() && emitNext(output)) {
                emitted++;
            }
        }
        if (emitted > 0) {
            return;
        }
        if (endOfInput()) {
            if (!endSignalled) {
                endSignalled = true;
                context.signalNoMoreElement();
            }
            return;
        }
        awaitFetched(config.legacyPollIdleWaitNanos());
    }

    private void awaitFetched(long nanos) throws InterruptedException {
        if (nanos <= 0) {
            return;
        }
        try {
            queue.availability().get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Nothing fetched in time: the engine calls again.
        }
    }

    // ---------------------------------------------------------------- emitting

    /** Emits the next fetched element; false if nothing is fetched. Advances split state. */
    private boolean emitNext(Collector<T> output) throws Exception {
        for (; ; ) {
            if (current == null) {
                current = queue.poll();
                if (current == null) {
                    return false;
                }
                splitIndex = -1;
                recordIndex = 0;
                currentState = null;
                nextSplit();
            }
            if (currentState != null) {
                List<E> records = current.records(splitIndex);
                if (recordIndex < records.size()) {
                    emitter.emitRecord(records.get(recordIndex++), output, currentState);
                    return true;
                }
                nextSplit();
                continue;
            }
            finishBatch();
        }
    }

    /**
     * Moves past the current batch's read-out splits without emitting, and finishes the batch if
     * nothing of it is left, so {@link #hasFetched()} is true only if a record is waiting.
     * Finishing here is what the next {@link #emitNext} would do first, within the same hold of the
     * loop.
     */
    private void settleCurrent() {
        while (current != null) {
            if (currentState == null) {
                finishBatch();
                return;
            }
            if (recordIndex < current.records(splitIndex).size()) {
                return;
            }
            nextSplit();
        }
    }

    /** Moves to the next split of the current batch; leaves currentState null after the last. */
    private void nextSplit() {
        splitIndex++;
        recordIndex = 0;
        if (splitIndex >= current.splitCount()) {
            currentState = null;
            return;
        }
        String id = current.splitId(splitIndex);
        SplitStateT state;
        synchronized (splitStates) {
            state = splitStates.get(id);
        }
        if (state == null) {
            throw new IllegalStateException(
                    "the split reader fetched records of a split this reader does not own"
                            + " (finished or never assigned)");
        }
        currentState = state;
    }

    private void finishBatch() {
        FetchedRecords<E> done = current;
        current = null;
        if (done.finishedSplits().isEmpty()) {
            return;
        }
        Map<String, SplitStateT> finished = new LinkedHashMap<>();
        synchronized (splitStates) {
            for (String id : done.finishedSplits()) {
                SplitStateT s = splitStates.remove(id);
                if (s != null) {
                    finished.put(id, s);
                    finishedSplits.add(id);
                }
            }
        }
        if (!finished.isEmpty()) {
            metrics.finishedSplits.inc(finished.size());
            onSplitsFinished(Collections.unmodifiableMap(finished));
        }
    }

    /** Finished split ids this reader still remembers (tests). */
    int finishedSplitsRemembered() {
        synchronized (splitStates) {
            return finishedSplits.size();
        }
    }

    private boolean hasFetched() {
        return current != null || !queue.isEmpty();
    }

    /** Bounded, told no more splits come, every split read to its end and emitted. */
    private boolean endOfInput() {
        if (context.getBoundedness() != Boundedness.BOUNDED || !noMoreSplits || hasFetched()) {
            return false;
        }
        synchronized (splitStates) {
            return splitStates.isEmpty();
        }
    }

    // ---------------------------------------------------------------- close

    /** Stops the fetch threads (bounded by {@code reader.close-timeout-ms}). Idempotent. */
    @Override
    public void close() {
        fetchers.close();
    }

    /** Fetch threads alive now; for tests and diagnostics. */
    public int liveFetchThreads() {
        return fetchers.liveFetchers();
    }
}
