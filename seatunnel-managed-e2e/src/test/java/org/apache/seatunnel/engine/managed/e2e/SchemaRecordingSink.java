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

package org.apache.seatunnel.engine.managed.e2e;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.DefaultSerializer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkCommitter;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.event.SchemaChangeEvent;
import org.apache.seatunnel.api.table.event.handler.DataTypeChangeEventDispatcher;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;

/**
 * {@code SchemaRecordingSink}: a test sink that keeps the table schema it is writing to, applies
 * the schema-change events that reach it ({@code SinkWriter.applySchemaChange}, as a schema
 * evolving sink does) and records, per row, the schema in force when the row arrived and the number
 * of fields the row was read with. The schema is the writer's checkpointed state, so a restore puts
 * back the schema of the restored cut. Rows are recorded on write and, through the committer, when
 * the checkpoint that covered them completed.
 *
 * <p>Threading: immutable and serializable; see {@link Writer} and the committer for theirs.
 */
public final class SchemaRecordingSink
        implements SeaTunnelSink<
                SeaTunnelRow, SchemaRecordingSink.WriterState, SchemaRecordingSink.Batch, Void> {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "SchemaRecordingSink";

    private final String runId;
    private final SeaTunnelRowType initial;

    SchemaRecordingSink(String runId, SeaTunnelRowType initial) {
        this.runId = runId;
        this.initial = initial;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Batch, WriterState> createWriter(SinkWriter.Context context) {
        Records.of(runId).writersStarted.add("new:" + fieldNames(initial));
        return new Writer(Records.of(runId), initial);
    }

    @Override
    public SinkWriter<SeaTunnelRow, Batch, WriterState> restoreWriter(
            SinkWriter.Context context, List<WriterState> states) {
        SeaTunnelRowType type = states.isEmpty() ? initial : states.get(0).rowType;
        Records.of(runId).writersStarted.add("restored:" + fieldNames(type));
        return new Writer(Records.of(runId), type);
    }

    @Override
    public Optional<Serializer<WriterState>> getWriterStateSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    @Override
    public Optional<SinkCommitter<Batch>> createCommitter() {
        return Optional.of(new Committer(runId));
    }

    @Override
    public Optional<Serializer<Batch>> getCommitInfoSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    /** {@code id|field,names,at,arrival|fields in the row}. */
    static String entry(SeaTunnelRow row, SeaTunnelRowType schema) {
        return row.getField(0) + "|" + fieldNames(schema) + "|" + row.getArity();
    }

    static String fieldNames(SeaTunnelRowType schema) {
        return String.join(",", Arrays.asList(schema.getFieldNames()));
    }

    /** The writer's schema, checkpointed with it. */
    public static final class WriterState implements Serializable {
        private static final long serialVersionUID = 1L;
        final SeaTunnelRowType rowType;

        WriterState(SeaTunnelRowType rowType) {
            this.rowType = rowType;
        }
    }

    /** The entries written between two barriers. */
    public static final class Batch implements Serializable {
        private static final long serialVersionUID = 1L;
        final ArrayList<String> entries;

        Batch(List<String> entries) {
            this.entries = new ArrayList<>(entries);
        }
    }

    /** What the sink saw in one run; concurrent, read by the test thread. */
    public static final class Records {
        private static final Map<String, Records> RUNS = new ConcurrentHashMap<>();

        final ConcurrentLinkedQueue<String> written = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> committed = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> schemaChangesApplied = new ConcurrentLinkedQueue<>();
        // "new:<fields>" or "restored:<fields>" per writer, in creation order.
        final ConcurrentLinkedQueue<String> writersStarted = new ConcurrentLinkedQueue<>();

        static Records of(String runId) {
            return RUNS.computeIfAbsent(runId, k -> new Records());
        }

        static void clear(String runId) {
            RUNS.remove(runId);
        }

        List<String> committed() {
            return new ArrayList<>(committed);
        }
    }

    /**
     * The writer of one sink subtask: records each row with the schema in force when it arrived.
     *
     * <p>Threading: {@code write}, {@code applySchemaChange}, {@code prepareCommit} and {@code
     * snapshotState} on the sink task's thread, one at a time.
     */
    private static final class Writer implements SinkWriter<SeaTunnelRow, Batch, WriterState> {
        private final Records records;
        private final List<String> pending = new ArrayList<>();
        private SeaTunnelRowType rowType;

        Writer(Records records, SeaTunnelRowType rowType) {
            this.records = records;
            this.rowType = rowType;
        }

        @Override
        public void write(SeaTunnelRow row) {
            String e = entry(row, rowType);
            records.written.add(e);
            pending.add(e);
        }

        @Override
        public void applySchemaChange(SchemaChangeEvent event) {
            rowType = new DataTypeChangeEventDispatcher().reset(rowType).apply(event);
            records.schemaChangesApplied.add(event.getClass().getSimpleName());
        }

        @Override
        public Optional<Batch> prepareCommit() {
            Batch b = new Batch(pending);
            pending.clear();
            return Optional.of(b);
        }

        @Override
        public List<WriterState> snapshotState(long checkpointId) {
            return Collections.singletonList(new WriterState(rowType));
        }

        @Override
        public void abortPrepare() {}

        @Override
        public void close() {}
    }

    /**
     * The committer: makes a checkpoint's recorded rows visible once the engine commits it.
     *
     * <p>Threading: the engine commits on a Hazelcast operation thread; the registry is concurrent.
     */
    private static final class Committer implements SinkCommitter<Batch> {
        private static final long serialVersionUID = 1L;
        private final String runId;

        Committer(String runId) {
            this.runId = runId;
        }

        @Override
        public List<Batch> commit(List<Batch> infos) {
            for (Batch b : infos) {
                Records.of(runId).committed.addAll(b.entries);
            }
            return Collections.emptyList();
        }

        @Override
        public void abort(List<Batch> infos) {}
    }

    /** {@code SchemaRecordingSink { run.id = "..." }}; the schema comes from the upstream table. */
    public static final class Factory
            implements TableSinkFactory<SeaTunnelRow, WriterState, Batch, Void> {
        public static final Option<String> RUN_ID =
                Options.key("run.id").stringType().noDefaultValue().withDescription("records key");

        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder().required(RUN_ID).build();
        }

        @Override
        public TableSink<SeaTunnelRow, WriterState, Batch, Void> createSink(
                TableSinkFactoryContext context) {
            String runId = context.getOptions().get(RUN_ID);
            SeaTunnelRowType type = context.getCatalogTable().getSeaTunnelRowType();
            return () -> new SchemaRecordingSink(runId, type);
        }
    }
}
