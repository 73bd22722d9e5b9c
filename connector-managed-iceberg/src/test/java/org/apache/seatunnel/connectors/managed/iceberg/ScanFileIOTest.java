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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.encryption.EncryptionKeyMetadata;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.DelegatingInputStream;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.reader.IcebergFileScanTaskReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanFileIOTest {
    @TempDir Path warehouse;

    @Test
    void parquetFilesOpenThroughThePlainPathAndOtherFilesThroughTheTablesIo() {
        FileIO io = new ScanFileIO(new HadoopFileIO(new Configuration()));
        String base = warehouse.toUri() + "t/data/";

        assertFalse(io.newInputFile(base + "a.parquet") instanceof HadoopInputFile);
        assertFalse(io.newInputFile(base + "b.parquet", 10) instanceof HadoopInputFile);
        assertEquals(base + "a.parquet", io.newInputFile(base + "a.parquet").location());
        assertTrue(io.newInputFile(base + "c.orc") instanceof HadoopInputFile);
        assertTrue(io.newInputFile(base + "d.avro") instanceof HadoopInputFile);
        assertTrue(io.newInputFile(base + "e") instanceof HadoopInputFile);
    }

    /**
     * Parquet gets the file system's stream itself, which it closes, as on the Hadoop path; not
     * Iceberg's wrapper, which would warn from its finalizer that it was never closed.
     */
    @Test
    void aParquetFilesStreamHandsParquetTheFileSystemsStream() throws IOException {
        File file = warehouse.resolve("a.parquet").toFile();
        java.nio.file.Files.write(file.toPath(), new byte[] {1, 2, 3});
        FileIO io = new ScanFileIO(new HadoopFileIO(new Configuration()));

        try (SeekableInputStream in = io.newInputFile(file.toURI().toString()).newStream()) {
            assertTrue(in instanceof DelegatingInputStream);
            assertTrue(((DelegatingInputStream) in).getDelegate() instanceof FSDataInputStream);
            in.seek(1);
            assertEquals(2, in.read());
            assertEquals(2, in.getPos());
        }
        assertEquals(3, io.newInputFile(file.toURI().toString()).getLength());
        assertThrows(
                NotFoundException.class,
                () ->
                        io.newInputFile(warehouse.resolve("none.parquet").toUri().toString())
                                .newStream());
    }

    /** Position and equality deletes in Parquet and Avro apply as through the table's own IO. */
    @Test
    void aScanWithPositionAndEqualityDeletesReadsTheSameRowsThroughEitherIo() throws IOException {
        HadoopCatalog catalog =
                new HadoopCatalog(new Configuration(), warehouse.toUri().toString());
        try {
            Table table =
                    catalog.createTable(
                            TableIdentifier.of(Namespace.of("db"), "deletes"),
                            IcebergTestTable.SCHEMA,
                            PartitionSpec.unpartitioned(),
                            Collections.singletonMap(TableProperties.FORMAT_VERSION, "2"));
            for (FileFormat format : Arrays.asList(FileFormat.PARQUET, FileFormat.AVRO)) {
                long first = format == FileFormat.PARQUET ? 0 : 100;
                DataFile data = writeRows(table, format, first);
                table.newAppend().appendFile(data).commit();
                table.newRowDelta()
                        .addDeletes(deletePositions(table, format, data, 1, 2))
                        .addDeletes(deleteId(table, format, first + 5))
                        .commit();
            }
            table.refresh();

            List<Long> expected = new ArrayList<>();
            for (long first : new long[] {0, 100}) {
                for (long id : new long[] {0, 3, 4, 6, 7, 8, 9}) {
                    expected.add(first + id);
                }
            }
            assertEquals(expected, ids(table, table.io()));
            assertEquals(expected, ids(table, new ScanFileIO(table.io())));
        } finally {
            catalog.close();
        }
    }

    private static List<Long> ids(Table table, FileIO io) throws IOException {
        List<Long> ids = new ArrayList<>();
        try (IcebergFileScanTaskReader reader =
                        IcebergFileScanTaskReader.builder()
                                .fileIO(io)
                                .tableSchema(table.schema())
                                .projectedSchema(table.schema())
                                .caseSensitive(true)
                                .reuseContainers(true)
                                .build();
                CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterator<Record> records = reader.open(task)) {
                    while (records.hasNext()) {
                        ids.add((Long) records.next().getField("id"));
                    }
                }
            }
        }
        Collections.sort(ids);
        return ids;
    }

    private static DataFile writeRows(Table table, FileFormat format, long first)
            throws IOException {
        EncryptedOutputFile out = output(table, "data", format);
        FileAppender<Record> appender =
                new GenericAppenderFactory(table.schema())
                        .newAppender(out.encryptingOutputFile(), format);
        try {
            for (long id = first; id < first + 10; id++) {
                Record r = GenericRecord.create(table.schema());
                r.setField("id", id);
                r.setField("name", "r" + id);
                r.setField("batch", 0);
                appender.add(r);
            }
        } finally {
            appender.close();
        }
        return DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(out.encryptingOutputFile().location())
                .withFormat(format)
                .withFileSizeInBytes(appender.length())
                .withMetrics(appender.metrics())
                .build();
    }

    private static DeleteFile deletePositions(
            Table table, FileFormat format, DataFile data, long... positions) throws IOException {
        PositionDeleteWriter<Record> writer =
                new GenericAppenderFactory(table.schema(), table.spec())
                        .newPosDeleteWriter(output(table, "pos", format), format, null);
        try {
            for (long pos : positions) {
                writer.write(PositionDelete.<Record>create().set(data.path(), pos, null));
            }
        } finally {
            writer.close();
        }
        return writer.toDeleteFile();
    }

    private static DeleteFile deleteId(Table table, FileFormat format, long id) throws IOException {
        Schema idOnly = table.schema().select("id");
        EqualityDeleteWriter<Record> writer =
                new GenericAppenderFactory(
                                table.schema(), table.spec(), new int[] {1}, idOnly, null)
                        .newEqDeleteWriter(output(table, "eq", format), format, null);
        try {
            Record r = GenericRecord.create(idOnly);
            r.setField("id", id);
            writer.write(r);
        } finally {
            writer.close();
        }
        return writer.toDeleteFile();
    }

    private static EncryptedOutputFile output(Table table, String kind, FileFormat format) {
        String name = kind + "-" + format.name().toLowerCase() + "." + format.name().toLowerCase();
        File local = new File(java.net.URI.create(table.location() + "/data/" + name));
        local.getParentFile().mkdirs();
        return EncryptedFiles.encryptedOutput(
                org.apache.iceberg.Files.localOutput(local), EncryptionKeyMetadata.EMPTY);
    }
}
