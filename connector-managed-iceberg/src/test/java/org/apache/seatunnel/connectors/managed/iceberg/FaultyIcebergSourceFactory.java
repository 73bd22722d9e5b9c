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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.common.JobContext;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.source.managed.SupportSplitDemand;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;

/**
 * Test only: {@code ManagedIcebergFaulty} is {@code ManagedIceberg} with one injected failure. Once
 * the readers of fault {@code fault.id} together emitted the configured rows, a reader stops
 * emitting (a turn emits at most {@value #TURN_ROWS} rows, so it stops inside a file) until a
 * checkpoint has snapshotted it and completed: that checkpoint holds a split part-read. Then either
 * the reader throws ({@code fail.once.at.row}) or the enumerator throws from its next checkpoint's
 * snapshot ({@code enumerator.fail.once.after.rows}), so the restore starts mid-file.
 *
 * <p>Threading: the counters are JVM-wide concurrent maps keyed by fault id; each fault fires once.
 * A reader's hold flags are volatile: Lane B calls snapshot and completion on other threads.
 */
public final class FaultyIcebergSourceFactory implements TableSourceFactory {
    static final String IDENTIFIER = "ManagedIcebergFaulty";
    static final Option<String> FAULT_ID =
            Options.key("fault.id").stringType().defaultValue("").withDescription("fault id");
    static final Option<Long> READER_FAIL_AT_ROW =
            Options.key("fail.once.at.row")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription("rows before the reader's one failure");
    static final Option<Long> ENUMERATOR_FAIL_AFTER_ROWS =
            Options.key("enumerator.fail.once.after.rows")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription("rows before the enumerator's one failure");

    /** Rows one poll turn of a faulty reader emits at most. */
    static final int TURN_ROWS = 7;

    private static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> FIRED = new ConcurrentHashMap<>();
    // fault id -> record offset of the part-read split in the completed held checkpoint
    private static final Map<String, Long> HELD_MID_FILE = new ConcurrentHashMap<>();

    static boolean fired(String faultId) {
        return FIRED.containsKey(faultId);
    }

    /** The record offset of a part-read split in the checkpoint the restore starts from, or -1. */
    static long heldMidFileOffset(String faultId) {
        return HELD_MID_FILE.getOrDefault(faultId, -1L);
    }

    private static AtomicLong emitted(String faultId) {
        return EMITTED.computeIfAbsent(faultId, k -> new AtomicLong());
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return new ManagedIcebergSourceFactory().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        Map<String, Object> options = new HashMap<>(context.getOptions().getSourceMap());
        options.remove(FAULT_ID.key());
        options.remove(READER_FAIL_AT_ROW.key());
        options.remove(ENUMERATOR_FAIL_AFTER_ROWS.key());
        ManagedIcebergSource inner =
                new ManagedIcebergSourceFactory().create(ReadonlyConfig.fromMap(options));
        FaultySource source =
                new FaultySource(
                        inner,
                        context.getOptions().get(FAULT_ID),
                        context.getOptions().get(READER_FAIL_AT_ROW),
                        context.getOptions().get(ENUMERATOR_FAIL_AFTER_ROWS));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return FaultySource.class;
    }

