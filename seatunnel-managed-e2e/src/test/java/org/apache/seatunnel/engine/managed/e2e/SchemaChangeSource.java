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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.Column;
import org.apache.seatunnel.api.table.catalog.PhysicalColumn;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.catalog.TableSchema;
import org.apache.seatunnel.api.table.type.BasicType;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.StaticSplitEnumerator;
import org.apache.seatunnel.connectors.managed.serialization.SplitListSerializer;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * {@code SchemaChangeProbe}: a bounded one-split source whose table gains a column mid-stream, the
 * way a CDC source reports DDL in SeaTunnel 2.3.8. Rows {@code 0 .. change.at-1} are {@code (id
 * BIGINT, name STRING)}; at {@code change.at} (once a checkpoint completed, so the change never
 * races the job's start) the reader marks a schema change before checkpoint, then in its next turn
 * emits {@code ADD COLUMN extra INT} and marks a schema change after checkpoint; rows {@code
 * change.at .. rows-1} are {@code (id, name, extra)}. The split's state carries the next row and
 * the schema version, so a restore resumes with the schema in force at the restored cut.
 *
 * <p>With {@code fail.in.change} the reader fails the first checkpoint after it emitted the change
 * (once per {@code run.id}): the job restores from the before-change checkpoint, in the middle of
 * the change. With {@code fail.after.change = after-cut} it fails the first checkpoint after the
 * after-change checkpoint, so the job restores from that one; with {@code later-cut} it holds its
 * rows until a later checkpoint completed and fails the next one, so the job restores from a
 * periodic checkpoint after the change (each once per run). With {@code reemit.on.restore} a reader
 * that starts from a split read after the change first emits the change event again (no marks),
 * before any row.
 *
 * <p>Threading: immutable.
 */
public final class SchemaChangeSource
        implements SeaTunnelSource<
                        SeaTunnelRow,
                        SchemaChangeSource.Split,
                        ArrayList<SchemaChangeSource.Split>>,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "SchemaChangeProbe";
    static final TableIdentifier TABLE =
            TableIdentifier.of(IDENTIFIER, TablePath.of("probe", "rows"));
    static final Column EXTRA = PhysicalColumn.of("extra", BasicType.INT_TYPE, 4L, true, null, "");

    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    final String runId;
    final int rows;
    final int changeAt;
    final boolean failInChange;
    final String failAfterChange;
    final boolean reemitOnRestore;

    SchemaChangeSource(
            String runId,
            int rows,
            int changeAt,
            boolean failInChange,
            String failAfterChange,
            boolean reemitOnRestore) {
        this.runId = runId;
        this.rows = rows;
        this.changeAt = changeAt;
        this.failInChange = failInChange;
        this.failAfterChange = failAfterChange;
        this.reemitOnRestore = reemitOnRestore;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
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
    public List<CatalogTable> getProducedCatalogTables() {
        TableSchema schema =
                TableSchema.builder()
                        .column(PhysicalColumn.of("id", BasicType.LONG_TYPE, 8L, false, null, ""))
                        .column(
                                PhysicalColumn.of(
                                        "name", BasicType.STRING_TYPE, 32L, false, null, ""))
                        .build();
        return Collections.singletonList(
                CatalogTable.of(
                        TABLE,
                        schema,
                        Collections.<String, String>emptyMap(),
                        Collections.<String>emptyList(),
                        "rows whose table gains a column mid-stream"));
    }

    /** A row as read under schema {@code version}: 2 fields before the change, 3 after. */
    static SeaTunnelRow row(long id, int version) {
        Object[] fields =
                version == 1
                        ? new Object[] {id, "row-" + id}
                        : new Object[] {id, "row-" + id, (int) (id * 10)};
        SeaTunnelRow r = new SeaTunnelRow(fields);
        r.setTableId(TABLE.toTablePath().toString());
        return r;
    }

    @Override
    public SourceReader<SeaTunnelRow, Split> createReader(SourceReader.Context ctx) {
        return new SchemaChangeReader(ctx, this);
    }

    @Override
    public Serializer<Split> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<Split, ArrayList<Split>> createEnumerator(
            SourceSplitEnumerator.Context<Split> ctx) {
        return new StaticSplitEnumerator<>(ctx, Collections.singletonList(new Split(0, 1)), true);
    }

    @Override
    public SourceSplitEnumerator<Split, ArrayList<Split>> restoreEnumerator(
            SourceSplitEnumerator.Context<Split> ctx, ArrayList<Split> state) {
        return new StaticSplitEnumerator<>(ctx, state, true);
    }

    @Override
    public Serializer<ArrayList<Split>> getEnumeratorStateSerializer() {
        return new SplitListSerializer<>(new SplitSerializer());
    }

    /** The one split: the next row to read and the schema version it is read with. Immutable. */
    static final class Split implements SourceSplit, Serializable {
        private static final long serialVersionUID = 1L;
        final long next;
        final int version;

        Split(long next, int version) {
            this.next = next;
            this.version = version;
        }

        @Override
        public String splitId() {
            return "schema-0";
        }

        @Override
        public String toString() {
            return "schema-0@" + next + "/v" + version;
        }
    }

    /** Version 1: next row (long), schema version (int). */
    static final class SplitSerializer extends VersionedSerializer<Split> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, Split split) throws IOException {
            out.writeLong(split.next);
            out.writeInt(split.version);
        }

        @Override
        protected Split read(DataInputStream in, int version) throws IOException {
            return new Split(in.readLong(), in.readInt());
        }
    }
}
