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

package org.apache.seatunnel.connectors.managed.reader.fetcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a reader's split readers on fetch threads of its own and reports their failures to the
 * reader loop. Subclasses decide how splits map to fetch threads.
 *
 * <p>Threading: {@link #addSplits}, {@link #checkErrors()} and {@link #close()} are called by the
 * reader (the loop on Lane A; on Lane B also engine operation threads, hence the monitor); fetch
 * threads call back {@link #onFetcherExit}. Fetcher bookkeeping is guarded by {@code this}.
 *
 * <p>Life cycle: fetch threads start with the first split they are given and end on {@link
 * #close()} (or, per split, when the split is read to its end); a fetch thread's failure is kept
 * and rethrown by the next {@link #checkErrors()}, and the queue's availability is signalled so the
 * loop looks.
 */
public abstract class SplitFetcherManager<E, SplitT extends SourceSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(SplitFetcherManager.class);

    private final Supplier<ManagedSplitReader<E, SplitT>> splitReaders;
    private final FetchQueue<E> queue;
    private final ManagedReaderConfig config;
    private final String threadNamePrefix;

    // guarded by this
    private final Map<SplitFetcher<E, SplitT>, Thread> fetchers = new LinkedHashMap<>();
    private int threadsStarted;
    private Throwable error;
    private boolean closed;

    protected SplitFetcherManager(
            Supplier<ManagedSplitReader<E, SplitT>> splitReaders,
            FetchQueue<E> queue,
            ManagedReaderConfig config,
            String threadNamePrefix) {
        this.splitReaders = splitReaders;
        this.queue = queue;
        this.config = config;
        this.threadNamePrefix = threadNamePrefix;
    }

    /** Hands newly assigned or restored splits to fetch threads. Never blocks on a fetch. */
    public abstract void addSplits(List<SplitT> splits);

    /** Called (under this monitor) when a fetch thread ended. */
    protected void fetcherExited(SplitFetcher<E, SplitT> fetcher) {}

    /** Starts a fetch thread with a new split reader. Call holding this monitor. */
    protected final SplitFetcher<E, SplitT> startFetcher(boolean stopWhenDone) {
        if (closed) {
            throw new IllegalStateException("the reader's fetchers are closed");
        }
        SplitFetcher<E, SplitT> fetcher =
                new SplitFetcher<>(
                        splitReaders.get(),
                        queue,
                        config.fetchEmptyBackoffNanos(),
                        stopWhenDone,
                        this);
        Thread t = new Thread(fetcher, threadNamePrefix + "-" + threadsStarted++);
        t.setDaemon(true);
        fetchers.put(fetcher, t);
        t.start();
        return fetcher;
    }

    /** Whether no more splits can be handed to fetchers (after close). */
    protected final boolean isClosed() {
        return closed;
    }

    final void onFetcherExit(SplitFetcher<E, SplitT> fetcher, Throwable failure) {
        synchronized (this) {
            fetchers.remove(fetcher);
            if (failure != null && error == null && !closed) {
                error = failure;
            }
            if (!closed) {
                fetcherExited(fetcher);
            }
        }
        if (failure != null) {
            // The loop is maybe waiting for records that will not come: let it see the failure.
            queue.signalAvailable();
        }
    }

    /** Rethrows the first fetch-thread failure, wrapped so the cause stays intact. */
    public void checkErrors() {
        Throwable e;
        synchronized (this) {
            e = error;
        }
        if (e != null) {
            throw new FetchFailedException(e);
        }
    }

    /** Fetch threads alive now. */
    public synchronized int liveFetchers() {
        return fetchers.size();
    }

    /** Wakes every fetch thread (new work may be waiting for them). */
    protected final synchronized void wakeUpAll() {
        for (SplitFetcher<E, SplitT> f : fetchers.keySet()) {
            f.wakeUp();
        }
    }

    /**
     * Stops every fetch thread: wakes them, waits up to {@code reader.close-timeout-ms} for each,
     * then interrupts the ones still running and reports them. Idempotent.
     */
    public void close() {
        List<Map.Entry<SplitFetcher<E, SplitT>, Thread>> live;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            live = new ArrayList<>(fetchers.entrySet());
        }
        queue.close();
        for (Map.Entry<SplitFetcher<E, SplitT>, Thread> e : live) {
            e.getKey().shutdown();
        }
        long deadline = System.nanoTime() + config.closeTimeoutNanos();
        for (Map.Entry<SplitFetcher<E, SplitT>, Thread> e : live) {
            Thread t = e.getValue();
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.timedJoin(t, left);
                }
                if (t.isAlive()) {
                    LOG.warn(
                            "Fetch thread {} did not stop within reader.close-timeout-ms after"
                                    + " wakeUp(); interrupting it (its split reader's fetch"
                                    + " ignores wakeUp)",
                            t.getName());
                    t.interrupt();
                    TimeUnit.NANOSECONDS.timedJoin(t, config.closeTimeoutNanos());
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A fetch thread failed; the cause is the split reader's exception. */
    public static final class FetchFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FetchFailedException(Throwable cause) {
            super("a fetch thread of this reader failed: " + cause, cause);
        }
    }
}