    /** Delegates everything to the managed Iceberg source; wraps its readers and enumerator. */
    static final class FaultySource
            implements SeaTunnelSource<
                            SeaTunnelRow,
                            IcebergSplit,
                            DiscoveryState<IcebergSplit, IcebergCursor>>,
                    SupportParallelism,
                    SupportManagedSource {
        private static final long serialVersionUID = 1L;
        private final ManagedIcebergSource inner;
        private final String faultId;
        private final long readerFailAt;
        private final long enumeratorFailAfter;

        FaultySource(
                ManagedIcebergSource inner,
                String faultId,
                long readerFailAt,
                long enumeratorFailAfter) {
            this.inner = inner;
            this.faultId = faultId;
            this.readerFailAt = readerFailAt;
            this.enumeratorFailAfter = enumeratorFailAfter;
        }

        @Override
        public String getPluginName() {
            return IDENTIFIER;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return inner.managedSourceCapability();
        }

        @Override
        public void setJobContext(JobContext jobContext) {
            inner.setJobContext(jobContext);
        }

        @Override
        public Boundedness getBoundedness() {
            return inner.getBoundedness();
        }

        @Override
        public List<CatalogTable> getProducedCatalogTables() {
            return inner.getProducedCatalogTables();
        }

        @Override
        public SourceReader<SeaTunnelRow, IcebergSplit> createReader(SourceReader.Context context) {
            boolean readerFault = readerFailAt >= 0;
            return new FaultyReader(
                    (ManagedIcebergReader) inner.createReader(context),
                    faultId,
                    readerFault ? readerFailAt : enumeratorFailAfter,
                    readerFault);
        }

        @Override
        public SourceSplitEnumerator<IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
                createEnumerator(SourceSplitEnumerator.Context<IcebergSplit> context) {
            return restoreEnumerator(context, null);
        }

        @Override
        public SourceSplitEnumerator<IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>
                restoreEnumerator(
                        SourceSplitEnumerator.Context<IcebergSplit> context,
                        DiscoveryState<IcebergSplit, IcebergCursor> state) {
            return new FaultyEnumerator(
                    (ManagedIcebergEnumerator) inner.restoreEnumerator(context, state),
                    faultId,
                    enumeratorFailAfter);
        }

        @Override
        public Serializer<IcebergSplit> getSplitSerializer() {
            return inner.getSplitSerializer();
        }

        @Override
        public Serializer<DiscoveryState<IcebergSplit, IcebergCursor>>
                getEnumeratorStateSerializer() {
            return inner.getEnumeratorStateSerializer();
        }
    }

