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

package org.apache.seatunnel.engine.managed.bench;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.core.starter.flowcontrol.FlowControlStrategy;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopHost;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.RecordSizes;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.server.metrics.SeaTunnelMetricsContext;
import org.apache.seatunnel.engine.server.task.SeaTunnelSourceCollector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Per-record cost of the reader event loop against a bare poll loop: the same reader emits 64
 * records per turn, once through {@link ReaderEventLoop#runOnce()} (terminal check, control drain,
 * availability, budgeted turn with the production record sizer, under the checkpoint lock as the
 * Zeta host runs it) and once called directly with a record-counting budget. Both emit into the
 * same sink, which does what the engine's source collector does with a row before handing it on
 * (sizes it) and then consumes it. Reported per record; the overhead is the ratio of the two.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LoopOverheadBenchmark {
    static final int RECORDS_PER_TURN = 64;

    /**
     * What one record costs to produce: "long" is a bare counter (isolates the loop's own cost);
     * "row" builds a small SeaTunnelRow as a FakeSource does and the sink only sizes it (by type,
     * as Zeta does), asking shouldYield() per record: a lower bound on a real source's per-record
     * cost, so an upper bound on the relative overhead; "rowBatch" emits the same rows but asks
     * only for the turn's remaining record budget, so it pays the loop's per-turn cost and no
     * per-record check; "empty" emits nothing, so the score is each loop's per-turn cost spread
     * over 64 records; "zeta" emits the rows of "row" (with their table) into Zeta's own source
     * collector, the record path of a stock (Lane B) source task, with the managed loop sizing rows
     * as the Zeta binding does.
     */
    @org.openjdk.jmh.annotations.Param({"long", "row", "rowBatch", "empty", "zeta"})
    public String record;

    ReaderEventLoop<Object, SourceSplit> loop;
    CountingReader reader;
    Collector<Object> sink;
    BareTurn bareTurn;
    final Object lock = new Object();

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        reader = CountingReader.forRecord(record);
        bareTurn = new BareTurn();
        if (reader.zeta) {
            sink = zetaCollector(lock, bh::consume);
            loop = managedLoop(reader, sink);
            return;
        }
        sink =
                new Collector<Object>() {
                    @Override
                    public void collect(Object record) {
                        if (record instanceof SeaTunnelRow) {
                            // Zeta's SeaTunnelSourceCollector sizes every row, by its type, for
                            // its metrics; the rest of its work is the "zeta" variant's.
                            bh.consume(((SeaTunnelRow) record).getBytesSize(ROW_TYPE));
                        }
                        bh.consume(record);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return lock;
                    }
                };
        loop = managedLoop(reader, sink);
    }

    /** The type of the rows CountingReader builds, as a source would declare it. */
    static final SeaTunnelRowType ROW_TYPE =
            new SeaTunnelRowType(
                    new String[] {"id", "split", "seq", "payload"},
                    new SeaTunnelDataType<?>[] {
                        BasicType.LONG_TYPE,
                        BasicType.INT_TYPE,
                        BasicType.LONG_TYPE,
                        BasicType.STRING_TYPE
                    });

    static final List<String> RECORDS = Arrays.asList("long", "row", "rowBatch", "empty", "zeta");

    static final TablePath TABLE = TablePath.of("bench", "rows");
    static final String TABLE_ID = TABLE.toString();

    /**
     * Zeta 2.3.8's source collector as a source task builds it for a one-table source with no flow
     * control, its records handed to {@code next} instead of the next task's queue.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Collector<Object> zetaCollector(Object lock, Consumer<Object> next) {
        return new SeaTunnelSourceCollector(
                lock,
                Collections.singletonList(
                        (org.apache.seatunnel.engine.server.task.flow.OneInputFlowLifeCycle)
                                next::accept),
                new SeaTunnelMetricsContext(),
                FlowControlStrategy.fromMap(Collections.<String, Object>emptyMap()),
                ROW_TYPE,
                Collections.singletonList(TABLE));
    }

    /**
     * The managed side: the reader behind a started {@link ReaderEventLoop} with the production
     * defaults (mailbox limits, poll budget: 64 records, 4 MiB, 5 ms) and the sizer the Zeta
     * binding builds for a source that declares {@link #ROW_TYPE}.
     */
    static ReaderEventLoop<Object, SourceSplit> managedLoop(
            ManagedSourceReader<Object, SourceSplit> reader, Collector<Object> sink)
            throws Exception {
        ReaderMailbox mailbox =
                new ReaderMailbox(
                        1,
                        1,
                        0,
                        1,
                        MailboxLimits.defaults(),
                        new WorkerMailboxBudget(256L << 20),
                        NanoClock.SYSTEM,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        PollBudget budget = PollBudget.defaults();
        if (budget.maxRecords() != RECORDS_PER_TURN) {
            throw new IllegalStateException("the default record budget is no longer 64");
        }
        ReaderEventLoop<Object, SourceSplit> loop =
                new ReaderEventLoop<>(
                        mailbox,
                        reader,
                        new NoHost(),
                        sink,
                        budget,
                        RecordSizes.forRowType(ROW_TYPE),
                        new ReaderLoopMetrics());
        loop.start(0);
        return loop;
    }

    long invocations;

    long recordsAtIterationStart;

    @Setup(Level.Iteration)
    public void markIterationStart() {
        // Counted from where the reader is, never reset: restarting its counter would change the
        // rows it builds (shorter strings) and make the compiler re-profile the loop mid-run.
        recordsAtIterationStart = reader.next;
        invocations = 0;
    }

    /**
     * ns/record assumes 64 records per invocation. A turn that a GC pause or a descheduling pushes
     * past the 5 ms soft budget legitimately yields early, so allow 0.1 % short, no more.
     */
    @TearDown(Level.Iteration)
    public void checkRecordsPerTurn() {
        checkRecordsPerTurn(reader, reader.next - recordsAtIterationStart, invocations);
    }

    /** Fails unless the turns carried 64 records each (none for "empty"), at most 0.1 % short. */
    static void checkRecordsPerTurn(CountingReader reader, long emitted, long turns) {
        long expected = reader.empty ? 0 : turns * RECORDS_PER_TURN;
        if (emitted > expected || expected - emitted > expected / 1000) {
            throw new IllegalStateException(
                    emitted + " records in " + turns + " turns, expected 64 per turn");
        }
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS_PER_TURN)
    public Object managedLoopTurn() {
        invocations++;
        synchronized (lock) {
            return loop.runOnce();
        }
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS_PER_TURN)
    public Object barePollTurn() throws Exception {
        invocations++;
        synchronized (lock) {
            BareTurn turn = bareTurn.begin(sink);
            return reader.pollNextManaged(turn, turn);
        }
    }

    /**
     * A reader that always has data: emits until told to yield, or (batch) emits the turn's
     * remaining record budget without asking per record.
     */
    static final class CountingReader implements ManagedSourceReader<Object, SourceSplit> {
        final boolean rows;
        final boolean batch;
        final boolean empty;
        final boolean zeta;
        long next;

        CountingReader(boolean rows, boolean batch, boolean empty, boolean zeta) {
            this.rows = rows;
            this.batch = batch;
            this.empty = empty;
            this.zeta = zeta;
        }

        /** The reader for one value of the benchmark's {@code record} parameter. */
        static CountingReader forRecord(String record) {
            if (!RECORDS.contains(record)) {
                throw new IllegalArgumentException("record is one of " + RECORDS + ": " + record);
            }
            boolean zeta = "zeta".equals(record);
            return new CountingReader(
                    zeta || record.startsWith("row"),
                    "rowBatch".equals(record),
                    "empty".equals(record),
                    zeta);
        }

        @Override
        public PollStatus pollNextManaged(Collector<Object> output, PollContext ctx) {
            if (empty) {
                return PollStatus.MORE_AVAILABLE;
            }
            if (batch) {
                for (int i = ctx.remainingRecords(); i > 0; i--) {
                    output.collect(record(next++));
                }
                return PollStatus.MORE_AVAILABLE;
            }
            while (!ctx.shouldYield()) {
                output.collect(record(next++));
            }
            return PollStatus.MORE_AVAILABLE;
        }

        private Object record(long n) {
            if (!rows) {
                return n;
            }
            SeaTunnelRow row = new SeaTunnelRow(new Object[] {n, (int) (n & 7), n, "fake-" + n});
            if (zeta) {
                // A source names each row's table; Zeta keeps per-table metrics by it.
                row.setTableId(TABLE_ID);
            }
            return row;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void wakeup() {}

        @Override
        public void open() {}

        @Override
        public void close() {}

        @Override
        public void pollNext(Collector<Object> output) {}

        @Override
        public List<SourceSplit> snapshotState(long checkpointId) {
            return Collections.emptyList();
        }

        @Override
        public void addSplits(List<SourceSplit> splits) {}

        @Override
        public void handleNoMoreSplits() {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    /**
     * The bare loop's turn: one object that is both the collector and the budget, counting records
     * in a plain field and yielding at 64 — the least any poll loop with a record budget can do.
     */
    static final class BareTurn implements PollContext, Collector<Object> {
        private int emitted;
        private Collector<Object> out;

        BareTurn begin(Collector<Object> sink) {
            this.out = sink;
            this.emitted = 0;
            return this;
        }

        @Override
        public void collect(Object record) {
            emitted++;
            out.collect(record);
        }

        @Override
        public Object getCheckpointLock() {
            return out.getCheckpointLock();
        }

        @Override
        public int remainingRecords() {
            return RECORDS_PER_TURN - emitted;
        }

        @Override
        public long remainingBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public long deadlineNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public boolean shouldYield() {
            return emitted >= RECORDS_PER_TURN;
        }
    }

    static final class NoHost implements ReaderLoopHost<SourceSplit> {
        @Override
        public List<SourceSplit> decodeSplits(SourceCommandEnvelope assignment) {
            return Collections.emptyList();
        }

        @Override
        public org.apache.seatunnel.api.source.SourceEvent decodeSourceEvent(
                SourceCommandEnvelope event) {
            return null;
        }

        @Override
        public ReaderSnapshot onCheckpoint(
                long id, List<SourceSplit> state, ReaderCheckpointCut cut) {
            return null;
        }

        @Override
        public void onCheckpointFailed(long checkpointId, Throwable cause) {}

        @Override
        public void onApplied(SourceCommandEnvelope command) {}

        @Override
        public void onEndOfInput() {}
    }
}
