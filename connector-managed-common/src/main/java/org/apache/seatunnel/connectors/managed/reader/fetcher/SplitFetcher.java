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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;

/**
 * One fetch thread's work: hands new splits to its {@link ManagedSplitReader}, fetches, and puts
 * each non-empty batch into the {@link FetchQueue}.
 *
 * <p>Threading: {@link #run()} is the body of the fetch thread, the only thread that calls the
 * split reader (except {@code wakeUp}) and the only one touching {@code unfinished}. {@link
 * #addSplits} and {@link #shutdown()} are called from other threads; they only change fields
 * guarded by {@code lock} and wake the thread and the split reader. Every wait is bounded and woken
 * by a signal.
 */
final class SplitFetcher<E, SplitT extends SourceSplit> implements Runnable {
    /** How long a put waits for room before re-checking for shutdown. */
    private static final long PUT_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** How long an idle fetcher waits before re-checking for shutdown. */
    private static final long IDLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ManagedSplitReader<E, SplitT> splitReader;
    private final FetchQueue<E> queue;
    private final long emptyBackoffNanos;
    private final boolean stopWhenDone;
    private final SplitFetcherManager<E, SplitT> manager;

    private final Object lock = new Object();
    // guarded by lock
    private final List<SplitT> pendingAdds = new ArrayList<>();
    private boolean closing;
    private boolean signalled;

    // fetch thread only
    private final Set<String> unfinished = new HashSet<>();
    private boolean hadSplits;

    SplitFetcher(
            ManagedSplitReader<E, SplitT> splitReader,
            FetchQueue<E> queue,
            long emptyBackoffNanos,
            boolean stopWhenDone,
            SplitFetcherManager<E, SplitT> manager) {
        this.splitReader = splitReader;
        this.queue = queue;
        this.emptyBackoffNanos = emptyBackoffNanos;
        this.stopWhenDone = stopWhenDone;
        this.manager = manager;
    }

    void addSplits(List<SplitT> splits) {
        synchronized (lock) {
            pendingAdds.addAll(splits);
            signalled = true;
            lock.notifyAll();
        }
        // A fetch blocked on the splits it has must take the new ones over now.
        splitReader.wakeUp();
    }

    void shutdown() {
        synchronized (lock) {
            closing = true;
            lock.notifyAll();
        }
        splitReader.wakeUp();
    }

    private boolean closing() {
        synchronized (lock) {
            return closing;
        }
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            fetchLoop();
        } catch (InterruptedException e) {
            if (!closing()) {
                failure = e;
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            try {
                splitReader.close();
            } catch (Throwable t) {
                if (failure == null && !closing()) {
                    failure = t;
                }
            }
            manager.onFetcherExit(this, failure);
        }
    }

    /**
     * Why each iteration is a method of its own: this loop runs for the whole life of the thread,
     * one iteration per batch. HotSpot compiles a method after some hundreds of calls, but a loop
     * inside one only after tens of thousands of iterations; with rows trickling in (one batch per
     * row at 20 rows/s) this loop still ran three quarters interpreted after eight minutes.
     */
    private void fetchLoop() throws Exception {
        while (fetchOnce()) {
            // next batch
        }
    }

    /** One iteration of {@link #fetchLoop}: false when the fetcher should stop. */
    private boolean fetchOnce() throws Exception {
        List<SplitT> adds = takeWork();
        if (adds == null) {
            return false;
        }
        if (!adds.isEmpty()) {
            splitReader.handleSplitsAdded(adds);
            for (SplitT s : adds) {
                unfinished.add(s.splitId());
            }
            hadSplits = true;
        }
        if (unfinished.isEmpty()) {
            return true;
        }
        FetchedRecords<E> batch = splitReader.fetch();
        if (batch == null || batch.isEmpty()) {
            backOff();
            return true;
        }
        Set<String> finished = batch.finishedSplits();
        if (!finished.isEmpty()) {
            unfinished.removeAll(finished);
        }
        while (!queue.put(batch, PUT_WAIT_NANOS)) {
            if (closing()) {
                return false;
            }
        }
        return true;
    }

    /**
     * New splits to take over (possibly none, when splits are still unfinished), or null when the
     * fetcher should stop: shutdown, or its splits are done and it stops when done. Waits while
     * there is nothing to read.
     */
    private List<SplitT> takeWork() throws InterruptedException {
        synchronized (lock) {
            for (; ; ) {
                if (closing) {
                    return null;
                }
                if (!pendingAdds.isEmpty() || !unfinished.isEmpty()) {
                    List<SplitT> adds = new ArrayList<>(pendingAdds);
                    pendingAdds.clear();
                    signalled = false;
                    return adds;
                }
                if (stopWhenDone && hadSplits) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, IDLE_WAIT_NANOS);
            }
        }
    }

    private void backOff() throws InterruptedException {
        if (emptyBackoffNanos <= 0) {
            return;
        }
        synchronized (lock) {
            long deadline = System.nanoTime() + emptyBackoffNanos;
            while (!signalled && !closing) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
        }
    }

    void wakeUp() {
        synchronized (lock) {
            signalled = true;
            lock.notifyAll();
        }
        splitReader.wakeUp();
    }
}
