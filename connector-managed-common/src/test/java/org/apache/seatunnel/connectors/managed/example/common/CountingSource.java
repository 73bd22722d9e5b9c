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

package org.apache.seatunnel.connectors.managed.example.common;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.PhysicalColumn;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TableSchema;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumerator;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;
import org.apache.seatunnel.connectors.managed.reader.adapter.ConnectorCommonReaderAdapter;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordEmitter;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordsBySplits;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordsWithSplitIds;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitReader;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitsChange;

/**
 * A small connector built the stock way, on SeaTunnel 2.3.8's {@code connector-common}: a {@link
 * SplitReader} of counting splits and a {@link RecordEmitter}, exactly as a stock reader would hand
 * them to {@code SingleThreadMultiplexSourceReaderBase}. On Lane A they run unchanged through
 * {@link ConnectorCommonReaderAdapter}. Registered as {@code ManagedCounting}.
 */
public final class CountingSource
        implements SeaTunnelSource<
                        SeaTunnelRow,
                        CountingSource.CountSplit,
                        ArrayList<CountingSource.CountSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;
    static final String IDENTIFIER = "ManagedCounting";

    private final int splits;
    private final long perSplit;

    CountingSource(int splits, long perSplit) {
        this.splits = splits;
        this.perSplit = perSplit;
    }

    /** Numbers {@code [from, to)} of split {@code number}. */
    public record CountSplit(int number, long from, long to) implements SourceSplit {
        @Override
        public String splitId() {
            return "count-" + number;
        }
    }

    /** A fetched number with its split, as a stock connector's raw record carries its offset. */
    record Counted(int split, long n) {}

    /** The mutable read position, as a stock reader's split state. */
    static final class Position {
        final int number;
        final long to;
        long from;

        Position(CountSplit s) {
            this.number = s.number();
            this.from = s.from();
            this.to = s.to();
        }
    }

    /** The stock-style split reader: one fetch reads up to 100 numbers of each split it has. */
    static final class CountingSplitReader implements SplitReader<Counted, CountSplit> {
        private final ArrayDeque<CountSplit> splits = new ArrayDeque<>();
        private final Map<String, Long> next = new HashMap<>();

        @Override
        public RecordsWithSplitIds<Counted> fetch() {
            Map<String, Collection<Counted>> out = new LinkedHashMap<>();
            Set<String> finished = new java.util.HashSet<>();
            for (CountSplit s : new ArrayList<>(splits)) {
                long n = next.getOrDefault(s.splitId(), s.from());
                List<Counted> batch = new ArrayList<>();
                for (int i = 0; i < 100 && n < s.to(); i++) {
                    batch.add(new Counted(s.number(), n++));
                }
                next.put(s.splitId(), n);
                out.put(s.splitId(), batch);
                if (n >= s.to()) {
                    finished.add(s.splitId());
                    splits.remove(s);
                }
            }
            return new RecordsBySplits<>(out, finished);
        }

        @Override
        public void handleSplitsChanges(SplitsChange<CountSplit> change) {
            splits.addAll(change.splits());
        }

        @Override
        public void wakeUp() {}

        @Override
        public void close() {}
    }

    /** The stock-style emitter: emits the row and moves the split's position past it. */
    static final class CountingEmitter implements RecordEmitter<Counted, SeaTunnelRow, Position> {
        @Override
        public void emitRecord(Counted c, Collector<SeaTunnelRow> out, Position position) {
            out.collect(new SeaTunnelRow(new Object[] {c.split(), c.n()}));
            position.from = c.n() + 1;
        }
    }

    /** The Lane A reader: the stock split reader and emitter through the adapter. */
    static final class CountingReader
            extends ConnectorCommonReaderAdapter<Counted, SeaTunnelRow, CountSplit, Position> {
        CountingReader(SourceReader.Context context) {
            super(
                    context,
                    ManagedReaderConfig.defaults(),
                    CountingSplitReader::new,
                    new CountingEmitter(),
                    c -> 16);
        }

        @Override
        protected Position initialState(CountSplit split) {
            return new Position(split);
        }

        @Override
        protected CountSplit toSplit(String splitId, Position p) {
            return new CountSplit(p.number, p.from, p.to);
        }
    }

    static final class SplitCodec extends VersionedSerializer<CountSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, CountSplit s) throws IOException {
            out.writeInt(s.number());
            out.writeLong(s.from());
            out.writeLong(s.to());
        }

        @Override
        protected CountSplit read(DataInputStream in, int version) throws IOException {
            return new CountSplit(in.readInt(), in.readLong(), in.readLong());
        }
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return ManagedSourceReaderBase.CAPABILITY;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public List<CatalogTable> getProducedCatalogTables() {
        TableSchema schema =
                TableSchema.builder()
                        .column(PhysicalColumn.of("split", BasicType.INT_TYPE, 4L, false, null, ""))
                        .column(PhysicalColumn.of("n", BasicType.LONG_TYPE, 8L, false, null, ""))
                        .build();
        return List.of(
                CatalogTable.of(
                        TableIdentifier.of(IDENTIFIER, "counting", null, "numbers"),
                        schema,
                        Map.of(),
                        List.of(),
                        "numbers"));
    }

    @Override
    public SourceReader<SeaTunnelRow, CountSplit> createReader(SourceReader.Context context) {
        return new CountingReader(context);
    }

    @Override
    public SourceSplitEnumerator<CountSplit, ArrayList<CountSplit>> createEnumerator(
            SourceSplitEnumerator.Context<CountSplit> context) {
        List<CountSplit> all = new ArrayList<>();
        for (int i = 0; i < splits; i++) {
            all.add(new CountSplit(i, 0, perSplit));
        }
        return new StaticSplitEnumerator<>(context, all, true);
    }

    @Override
    public SourceSplitEnumerator<CountSplit, ArrayList<CountSplit>> restoreEnumerator(
            SourceSplitEnumerator.Context<CountSplit> context, ArrayList<CountSplit> pending) {
        return new StaticSplitEnumerator<>(context, pending, true);
    }

    @Override
    public Serializer<CountSplit> getSplitSerializer() {
        return new SplitCodec();
    }

    @Override
    public Serializer<ArrayList<CountSplit>> getEnumeratorStateSerializer() {
        return new SplitListSerializer<>(new SplitCodec());
    }
}
