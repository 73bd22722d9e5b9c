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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.DelegatingInputStream;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * The table's file IO as the split reader uses it: Parquet files of a Hadoop file IO open through
 * Iceberg's plain {@link InputFile} path, every other file as the table's own IO opens it.
 *
 * <p>Why: for a Hadoop input file Iceberg's Parquet read builder copies the whole Hadoop {@code
 * Configuration} once per file opened (every default and site property), which at a few thousand
 * rows per file was a sixth of a fetch thread's CPU. The plain path is the one Iceberg takes for
 * every non-Hadoop file IO (S3, GCS, Azure). The stream underneath is the file system's own stream,
 * opened from the table's Hadoop file system as Iceberg's Hadoop file would open it, and handed to
 * Parquet unwrapped, as on the Hadoop path (Iceberg's own stream wrapper would record a stack trace
 * per file and log a warning when Parquet closes only the stream inside it). What it gives up:
 * Parquet read options set in the Hadoop configuration (the table's read properties still apply).
 * ORC and Avro keep the Hadoop path: Avro's reader makes no copy, and ORC's, on the plain path,
 * makes a new {@code Configuration} per file and sets a property on it, which parses Hadoop's
 * default resources each time, more than the copy costs.
 *
 * <p>Threading: immutable; safe wherever the wrapped IO is. A stream belongs to its reader.
 */
final class ScanFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final FileIO io;

    ScanFileIO(FileIO io) {
        this.io = Objects.requireNonNull(io, "io");
    }

    @Override
    public InputFile newInputFile(String path) {
        return plainIfParquet(path, io.newInputFile(path));
    }

    @Override
    public InputFile newInputFile(String path, long length) {
        return plainIfParquet(path, io.newInputFile(path, length));
    }

    private static InputFile plainIfParquet(String path, InputFile file) {
        return file instanceof HadoopInputFile
                        && FileFormat.fromFileName(path) == FileFormat.PARQUET
                ? new PlainInputFile((HadoopInputFile) file)
                : file;
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return io.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
        io.deleteFile(path);
    }

    @Override
    public Map<String, String> properties() {
        return io.properties();
    }

    /** The table's IO belongs to the table loader, which closes it. */
    @Override
    public void close() {}

    /** A Hadoop file that is not a {@link HadoopInputFile}, so Parquet takes the plain path. */
    private static final class PlainInputFile implements InputFile {
        private final HadoopInputFile file;

        PlainInputFile(HadoopInputFile file) {
            this.file = file;
        }

        @Override
        public long getLength() {
            return file.getLength();
        }

        @Override
        public SeekableInputStream newStream() {
            try {
                return new FileSystemStream(file.getFileSystem().open(file.getPath()));
            } catch (FileNotFoundException e) {
                throw new NotFoundException(
                        e, "Failed to open input stream for file: %s", location());
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Failed to open input stream for file: " + location(), e);
            }
        }

        @Override
        public String location() {
            return file.location();
        }

        @Override
        public boolean exists() {
            return file.exists();
        }
    }

    /**
     * The file system's stream as an Iceberg stream; Parquet reads and closes the stream inside it
     * (Iceberg's {@code ParquetIO} unwraps a {@link DelegatingInputStream} of a Hadoop stream).
     */
    private static final class FileSystemStream extends SeekableInputStream
            implements DelegatingInputStream {
        private final FSDataInputStream stream;

        FileSystemStream(FSDataInputStream stream) {
            this.stream = stream;
        }

        @Override
        public InputStream getDelegate() {
            return stream;
        }

        @Override
        public long getPos() throws IOException {
            return stream.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
            stream.seek(newPos);
        }

        @Override
        public int read() throws IOException {
            return stream.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return stream.read(b, off, len);
        }

        @Override
        public void close() throws IOException {
            stream.close();
        }
    }
}
