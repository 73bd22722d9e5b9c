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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.AsyncTaskKey;
import org.apache.seatunnel.api.source.managed.AsyncTaskOptions;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.ManagedEnumeratorContext;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An enumerator for a source that finds its splits as it runs (new files, partitions, ranges): the
 * author supplies {@link #discover}, a blocking call that turns a cursor into new splits and the
 * next cursor, and the base runs it on the coordinator scheduler's worker pool, hands the splits to
 * their owner readers, checkpoints the cursor with the splits not yet assigned ({@link
 * DiscoveryState}, {@link DiscoveryStateSerializer}) and tells readers no more splits will come
 * once discovery is finished and their own are out.
 *
 * <p>What the base does, on both lanes:
 *
 * <ul>
 *   <li>Discovery: the first at {@link #run()}, then every {@link DiscoveryConfig#intervalMillis()}
 *       after the previous one returned, or (interval 0) when a reader asks for splits and none
 *       wait for it, or (interval -1) never again. One discovery at a time, never two in flight,
 *       each bounded by {@link DiscoveryConfig#timeoutMillis()} through {@code callAsync}.
 *   <li>The bound: while {@link DiscoveryConfig#maxPendingSplits()} or more splits wait for their
 *       readers, no discovery starts; {@link #discover} is given the room left as its budget.
 *   <li>Hand-out: each split goes to {@link #owner} (by default a stable hash of its id). Lane A: a
 *       reader gets at most what {@link #handleSplitDemand} asks for, and the runtime is told
 *       ({@code splitsAvailable}) when discovery brings its reader new splits. Lane B: a registered
 *       reader gets all of its splits at once, as the stock engine expects.
 *   <li>{@link #addSplitsBack}: the splits go to the front of their owner's queue and out again
 *       when that reader is registered (again); a reader already told no more splits gets them only
 *       after it registers anew.
 *   <li>No-more-splits: signalled to a registered reader only when discovery is finished and
 *       nothing waits for it, checked again at each registration, so also after a restore.
 *   <li>Failures: the first discovery of an enumerator failing fails the job with its cause (Lane
 *       A: {@code FAIL_COORDINATOR}; Lane B: {@link #run()} waits for it and throws). A later one
 *       is logged and retried at the next interval; after {@link
 *       DiscoveryConfig#maxConsecutiveFailures()} in a row the job fails (Lane A: the last try
 *       fails the coordinator; both lanes: the next checkpoint of the enumerator throws).
 * </ul>
 *
 * <p>Threading: the author writes no lock. Every callback, every scheduler result and every author
 * hook except {@link #discover} runs one at a time: on Lane A the runtime calls them all on the
 * coordinator loop; on Lane B the engine calls from several threads and the context's scheduler
 * thread delivers results, so the base holds one monitor of its own around each of them (also
 * around the context calls they make, so a snapshot sees a split either pending or assigned, never
 * both). {@link #discover} runs on the worker pool (Lane B: the scheduler thread) outside that
 * monitor, at most one call at a time, and sees only its arguments: it must not read or write
 * enumerator fields other than its own immutable configuration and thread-safe clients. An override
 * of {@link #open()} or {@link #close()} must call the base's.
 *
 * @param <SplitT> the split
 * @param <CursorT> where the next discovery starts (a file index, a set of known partitions);
 *     immutable, since a discovery running on another thread reads it
 */
public abstract class DiscoveringSplitEnumerator<SplitT extends SourceSplit, CursorT>
        implements SourceSplitEnumerator<SplitT, DiscoveryState<SplitT, CursorT>>,
                SupportSplitDemand {
    private static final Logger LOG = LoggerFactory.getLogger(DiscoveringSplitEnumerator.class);

    static final AsyncTaskKey DISCOVER = AsyncTaskKey.of("discover-splits");
    static final AsyncTaskKey NEXT_DISCOVERY = AsyncTaskKey.of("discover-splits-next");

    /** Lane B's {@link #run()} waits this much longer than the timeout for the first result. */
    private static final long FIRST_RESULT_GRACE_MS = 5_000;

    protected final ManagedEnumeratorContext<SplitT> context;
    private final DiscoveryConfig config;
    // Lane A asks for splits; Lane B expects them at registration.
    private final boolean demand;
    // Lane B: the engine handed its own context; no coordinator can be failed later.
    private final boolean stock;
    private final DiscoveryMetrics metrics;

    private final Object turn = new Object();
    // guarded by turn: per owner subtask, in discovery order (size() read by the gauge)
    private final OwnerQueues<SplitT> pending;
    // guarded by turn
    private final ReaderHandOut<SplitT> readers;
    // guarded by turn
    private CursorT cursor;
    private boolean finished;
    private boolean started;
    private boolean discovering;
    private boolean firstDone;
    private boolean paused;
    private int consecutiveFailures;
    private Throwable fatal;
    private Cancellable nextDiscovery;
    private CompletableFuture<Void> firstResult;
    private boolean closed;

    /**
     * @param state {@link DiscoveryState#initial} for a fresh job, the checkpointed state on
     *     restore
     */
    protected DiscoveringSplitEnumerator(
            SourceSplitEnumerator.Context<SplitT> context,
            DiscoveryState<SplitT, CursorT> state,
            DiscoveryConfig config) {
        this.stock = !(context instanceof ManagedEnumeratorContext);
        this.context = ManagedEnumeratorContext.of(context);
        this.demand = this.context.splitDemand();
        this.config = config;
        this.cursor = state.cursor();
        this.finished = state.finished();
        this.pending =
                new OwnerQueues<>(state.pending(), this::owner, this.context::currentParallelism);
        this.readers = new ReaderHandOut<>(this.context, pending, demand);
        this.metrics = new DiscoveryMetrics(context.getMetricsContext(), pending::size);
    }

    /**
     * Finds the splits after {@code cursor}. Runs on the worker pool, outside the enumerator's
     * monitor: use only the arguments and thread-safe resources of your own. Block as the I/O
     * needs; the call is bounded by the discovery timeout.
     *
     * @param budget how many splits may join the pending ones before the bound; return at most that
     *     many (more are accepted, but then the bound is exceeded)
     * @return the new splits and the next cursor; {@link DiscoveryResult#last} when no split will
     *     ever come after these
     */
    protected abstract DiscoveryResult<SplitT, CursorT> discover(CursorT cursor, int budget)
            throws Exception;

    /**
     * The subtask that reads {@code split}: by default a stable hash of its id. Must depend only on
     * the split and the parallelism, so a split handed back goes to the same reader again. Called
     * one at a time.
     */
    protected int owner(SplitT split, int parallelism) {
        return (split.splitId().hashCode() & Integer.MAX_VALUE) % Math.max(1, parallelism);
    }

    @Override
    public void open() {}

    /**
     * Starts the first discovery and hands out what restored readers are owed. Lane A: returns at
     * once. Lane B: waits (bounded by the timeout) for the first discovery and throws its failure,
     * so that it fails the job.
     */
    @Override
    public void run() throws Exception {
        CompletableFuture<Void> first = null;
        synchronized (turn) {
            for (int subtask : readers.registeredReaders()) {
                readers.handOutAll(subtask);
                readers.signalIfDone(subtask, finished);
            }
            started = true;
            startDiscovery();
            if (stock && discovering) {
                // Not when paused at the bound by restored splits: nothing to wait for then.
                first = new CompletableFuture<>();
                firstResult = first;
            }
        }
        if (first != null) {
            awaitFirst(first);
        }
    }

    private void awaitFirst(CompletableFuture<Void> first) throws Exception {
        long bound = config.timeoutMillis() + FIRST_RESULT_GRACE_MS;
        try {
            first.get(bound, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "the first split discovery failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("the first split discovery did not end within " + bound);
        }
    }

    @Override
    public void registerReader(int subtaskId) {
        synchronized (turn) {
            readers.register(subtaskId);
            readers.handOutAll(subtaskId);
            readers.signalIfDone(subtaskId, finished);
            discoverIfWanted(subtaskId);
        }
    }

    /** Lane A: up to {@code maxSplits} of the reader's own splits, then no-more-splits if done. */
    @Override
    public void handleSplitDemand(int subtaskId, int maxSplits) {
        synchronized (turn) {
            readers.handOutOnDemand(subtaskId, maxSplits);
            readers.signalIfDone(subtaskId, finished);
            discoverIfWanted(subtaskId);
        }
    }

    /** Lane B: a reader asking hands it its splits; Lane A answers requests with demands. */
    @Override
    public void handleSplitRequest(int subtaskId) {
        synchronized (turn) {
            if (!demand && readers.isRegistered(subtaskId)) {
                readers.handOutAll(subtaskId);
                readers.signalIfDone(subtaskId, finished);
                discoverIfWanted(subtaskId);
            }
        }
    }

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        synchronized (turn) {
            TreeSet<Integer> owners = new TreeSet<>();
            // Handed back splits were assigned before anything still pending: they go first.
            for (int i = splits.size() - 1; i >= 0; i--) {
                owners.add(pending.addFirst(splits.get(i)));
            }
            for (int owner : owners) {
                readers.offer(owner);
            }
        }
    }

    @Override
    public int currentUnassignedSplitSize() {
        synchronized (turn) {
            return pending.size();
        }
    }

    @Override
    public DiscoveryState<SplitT, CursorT> snapshotState(long checkpointId) throws Exception {
        synchronized (turn) {
            if (fatal != null) {
                throw new IllegalStateException("split discovery failed: " + fatal, fatal);
            }
            return new DiscoveryState<>(cursor, finished, pending.snapshot());
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {}

    /** Stops discovering (a running discovery's result is dropped) and closes the context. */
    @Override
    public void close() {
        synchronized (turn) {
            closed = true;
            if (nextDiscovery != null) {
                nextDiscovery.cancel();
            }
            if (firstResult != null) {
                firstResult.completeExceptionally(new IllegalStateException("closed"));
            }
        }
        context.close();
    }

    // ------------------------------------------------------------------ discovery

    /** Under turn: starts a discovery unless one runs, discovery is done, or the bound is hit. */
    private void startDiscovery() {
        if (closed || finished || discovering || fatal != null) {
            return;
        }
        if (pending.size() >= config.maxPendingSplits()) {
            if (!paused) {
                paused = true;
                metrics.paused.inc();
                LOG.info(
                        "Split discovery pauses: {} splits wait for readers (bound {})",
                        pending.size(),
                        config.maxPendingSplits());
            }
            return;
        }
        paused = false;
        discovering = true;
        boolean first = !firstDone;
        boolean lastTry = consecutiveFailures + 1 >= config.maxConsecutiveFailures();
        CursorT from = cursor;
        int budget = config.maxPendingSplits() - pending.size();
        AsyncTaskOptions options =
                AsyncTaskOptions.builder()
                        .timeout(Duration.ofMillis(config.timeoutMillis()))
                        // The base never overlaps discoveries; a second one would be a bug.
                        .overlapPolicy(AsyncTaskOptions.OverlapPolicy.REJECT)
                        .failurePolicy(
                                first || lastTry
                                        ? AsyncTaskOptions.FailurePolicy.FAIL_COORDINATOR
                                        : AsyncTaskOptions.FailurePolicy.DELIVER_TO_HANDLER)
                        .workerClass(AsyncTaskOptions.WorkerClass.DISCOVERY)
                        .build();
        metrics.runs.inc();
        context.scheduler()
                .callAsync(
                        DISCOVER,
                        () -> discover(from, budget),
                        (result, error) -> onDiscovered(first, result, error),
                        options);
    }

    /** A discovery's result, on the coordinator loop (Lane A) or the scheduler thread (Lane B). */
    private void onDiscovered(
            boolean first, DiscoveryResult<SplitT, CursorT> result, Throwable error) {
        synchronized (turn) {
            discovering = false;
            if (closed) {
                return;
            }
            if (error == null && result == null) {
                error = new NullPointerException("discover() returned null");
            }
            if (error != null) {
                failed(first, error);
                return;
            }
            consecutiveFailures = 0;
            firstDone = true;
            cursor = result.cursor();
            finished = result.finished();
            TreeSet<Integer> owners = new TreeSet<>();
            for (SplitT s : result.splits()) {
                owners.add(pending.addLast(s));
            }
            metrics.discovered.inc(result.splits().size());
            if (!result.splits().isEmpty() || finished) {
                LOG.info(
                        "Split discovery found {} split(s){}; {} wait for readers",
                        result.splits().size(),
                        finished ? " and is finished" : "",
                        pending.size());
            }
            for (int owner : owners) {
                readers.offer(owner);
            }
            if (finished) {
                for (int subtask : readers.registeredReaders()) {
                    readers.signalIfDone(subtask, finished);
                }
            }
            if (firstResult != null) {
                firstResult.complete(null);
                firstResult = null;
            }
            scheduleNext();
        }
    }

    /** Under turn. */
    private void failed(boolean first, Throwable error) {
        consecutiveFailures++;
        metrics.failures.inc();
        if (first) {
            // Lane A: FAIL_COORDINATOR has failed the job; Lane B: run() throws it.
            fatal = error;
            LOG.error("The first split discovery failed", error);
            if (firstResult != null) {
                firstResult.completeExceptionally(error);
                firstResult = null;
            }
            return;
        }
        if (consecutiveFailures >= config.maxConsecutiveFailures()) {
            fatal = error;
            LOG.error(
                    "Split discovery failed {} times in a row; the enumerator's next checkpoint"
                            + " fails the job",
                    consecutiveFailures,
                    error);
            return;
        }
        LOG.warn(
                "Split discovery failed ({} in a row, bound {}); retrying at the next interval",
                consecutiveFailures,
                config.maxConsecutiveFailures(),
                error);
        scheduleNext();
    }

    /** Under turn: the next periodic discovery, {@code interval} after this one returned. */
    private void scheduleNext() {
        if (closed || finished || config.intervalMillis() <= 0) {
            return;
        }
        nextDiscovery =
                context.scheduler()
                        .scheduleOnceInCoordinatorThread(
                                NEXT_DISCOVERY,
                                Duration.ofMillis(config.intervalMillis()),
                                this::periodicDiscovery);
    }

    private void periodicDiscovery() {
        synchronized (turn) {
            startDiscovery();
        }
    }

    /**
     * Under turn, after {@code subtask} took splits or asked: resumes a paused discovery once below
     * the bound, and on demand (interval 0) discovers when nothing waits for that reader.
     */
    private void discoverIfWanted(int subtask) {
        if (!started || discovering || finished) {
            return;
        }
        boolean belowBound = pending.size() < config.maxPendingSplits();
        if (paused && belowBound) {
            startDiscovery();
        } else if (config.intervalMillis() == DiscoveryConfig.ON_DEMAND
                && pending.isEmpty(subtask)) {
            startDiscovery();
        }
    }
}
