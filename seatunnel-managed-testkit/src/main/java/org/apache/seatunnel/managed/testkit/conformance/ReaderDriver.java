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
    private boolean noMoreSignalled;
    private boolean checkClassLoader;
    // how many records the fixture holds, or -1: tells a drained reader from a lost wakeup
    private int fixtureRecords = -1;

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
        return open(target, false);
    }

    /**
     * A new reader of the target, opened; with {@code checkClassLoader} every call from making the
     * reader on is checked for the context class loader it leaves behind
     * (CONTEXT_CLASS_LOADER_RESTORED).
     */
    static <T, SplitT extends SourceSplit> ReaderDriver<T, SplitT> open(
            ConformanceTarget<T, SplitT> target, boolean checkClassLoader) throws Exception {
        DriverContext ctx = new DriverContext();
        SourceReader<T, SplitT> r;
        ContextLoader cl = ContextLoader.enter(checkClassLoader);
        try {
            r = target.newReader(ctx);
        } finally {
            cl.exit("createReader");
        }
        return wrap(target, r, ctx, checkClassLoader);
    }

    static <T, SplitT extends SourceSplit> ReaderDriver<T, SplitT> wrap(
            ConformanceTarget<T, SplitT> target, SourceReader<T, SplitT> r, DriverContext ctx)
            throws Exception {
        return wrap(target, r, ctx, false);
    }

    private static <T, SplitT extends SourceSplit> ReaderDriver<T, SplitT> wrap(
            ConformanceTarget<T, SplitT> target,
            SourceReader<T, SplitT> r,
            DriverContext ctx,
            boolean checkClassLoader)
            throws Exception {
        if (!(r instanceof ManagedSourceReader)) {
            throw new AssertionError(
                    "the source's reader "
                            + r.getClass().getName()
                            + " does not implement ManagedSourceReader");
        }
        ReaderDriver<T, SplitT> d =
                new ReaderDriver<>(target, (ManagedSourceReader<T, SplitT>) r, ctx);
        d.checkClassLoader = checkClassLoader;
        ContextLoader cl = d.enter();
        try {
            d.reader.open();
        } finally {
            cl.exit("open");
        }
        return d;
    }

    private ContextLoader enter() {
        return ContextLoader.enter(checkClassLoader);
    }

    ManagedSourceReader<T, SplitT> reader() {
        return reader;
    }

    /** Keys of every record emitted so far, in emission order. */
    List<String> emitted() {
        return emitted;
    }

    void addSplits(List<SplitT> splits) {
        ContextLoader cl = enter();
        try {
            reader.addSplits(new ArrayList<>(splits));
        } finally {
            cl.exit("addSplits");
        }
    }

    void noMoreSplits() {
        noMoreSignalled = true;
        ContextLoader cl = enter();
        try {
            reader.handleNoMoreSplits();
        } finally {
            cl.exit("handleNoMoreSplits");
        }
    }

    void checkpointComplete(long checkpointId) throws Exception {
        ContextLoader cl = enter();
        try {
            reader.notifyCheckpointComplete(checkpointId);
        } finally {
            cl.exit("notifyCheckpointComplete");
        }
    }

    void checkpointAborted(long checkpointId) throws Exception {
        ContextLoader cl = enter();
        try {
            reader.notifyCheckpointAborted(checkpointId);
        } finally {
            cl.exit("notifyCheckpointAborted");
        }
    }

    void sourceEvent(SourceEvent event) {
        ContextLoader cl = enter();
        try {
            reader.handleSourceEvent(event);
        } finally {
            cl.exit("handleSourceEvent");
        }
    }

    /** Whether {@link #noMoreSplits()} was called. */
    boolean noMoreSignalled() {
        return noMoreSignalled;
    }

    /** The number of records the fixture holds, for the messages of {@link #awaitAvailable()}. */
    ReaderDriver<T, SplitT> fixtureRecords(int n) {
        this.fixtureRecords = n;
        return this;
    }

    /**
     * True when the reader has emitted every fixture record and was not told no more splits come:
     * NOTHING_AVAILABLE with an incomplete future is then the right answer, not a lost wakeup.
     */
    boolean drained() {
        return !noMoreSignalled && fixtureRecords >= 0 && emitted.size() >= fixtureRecords;
    }

    List<SplitT> snapshot(long checkpointId) throws Exception {
        ContextLoader cl = enter();
        try {
            return reader.snapshotState(checkpointId);
        } finally {
            cl.exit("snapshotState");
        }
    }

    /**
     * One poll turn that may emit {@code maxRecords}, and whose {@code shouldYield()} turns true
     * after {@code yieldAfter} records or at the deadline {@code softNanos} from now.
     */
    TurnResult turn(int maxRecords, int yieldAfter, long softNanos) throws Exception {
        Turn t = new Turn(maxRecords, yieldAfter, System.nanoTime() + softNanos);
        long start = System.nanoTime();
        PollStatus status;
        ContextLoader cl = enter();
        try {
            status = reader.pollNextManaged(t, t);
        } finally {
            cl.exit("pollNextManaged");
        }
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
        CompletableFuture<Void> f;
        ContextLoader cl = enter();
        try {
            f = reader.isAvailable();
        } finally {
            cl.exit("isAvailable");
        }
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
        if (noMoreSignalled) {
            throw new ConformanceViolation(
                    ConformanceRule.NO_LOST_WAKEUP,
                    "no-more-splits was signalled and "
                            + emitted.size()
                            + (fixtureRecords >= 0 ? " of " + fixtureRecords : "")
                            + " records were emitted, but the reader neither produced records nor"
                            + " END_OF_INPUT and its availability future stayed incomplete for "
                            + TimeUnit.NANOSECONDS.toMillis(target.availabilityBoundNanos())
                            + " ms");
        }
        throw new ConformanceViolation(
                ConformanceRule.NO_LOST_WAKEUP,
                "no-more-splits was not signalled yet and "
                        + emitted.size()
                        + (fixtureRecords >= 0
                                ? " of the fixture's " + fixtureRecords
                                : " (of an unknown number)")
                        + " records were emitted; the reader returned NOTHING_AVAILABLE and its"
                        + " availability future stayed incomplete for "
                        + TimeUnit.NANOSECONDS.toMillis(target.availabilityBoundNanos())
                        + " ms while records of its splits were still to come");
    }

    @Override
    public void close() throws Exception {
        if (!closed) {
            closed = true;
            ContextLoader cl = enter();
            try {
                reader.close();
            } finally {
                cl.exit("close");
            }
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
}
