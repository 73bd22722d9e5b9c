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

import java.util.ArrayDeque;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;
import org.apache.seatunnel.connectors.seatunnel.iceberg.IcebergTableLoader;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.data.DefaultDeserializer;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.reader.IcebergFileScanTaskReader;

/**
 * Reads the splits' data files with the stock {@link IcebergFileScanTaskReader} (Parquet, ORC and
 * Avro, delete files, residual filter) and converts each record with the stock {@link
 * DefaultDeserializer}, one split after another, at most {@code managed.fetch.batch-rows} rows per
 * fetch. A split starts after its record offset: the records before it are read and dropped, as the
 * stock reader does.
 *
 * <p>Threading: the base's fetch thread calls everything but {@link #wakeUp()}, which has nothing
 * to interrupt (a fetch ends after one batch) and so does nothing. The table's file IO is opened on
 * the fetch thread at the first split.
 */
final class IcebergFileSplitReader implements ManagedSplitReader<SeaTunnelRow, IcebergSplit> {
    private final SourceConfig config;
    private final CatalogTable catalogTable;
    private final Schema tableSchema;
    private final Schema projectedSchema;
    private final DefaultDeserializer deserializer;
    private final int batchRows;
    private final ArrayDeque<IcebergSplit> splits = new ArrayDeque<>();

    private IcebergTableLoader loader;
    private IcebergFileScanTaskReader files;
    private IcebergSplit current;
    private CloseableIterator<Record> records;

    IcebergFileSplitReader(
            SourceConfig config,
            CatalogTable catalogTable,
            Schema tableSchema,
            Schema projectedSchema,
            SeaTunnelRowType rowType,
            int batchRows) {
        this.config = config;
        this.catalogTable = catalogTable;
        this.tableSchema = tableSchema;
        this.projectedSchema = projectedSchema;
        this.deserializer = new DefaultDeserializer(rowType, projectedSchema);
        this.batchRows = batchRows;
    }

    @Override
    public void handleSplitsAdded(List<IcebergSplit> added) {
        splits.addAll(added);
    }

    @Override
    public FetchedRecords<SeaTunnelRow> fetch() throws Exception {
        FetchedRecords.Builder<SeaTunnelRow> batch = FetchedRecords.builder();
        while (batch.recordCount() < batchRows) {
            if (current == null && !openNext(batch)) {
                break;
            }
            String id = current.splitId();
            while (batch.recordCount() < batchRows && records.hasNext()) {
                batch.add(id, deserializer.deserialize(records.next()));
            }
            if (!records.hasNext()) {
                closeCurrent();
                batch.finish(id);
            }
        }
        return batch.build();
    }

    /** Opens the next split past its record offset; false if none is waiting. */
    private boolean openNext(FetchedRecords.Builder<SeaTunnelRow> batch) throws Exception {
        IcebergSplit next = splits.poll();
        if (next == null) {
            return false;
        }
        CloseableIterator<Record> it = files().open(next.task());
        for (long i = 0; i < next.recordOffset(); i++) {
            if (!it.hasNext()) {
                it.close();
                throw new IllegalStateException(
                        "Iceberg split "
                                + next.splitId()
                                + " has fewer records than its offset "
                                + next.recordOffset()
                                + " (the data file changed?)");
            }
            it.next();
        }
        current = next;
        records = it;
        return true;
    }

    private IcebergFileScanTaskReader files() {
        if (files == null) {
            Thread thread = Thread.currentThread();
            ClassLoader own = thread.getContextClassLoader();
            try {
                loader = IcebergTableLoader.create(config, catalogTable).open();
                files =
                        IcebergFileScanTaskReader.builder()
                                .fileIO(new ScanFileIO(loader.loadTable().io()))
                                .tableSchema(tableSchema)
                                .projectedSchema(projectedSchema)
                                .caseSensitive(config.isCaseSensitive())
                                // Records are converted before the next one is read.
                                .reuseContainers(true)
                                .build();
            } finally {
                thread.setContextClassLoader(own);
            }
        }
        return files;
    }

    private void closeCurrent() throws Exception {
        CloseableIterator<Record> it = records;
        records = null;
        current = null;
        if (it != null) {
            it.close();
        }
    }

    @Override
    public void wakeUp() {}

    @Override
    public void close() throws Exception {
        try {
            closeCurrent();
        } finally {
            try {
                if (files != null) {
                    files.close();
                }
            } finally {
                if (loader != null) {
                    loader.close();
                }
            }
        }
    }
}
