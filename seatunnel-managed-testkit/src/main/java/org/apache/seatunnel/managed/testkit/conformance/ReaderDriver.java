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

package org.apache.seatunnel.managed.testkit.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.Meter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.common.metrics.ThreadSafeQPSMeter;
import org.apache.seatunnel.api.event.Event;
import org.apache.seatunnel.api.event.EventListener;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * Plays the Lane A runtime for one reader instance, deterministically and on the calling thread:
 * every reader call is made by the test thread, one at a time, as the runtime's loop would; only
 * {@link ManagedSourceReader#wakeup()} may come from elsewhere.
 *
 * <p>Threading: owned by the test thread that created it.
 */
final class ReaderDriver<T, SplitT extends SourceSplit> implements AutoCloseable {
    private final ConformanceTarget<T, SplitT> target;
    private final ManagedSourceReader<T, SplitT> reader;
    private final DriverContext context;
    private final List<String> emitted = new ArrayList<>();
    private final Object checkpointLock = new Object();
    private boolean closed;

    private ReaderDriver(
            ConformanceTarget<T, SplitT> target,
            ManagedSourceReader<T, SplitT> r,
            DriverContext context) {
        this.target = target;
        this.reader = r;
        this.context = context;
    }

    /** A new reader of the target, opened. */
    static <T, SplitT extends SourceSplit> ReaderDriver<T, SplitT> open(
            ConformanceTarget<T, SplitT> target) throws Exception {
        DriverContext ctx = new DriverContext();
        SourceReader<T, SplitT> r = target.newReader(ctx);
        return wrap(target, r, ctx);
    }

    static <T, SplitT extends SourceSplit> ReaderDriver<T, SplitT> wrap(
            ConformanceTarget<T, SplitT> target, SourceReader<T, SplitT> r, DriverContext ctx)
            throws Exception {
        if (!(r instanceof ManagedSourceReader)) {
            throw new AssertionError(
                    "the source's reader "
                            + r.getClass().getName()
                            + " does not implement ManagedSourceReader");
        }
        ReaderDriver<T, SplitT> d =
                new ReaderDriver<>(target, (ManagedSourceReader<T, SplitT>) r, ctx);
        d.reader.open();
        return d;
    }

    ManagedSourceReader<T, SplitT> reader() {
        return reader;
    }

    /** Keys of every record emitted so far, in emission order. */
    List<String> emitted() {
        return emitted;
    }

    void addSplits(List<SplitT> splits) {
        reader.addSplits(new ArrayList<>(splits));
    }

    void noMoreSplits() {
        reader.handleNoMoreSplits();
    }

    List<SplitT> snapshot(long checkpointId) throws Exception {
        return reader.snapshotState(checkpointId);
    }

    /**
     * One poll turn that may emit {@code maxRecords}, and whose {@code shouldYield()} turns true
     * after {@code yieldAfter} records or at the deadline {@code softNanos} from now.
     */
    TurnResult turn(int maxRecords, int yieldAfter, long softNanos) throws Exception {
        Turn t = new Turn(maxRecords, yieldAfter, System.nanoTime() + softNanos);
        long start = System.nanoTime();
        PollStatus status = reader.pollNextManaged(t, t);
        long took = System.nanoTime() - start;
        return new TurnResult(status, t.count, t.afterYield, took, t.deadline - start);
    }

    /**
     * Reads until END_OF_INPUT the way the runtime does: turns of 64 records; after
     * NOTHING_AVAILABLE it waits (bounded) for {@code isAvailable()}. A future that stays
     * incomplete while a poll then finds records is a lost wakeup.
     */
    void readToEnd(ConformanceRule rule) throws Exception {
        long deadline = System.nanoTime() + target.readBoundNanos();
        for (; ; ) {
            TurnResult r = turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
            if (r.status == PollStatus.END_OF_INPUT) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new ConformanceViolation(
                        rule,
                        "the reader did not reach END_OF_INPUT within "
                                + TimeUnit.NANOSECONDS.toMillis(target.readBoundNanos())
                                + " ms (emitted "
                                + emitted.size()
                                + " records)");
            }
            if (r.status == PollStatus.NOTHING_AVAILABLE) {
                awaitAvailable();
            }
        }
    }

    /** After NOTHING_AVAILABLE: waits for the future; if it stays incomplete, polls to check. */
    void awaitAvailable() throws Exception {
        CompletableFuture<Void> f = reader.isAvailable();
        if (f == null) {
            throw new ConformanceViolation(
                    ConformanceRule.NO_LOST_WAKEUP, "isAvailable() returned null");
        }
        try {
            f.get(target.availabilityBoundNanos(), TimeUnit.NANOSECONDS);
            return;
        } catch (TimeoutException e) {
            // Checked below: is there data the future did not announce?
        } catch (ExecutionException e) {
            return;
        }
        int before = emitted.size();
        TurnResult r = turn(64, 64, TimeUnit.MILLISECONDS.toNanos(5));
        if (r.records > 0 || r.status != PollStatus.NOTHING_AVAILABLE) {
            throw new ConformanceViolation(
                    ConformanceRule.NO_LOST_WAKEUP,
                    "isAvailable() stayed incomplete for "
                            + TimeUnit.NANOSECONDS.toMillis(target.availabilityBoundNanos())
                            + " ms, yet the next poll returned "
                            + r.status
                            + " with "
                            + (emitted.size() - before)
                            + " records (availability not signalled)");
        }
        throw new ConformanceViolation(
                ConformanceRule.NO_LOST_WAKEUP,
                "all fixture splits were assigned and no-more-splits was signalled, but the reader"
                        + " neither produced records nor END_OF_INPUT and its availability future"
                        + " stayed incomplete for "
                        + TimeUnit.NANOSECONDS.toMillis(target.availabilityBoundNanos())
                        + " ms");
    }

    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            reader.close();
        }
    }

    /** What one turn did. Immutable. */
    static final class TurnResult {
        final PollStatus status;
        final int records;
        final int recordsAfterYield;
        final long tookNanos;
        final long budgetNanos;

        TurnResult(PollStatus status, int records, int afterYield, long took, long budget) {
            this.status = status;
            this.records = records;
            this.recordsAfterYield = afterYield;
            this.tookNanos = took;
            this.budgetNanos = budget;
        }
    }

    /** The poll context and collector of one turn. Threading: the test thread. */
    private final class Turn implements PollContext, Collector<T> {
        final int max;
        final int yieldAfter;
        final long deadline;
        int count;
        int afterYield;

        Turn(int max, int yieldAfter, long deadline) {
            this.max = max;
            this.yieldAfter = yieldAfter;
            this.deadline = deadline;
        }

        @Override
        public int remainingRecords() {
            return Math.max(0, max - count);
        }

        @Override
        public long remainingBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean shouldYield() {
            return count >= yieldAfter || count >= max || System.nanoTime() - deadline >= 0;
        }

        @Override
        public void collect(T record) {
            if (count >= yieldAfter) {
                afterYield++;
            }
            count++;
            emitted.add(target.key(record));
        }

        @Override
        public Object getCheckpointLock() {
            return checkpointLock;
        }
    }

    /**
     * The reader context of the driver: subtask 0 of 1, bounded, metrics in memory. Threading: any
     * thread.
     */
    static final class DriverContext implements SourceReader.Context {
        final AtomicInteger noMoreElementSignals = new AtomicInteger();
        final AtomicInteger splitRequests = new AtomicInteger();

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public void signalNoMoreElement() {
            noMoreElementSignals.incrementAndGet();
        }

        @Override
        public void sendSplitRequest() {
            splitRequests.incrementAndGet();
        }

        @Override
        public void sendSourceEventToEnumerator(SourceEvent sourceEvent) {}

        @Override
        public MetricsContext getMetricsContext() {
            return new MetricsContext() {
                @Override
                public Counter counter(String name) {
                    return new ThreadSafeCounter(name);
                }

                @Override
                public <C extends Counter> C counter(String name, C counter) {
                    return counter;
                }

                @Override
                public Meter meter(String name) {
                    return new ThreadSafeQPSMeter(name);
                }

                @Override
                public <M extends Meter> M meter(String name, M meter) {
                    return meter;
                }
            };
        }

        @Override
        public EventListener getEventListener() {
            return (Event event) -> {};
        }
    }
}
