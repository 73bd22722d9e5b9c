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

package org.apache.seatunnel.managed.testkit.engine;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.DefaultSerializer;
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
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.PhysicalColumn;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.catalog.TableSchema;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.DecimalType;
import org.apache.seatunnel.api.table.type.LocalTimeType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * The smallest bounded connector an author might write, for the harness's own end-to-end test:
 * {@code splits} splits of {@code count} rows each, {@code (id BIGINT, label STRING, amount
 * DECIMAL(10,2), day DATE)}, readable on both lanes. With {@code capable = false} it declares a
 * capability Lane A refuses, so the job plans on Lane B. With {@code end-after-checkpoint = true}
 * its readers end only once a checkpoint taken after their last row completed.
 *
 * <p>Threading: the source is immutable; see the reader and enumerator.
 */
public final class RangeSource
        implements SeaTunnelSource<SeaTunnelRow, RangeSource.Split, ArrayList<RangeSource.Split>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "TestkitRange";

    static final Option<Integer> SPLITS =
            Options.key("splits").intType().defaultValue(3).withDescription("Split count.");
    static final Option<Long> COUNT =
            Options.key("count").longType().defaultValue(10L).withDescription("Rows per split.");
    static final Option<Boolean> CAPABLE =
            Options.key("capable")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Declare bounded poll and wakeup (Lane A capable).");
    static final Option<Boolean> END_AFTER_CHECKPOINT =
            Options.key("end-after-checkpoint")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Hold the end of input until a checkpoint taken after the last row"
                                    + " completed: the job ends only if the engine checkpoints.");

    private static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
    private static final ManagedSourceCapability INCAPABLE =
            ManagedSourceCapability.builder().build();

    private final int splits;
    private final long count;
    private final boolean capable;
    private final boolean endAfterCheckpoint;

    RangeSource(int splits, long count, boolean capable) {
        this(splits, count, capable, false);
    }

    RangeSource(int splits, long count, boolean capable, boolean endAfterCheckpoint) {
        this.splits = splits;
        this.count = count;
        this.capable = capable;
        this.endAfterCheckpoint = endAfterCheckpoint;
    }

    /** The row {@code seq} of split {@code split}, as every lane and every attempt emits it. */
    static Object[] fields(int split, long seq) {
        long id = split * 1_000_000L + seq;
        return new Object[] {
            id,
            "r\"" + split + "," + seq,
            BigDecimal.valueOf(id, 2),
            LocalDate.ofEpochDay(seq % 20_000)
        };
    }

    /** The whole-row keys of every row of a run, once each. */
    static List<String> expectedKeys(int splits, long count) {
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            for (long q = 0; q < count; q++) {
                keys.add(RowKeys.ofFields(fields(s, q)));
            }
        }
        return keys;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return capable ? CAPABILITY : INCAPABLE;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        TableSchema schema =
                TableSchema.builder()
                        .column(PhysicalColumn.of("id", BasicType.LONG_TYPE, 8L, false, null, ""))
                        .column(
                                PhysicalColumn.of(
                                        "label", BasicType.STRING_TYPE, 32L, false, null, ""))
                        .column(
                                PhysicalColumn.of(
                                        "amount", new DecimalType(10, 2), 16L, false, null, ""))
                        .column(
                                PhysicalColumn.of(
                                        "day", LocalTimeType.LOCAL_DATE_TYPE, 8L, false, null, ""))
                        .build();
        return Collections.singletonList(
                CatalogTable.of(
                        TableIdentifier.of(IDENTIFIER, TablePath.of("testkit", "range")),
                        schema,
                        Collections.emptyMap(),
                        Collections.emptyList(),
                        "testkit range rows"));
    }

    @Override
    public SourceReader<SeaTunnelRow, Split> createReader(SourceReader.Context context) {
        return new Reader(context, count, managedSourceCapability(), endAfterCheckpoint);
    }

    @Override
    public Serializer<Split> getSplitSerializer() {
        return new DefaultSerializer<>();
    }

    @Override
    public SourceSplitEnumerator<Split, ArrayList<Split>> createEnumerator(
            SourceSplitEnumerator.Context<Split> context) {
        List<Split> all = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            all.add(new Split(s, 0));
        }
        return new Enumerator(context, all);
    }

    @Override
    public SourceSplitEnumerator<Split, ArrayList<Split>> restoreEnumerator(
            SourceSplitEnumerator.Context<Split> context, ArrayList<Split> state) {
        return new Enumerator(context, state);
    }

    @Override
    public Serializer<ArrayList<Split>> getEnumeratorStateSerializer() {
        return new DefaultSerializer<>();
    }

    /** Split {@code number}, to be read from {@code next} on. Immutable. */
    static final class Split implements SourceSplit {
        private static final long serialVersionUID = 1L;
        final int number;
        final long next;

        Split(int number, long next) {
            this.number = number;
            this.next = next;
        }

        @Override
        public String splitId() {
            return "range-" + number;
        }
    }

    /**
     * Hands split {@code n} to reader {@code n % parallelism} when it registers, then signals no
     * more splits.
     *
     * <p>Threading: engine callbacks arrive on several threads (on Lane A serialized by the
     * runtime); all state is guarded by {@code this}.
     */
    static final class Enumerator implements SourceSplitEnumerator<Split, ArrayList<Split>> {
        private final Context<Split> context;
        private final TreeMap<Integer, Split> pending = new TreeMap<>();
        private final Set<Integer> registered = new HashSet<>();

        Enumerator(Context<Split> context, List<Split> pending) {
            this.context = context;
            for (Split s : pending) {
                this.pending.put(s.number, s);
            }
        }

        @Override
        public void open() {}

        @Override
        public void run() {}

        @Override
        public void close() {}

        @Override
        public synchronized void addSplitsBack(List<Split> splits, int subtaskId) {
            for (Split s : splits) {
                pending.put(s.number, s);
            }
            if (registered.contains(subtaskId)) {
                assign(subtaskId);
            }
        }

        @Override
        public synchronized int currentUnassignedSplitSize() {
            return pending.size();
        }

        @Override
        public void handleSplitRequest(int subtaskId) {}

        @Override
        public synchronized void registerReader(int subtaskId) {
            registered.add(subtaskId);
            assign(subtaskId);
            context.signalNoMoreSplits(subtaskId);
        }

        private void assign(int subtaskId) {
            List<Split> mine = new ArrayList<>();
            int parallelism = Math.max(1, context.currentParallelism());
            for (Split s : new ArrayList<>(pending.values())) {
                if (s.number % parallelism == subtaskId) {
                    mine.add(pending.remove(s.number));
                }
            }
            if (!mine.isEmpty()) {
                context.assignSplit(subtaskId, mine);
            }
        }

        @Override
        public synchronized ArrayList<Split> snapshotState(long checkpointId) {
            return new ArrayList<>(pending.values());
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    /**
     * Reads its splits one after another; the legacy {@code pollNext} for Lane B and {@code
     * pollNextManaged} for Lane A share one emit loop.
     *
     * <p>Threading: on Lane A every method but {@code wakeup} runs on the runtime's loop; on Lane B
     * {@code addSplits} and {@code handleNoMoreSplits} arrive on an operation thread while {@code
     * pollNext} runs, hence state guarded by {@code this}. Rows are collected outside the monitor.
     */
    static final class Reader implements ManagedSourceReader<SeaTunnelRow, Split> {
        private static final int LEGACY_BATCH = 64;

        private final SourceReader.Context context;
        private final long count;
        private final ManagedSourceCapability capability;
        private final boolean endAfterCheckpoint;
        // guarded by this
        private final List<long[]> cursors = new ArrayList<>();
        private boolean noMoreSplits;
        private boolean endSignalled;
        // guarded by this: the first checkpoint snapshotted with every row read, and whether one
        // such checkpoint completed
        private long drainedCheckpointId = -1;
        private boolean drainedCheckpointCompleted;
        private CompletableFuture<Void> available = new CompletableFuture<>();

        Reader(
                SourceReader.Context context,
                long count,
                ManagedSourceCapability capability,
                boolean endAfterCheckpoint) {
            this.context = context;
            this.count = count;
            this.capability = capability;
            this.endAfterCheckpoint = endAfterCheckpoint;
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return capability;
        }

        @Override
        public void open() {}

        @Override
        public void close() {}

        @Override
        public void pollNext(Collector<SeaTunnelRow> output) {
            synchronized (output.getCheckpointLock()) {
                for (int i = 0; i < LEGACY_BATCH; i++) {
                    SeaTunnelRow row = next();
                    if (row == null) {
                        break;
                    }
                    output.collect(row);
                }
                boolean end;
                synchronized (this) {
                    end = finished() && !endSignalled;
                    endSignalled |= end;
                }
                if (end) {
                    context.signalNoMoreElement();
                }
            }
        }

        @Override
        public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext ctx) {
            while (ctx.remainingRecords() > 0 && !ctx.shouldYield()) {
                SeaTunnelRow row = next();
                if (row == null) {
                    break;
                }
                output.collect(row);
            }
            synchronized (this) {
                if (finished()) {
                    return PollStatus.END_OF_INPUT;
                }
                return cursors.isEmpty() ? PollStatus.NOTHING_AVAILABLE : PollStatus.MORE_AVAILABLE;
            }
        }

        /** The next row, its split's cursor advanced; null when no split has rows left. */
        private synchronized SeaTunnelRow next() {
            while (!cursors.isEmpty()) {
                long[] c = cursors.get(0);
                if (c[1] < count) {
                    SeaTunnelRow row = new SeaTunnelRow(fields((int) c[0], c[1]++));
                    row.setTableId("testkit.range");
                    return row;
                }
                cursors.remove(0);
            }
            return null;
        }

        private boolean drained() {
            return noMoreSplits && cursors.isEmpty();
        }

        private boolean finished() {
            return drained() && (!endAfterCheckpoint || drainedCheckpointCompleted);
        }

        @Override
        public synchronized CompletableFuture<Void> isAvailable() {
            if (!cursors.isEmpty() || finished()) {
                return CompletableFuture.completedFuture(null);
            }
            return available;
        }

        @Override
        public void wakeup() {
            signalAvailable();
        }

        private void signalAvailable() {
            CompletableFuture<Void> f;
            synchronized (this) {
                f = available;
                available = new CompletableFuture<>();
            }
            f.complete(null);
        }

        @Override
        public void addSplits(List<Split> splits) {
            synchronized (this) {
                for (Split s : splits) {
                    cursors.add(new long[] {s.number, s.next});
                }
            }
            signalAvailable();
        }

        @Override
        public void handleNoMoreSplits() {
            synchronized (this) {
                noMoreSplits = true;
            }
            signalAvailable();
        }

        @Override
        public synchronized List<Split> snapshotState(long checkpointId) {
            if (drained() && drainedCheckpointId < 0) {
                drainedCheckpointId = checkpointId;
            }
            List<Split> state = new ArrayList<>();
            for (long[] c : cursors) {
                state.add(new Split((int) c[0], c[1]));
            }
            return state;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            synchronized (this) {
                if (drainedCheckpointId < 0 || checkpointId < drainedCheckpointId) {
                    return;
                }
                drainedCheckpointCompleted = true;
            }
            signalAvailable();
        }
    }

    /** {@code TestkitRange { splits = 3, count = 10, capable = true }}. Stateless. */
    public static final class Factory implements TableSourceFactory {
        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder()
                    .optional(SPLITS, COUNT, CAPABLE, END_AFTER_CHECKPOINT)
                    .build();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T, SplitT extends SourceSplit, StateT extends Serializable>
                TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
            RangeSource source =
                    new RangeSource(
                            context.getOptions().get(SPLITS),
                            context.getOptions().get(COUNT),
                            context.getOptions().get(CAPABLE),
                            context.getOptions().get(END_AFTER_CHECKPOINT));
            return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Class<? extends SeaTunnelSource> getSourceClass() {
            return RangeSource.class;
        }
    }
}