    /** The managed enumerator, throwing once from a checkpoint's snapshot after enough rows. */
    static final class FaultyEnumerator
            implements SourceSplitEnumerator<
                            IcebergSplit, DiscoveryState<IcebergSplit, IcebergCursor>>,
                    SupportSplitDemand {
        private final ManagedIcebergEnumerator inner;
        private final String faultId;
        private final long failAfter;

        FaultyEnumerator(ManagedIcebergEnumerator inner, String faultId, long failAfter) {
            this.inner = inner;
            this.faultId = faultId;
            this.failAfter = failAfter;
        }

        @Override
        public DiscoveryState<IcebergSplit, IcebergCursor> snapshotState(long checkpointId)
                throws Exception {
            if (failAfter >= 0
                    && HELD_MID_FILE.containsKey(faultId)
                    && FIRED.putIfAbsent(faultId, Boolean.TRUE) == null) {
                throw new IllegalStateException("injected enumerator failure " + faultId);
            }
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void handleSplitDemand(int subtaskId, int maxSplits) {
            inner.handleSplitDemand(subtaskId, maxSplits);
        }

        @Override
        public void open() {
            inner.open();
        }

        @Override
        public void run() throws Exception {
            inner.run();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public void addSplitsBack(List<IcebergSplit> splits, int subtaskId) {
            inner.addSplitsBack(splits, subtaskId);
        }

        @Override
        public int currentUnassignedSplitSize() {
            return inner.currentUnassignedSplitSize();
        }

        @Override
        public void handleSplitRequest(int subtaskId) {
            inner.handleSplitRequest(subtaskId);
        }

        @Override
        public void registerReader(int subtaskId) {
            inner.registerReader(subtaskId);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            inner.notifyCheckpointComplete(checkpointId);
        }
    }

    /**
     * The managed Iceberg reader, holding at the configured row until a checkpoint with a part-read
     * split completed, then throwing once (a reader fault) or resuming (an enumerator fault).
     */
    static final class FaultyReader implements ManagedSourceReader<SeaTunnelRow, IcebergSplit> {
        private final ManagedIcebergReader inner;
        private final String faultId;
        private final long holdAt;
        private final boolean readerFault;
        private volatile boolean holding;
        private volatile long heldCheckpoint = -1;
        private volatile long heldOffset = -1;
        private volatile boolean heldComplete;
        private volatile CompletableFuture<Void> holdFuture;
        private int turnRows;

        FaultyReader(ManagedIcebergReader inner, String faultId, long holdAt, boolean readerFault) {
            this.inner = inner;
            this.faultId = faultId;
            this.holdAt = holdAt;
            this.readerFault = readerFault;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return inner.managedSourceCapability();
        }

        @Override
        public int splitBacklog() {
            return inner.splitBacklog();
        }

        @Override
        public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx)
                throws Exception {
            if (holding) {
                if (heldComplete || fired(faultId)) {
                    holding = false;
                    if (readerFault && heldComplete && FIRED.putIfAbsent(faultId, true) == null) {
                        throw new IllegalStateException("injected reader failure " + faultId);
                    }
                } else {
                    return PollStatus.NOTHING_AVAILABLE;
                }
            }
            turnRows = 0;
            PollStatus status = inner.pollNextManaged(new Counting(output), new Capped(ctx));
            if (holdAt >= 0
                    && !fired(faultId)
                    && heldCheckpoint < 0
                    && emitted(faultId).get() >= holdAt) {
                holdFuture = new CompletableFuture<>();
                holding = true;
                return PollStatus.NOTHING_AVAILABLE;
            }
            return status;
        }

        /** The turn's budget, capped at {@value #TURN_ROWS} rows. */
        private final class Capped implements PollContext {
            private final PollContext ctx;

            Capped(PollContext ctx) {
                this.ctx = ctx;
            }

            @Override
            public int remainingRecords() {
                return Math.min(ctx.remainingRecords(), TURN_ROWS - turnRows);
            }

            @Override
            public long remainingBytes() {
                return ctx.remainingBytes();
            }

            @Override
            public long deadlineNanos() {
                return ctx.deadlineNanos();
            }

            @Override
            public long nanoTime() {
                return ctx.nanoTime();
            }

            @Override
            public boolean shouldYield() {
                return ctx.shouldYield() || turnRows >= TURN_ROWS;
            }
        }

        private final class Counting implements Collector<SeaTunnelRow> {
            private final Collector<SeaTunnelRow> out;

            Counting(Collector<SeaTunnelRow> out) {
                this.out = out;
            }

            @Override
            public void collect(SeaTunnelRow row) {
                out.collect(row);
                turnRows++;
                emitted(faultId).incrementAndGet();
            }

            @Override
            public Object getCheckpointLock() {
                return out.getCheckpointLock();
            }
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            CompletableFuture<Void> hold = holdFuture;
            return holding && hold != null ? hold : inner.isAvailable();
        }

        @Override
        public void wakeup() {
            inner.wakeup();
        }

        @Override
        public void open() throws Exception {
            inner.open();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
            inner.pollNext(new Counting(output));
        }

        @Override
        public List<IcebergSplit> snapshotState(long checkpointId) throws Exception {
            List<IcebergSplit> state = inner.snapshotState(checkpointId);
            if (holding && heldCheckpoint < 0) {
                for (IcebergSplit s : state) {
                    if (s.recordOffset() > 0) {
                        heldOffset = s.recordOffset();
                        heldCheckpoint = checkpointId;
                    }
                }
            }
            return state;
        }

        @Override
        public void addSplits(List<IcebergSplit> splits) {
            inner.addSplits(splits);
        }

        @Override
        public void handleNoMoreSplits() {
            inner.handleNoMoreSplits();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            inner.notifyCheckpointComplete(checkpointId);
            if (holding && checkpointId == heldCheckpoint) {
                HELD_MID_FILE.putIfAbsent(faultId, heldOffset);
                heldComplete = true;
                holdFuture.complete(null);
            }
        }
    }
}
