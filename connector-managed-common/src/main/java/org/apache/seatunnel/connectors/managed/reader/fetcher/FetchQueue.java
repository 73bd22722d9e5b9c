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

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;

/**
 * The hand-off from fetch threads to the reader loop, bounded in records and in estimated bytes,
 * with the availability future the loop waits on.
 *
 * <p>Threading: {@link #put} from fetch threads (it blocks while the queue is full); {@link #poll},
 * {@link #availability()} from the reader loop; {@link #signalAvailable()}, {@link #close()} and
 * the gauges from any thread. Everything is guarded by one monitor held only for short,
 * non-blocking sections, never across a call into connector code. {@code put} → {@code poll} gives
 * happens-before for the batch's contents.
 *
 * <p>No lost wakeup: {@link #availability()} checks for a batch and installs the pending future
 * under the monitor, and every {@code put} (or error, wakeup, close) completes the pending future
 * after changing state under it; so a batch is either seen by the check or completes the future.
 *
 * <p>Bound: a batch is admitted when the queue is empty or when it fits under both limits, so the
 * queue holds at most {@code maxRecords} records and {@code maxBytes} bytes, or a single batch that
 * alone exceeds them.
 */
public final class FetchQueue<E> {
    private final int maxRecords;
    private final long maxBytes;
    private final Object lock = new Object();

    // guarded by lock
    private final ArrayDeque<FetchedRecords<E>> batches = new ArrayDeque<>();
    private long records;
    private long bytes;
    private boolean closed;
    private CompletableFuture<Void> pending;
    private long fullWaits;
    private long peakRecords;

    public FetchQueue(int maxRecords, long maxBytes) {
        if (maxRecords < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("fetch queue bounds must be positive");
        }
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
    }

    /**
     * Adds a batch, waiting while the queue is full. The wait is bounded by {@code maxWaitNanos}
     * per call and ends early when the loop takes a batch or the queue is closed.
     *
     * @return true if the batch was queued; false if the queue is closed or the wait timed out (the
     *     caller re-checks whether it should still run and calls again)
     */
    public boolean put(FetchedRecords<E> batch, long maxWaitNanos) throws InterruptedException {
        if (batch.isEmpty()) {
            return true;
        }
        CompletableFuture<Void> toComplete;
        synchronized (lock) {
            long deadline = System.nanoTime() + maxWaitNanos;
            boolean counted = false;
            while (!closed && !fits(batch)) {
                if (!counted) {
                    counted = true;
                    fullWaits++;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            if (closed) {
                return false;
            }
            batches.addLast(batch);
            records += batch.recordCount();
            bytes += batch.estimatedBytes();
            peakRecords = Math.max(peakRecords, records);
            toComplete = pending;
            pending = null;
        }
        complete(toComplete);
        return true;
    }

    private boolean fits(FetchedRecords<E> batch) {
        return batches.isEmpty()
                || (records + batch.recordCount() <= maxRecords
                        && bytes + batch.estimatedBytes() <= maxBytes);
    }

    /** The oldest batch, or null; never blocks. Wakes a fetch thread waiting for room. */
    public FetchedRecords<E> poll() {
        synchronized (lock) {
            FetchedRecords<E> b = batches.pollFirst();
            if (b != null) {
                records -= b.recordCount();
                bytes -= b.estimatedBytes();
                lock.notifyAll();
            }
            return b;
        }
    }

    public boolean isEmpty() {
        synchronized (lock) {
            return batches.isEmpty();
        }
    }

    /**
     * A future that completes when a batch is queued (or {@link #signalAvailable()} is called);
     * already complete if a batch is waiting. The same future is returned until it completes.
     */
    public CompletableFuture<Void> availability() {
        synchronized (lock) {
            if (!batches.isEmpty() || closed) {
                return CompletableFuture.completedFuture(null);
            }
            if (pending == null) {
                pending = new CompletableFuture<>();
            }
            return pending;
        }
    }

    /** Completes the pending availability future: an error, a wakeup or the end needs a look. */
    public void signalAvailable() {
        CompletableFuture<Void> f;
        synchronized (lock) {
            f = pending;
            pending = null;
        }
        complete(f);
    }

    /** Refuses further batches and releases waiting fetch threads. Idempotent. */
    public void close() {
        CompletableFuture<Void> f;
        synchronized (lock) {
            closed = true;
            batches.clear();
            records = 0;
            bytes = 0;
            lock.notifyAll();
            f = pending;
            pending = null;
        }
        complete(f);
    }

    private static void complete(CompletableFuture<Void> f) {
        // Outside the monitor: a completion may run the loop's callback inline.
        if (f != null) {
            f.complete(null);
        }
    }

    /** Records queued now. */
    public long records() {
        synchronized (lock) {
            return records;
        }
    }

    /** Estimated bytes queued now. */
    public long bytes() {
        synchronized (lock) {
            return bytes;
        }
    }

    /** How many puts had to wait for room. */
    public long fullWaits() {
        synchronized (lock) {
            return fullWaits;
        }
    }

    /** The most records ever queued at once. */
    public long peakRecords() {
        synchronized (lock) {
            return peakRecords;
        }
    }

    public int maxRecords() {
        return maxRecords;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
