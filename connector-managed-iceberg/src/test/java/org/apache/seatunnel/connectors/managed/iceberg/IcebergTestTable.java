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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.types.Types;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;

/**
 * A real Iceberg table in a Hadoop catalog on the local file system, written with Iceberg's own
 * API: each {@link #append} writes data files of rows {@code (id, name, batch)} with increasing ids
 * and commits them as one snapshot, and remembers the row keys a reader must produce.
 *
 * <p>Threading: one test thread (appends while a job runs are made from it).
 */
final class IcebergTestTable implements AutoCloseable {
    static final String CATALOG = "ice";
    static final String NAMESPACE = "db";

    static final Schema SCHEMA =
            new Schema(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.optional(2, "name", Types.StringType.get()),
                    Types.NestedField.optional(3, "batch", Types.IntegerType.get()));

    private final Path warehouse;
    private final String name;
    private final HadoopCatalog catalog;
    private final Table table;
    private final List<String> keys = new ArrayList<>();
    private final List<Long> snapshots = new ArrayList<>();
    private long nextId;
    private int batch;

    private IcebergTestTable(Path warehouse, String name, Schema schema) {
        this.warehouse = warehouse;
        this.name = name;
        this.catalog = new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        this.table = catalog.createTable(TableIdentifier.of(Namespace.of(NAMESPACE), name), schema);
    }

    static IcebergTestTable create(Path warehouse, String name) {
        return new IcebergTestTable(warehouse, name, SCHEMA);
    }

    Table table() {
        table.refresh();
        return table;
    }

    String name() {
        return name;
    }

    /** The options of a source reading this table (stock and managed alike). */
    Map<String, Object> options() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("catalog_name", CATALOG);
        o.put("namespace", NAMESPACE);
        o.put("table", name);
        Map<String, String> props = new HashMap<>();
        props.put("type", "hadoop");
        props.put("warehouse", warehouse.toUri().toString());
        o.put("iceberg.catalog.config", props);
        return o;
    }

    /**
     * As {@link #options()}, with the catalog loaded from {@code catalogImpl} (Iceberg's {@code
     * catalog-impl}) instead of the built-in Hadoop type.
     */
    Map<String, Object> options(String catalogImpl) {
        Map<String, Object> o = options();
        Map<String, String> props = new HashMap<>();
        props.put("catalog-impl", catalogImpl);
        props.put("warehouse", warehouse.toUri().toString());
        o.put("iceberg.catalog.config", props);
        return o;
    }

    /** Appends so far (each one's rows carry its number, from 0, as {@code batch}). */
    int batches() {
        return batch;
    }

    /** The key the sink sees for a row of this table. */
    static String key(long id, int batch) {
        return RowKeys.ofFields(id, "r" + id, batch);
    }

    /** Every row key appended so far, in append order. */
    List<String> keys() {
        return Collections.unmodifiableList(new ArrayList<>(keys));
    }

    /** The snapshot ids this helper committed, oldest first. */
    List<Long> snapshots() {
        return Collections.unmodifiableList(new ArrayList<>(snapshots));
    }

    /** Commits {@code files} Parquet files of {@code rowsPerFile} rows as one snapshot. */
    long append(int files, int rowsPerFile) throws IOException {
        return append(files, rowsPerFile, FileFormat.PARQUET);
    }

    /** Commits {@code files} data files of {@code rowsPerFile} rows as one snapshot; its id. */
    long append(int files, int rowsPerFile, FileFormat format) throws IOException {
        table.refresh();
        int b = batch++;
        AppendFiles append = table.newFastAppend();
        List<String> added = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            append.appendFile(writeFile(format, rowsPerFile, b, added));
        }
        append.commit();
        keys.addAll(added);
        long id = table.currentSnapshot().snapshotId();
        snapshots.add(id);
        return id;
    }

    /** Commits a snapshot that adds no file; its id. */
    long appendEmpty() {
        table.refresh();
        batch++;
        table.newFastAppend().commit();
        long id = table.currentSnapshot().snapshotId();
        snapshots.add(id);
        return id;
    }

    /**
     * Adds an optional column ({@code note}); rows appended after it still match {@link #SCHEMA}.
     */
    void addOptionalColumn(String column) {
        table.refresh();
        table.updateSchema().addColumn(column, Types.StringType.get()).commit();
    }

    private DataFile writeFile(FileFormat format, int rows, int b, List<String> added)
            throws IOException {
        String file =
                table.location() + "/data/" + UUID.randomUUID() + "." + format.name().toLowerCase();
        // Iceberg's local output, not the table's Hadoop file IO: no checksum files, many times
        // faster for a commit of thousands of files; readers open them through the table's IO.
        java.io.File local = new java.io.File(java.net.URI.create(file));
        local.getParentFile().mkdirs();
        OutputFile out = org.apache.iceberg.Files.localOutput(local);
        Schema schema = table.schema();
        FileAppender<Record> appender = new GenericAppenderFactory(schema).newAppender(out, format);
        try {
            for (int i = 0; i < rows; i++) {
                long id = nextId++;
                Record r = GenericRecord.create(schema);
                r.setField("id", id);
                r.setField("name", "r" + id);
                r.setField("batch", b);
                appender.add(r);
                added.add(key(id, b));
            }
        } finally {
            appender.close();
        }
        return DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(file)
                .withFormat(format)
                .withFileSizeInBytes(appender.length())
                .withMetrics(appender.metrics())
                .build();
    }

    @Override
    public void close() throws IOException {
        catalog.close();
    }
}
