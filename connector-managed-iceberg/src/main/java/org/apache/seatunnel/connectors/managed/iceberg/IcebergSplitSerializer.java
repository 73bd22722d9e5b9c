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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.FileScanTaskParser;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * The versioned binary form of an {@link IcebergSplit}: the record offset and the task in Iceberg's
 * own JSON form ({@link FileScanTaskParser}: schema, partition spec, data file, delete files,
 * residual), which Iceberg keeps readable across its releases, unlike the task's Java
 * serialization.
 *
 * <pre>{@code
 * version 1:
 *   u8 version=1 | i64 recordOffset | i32 jsonLength | jsonLength x u8 (UTF-8 task JSON)
 * }</pre>
 *
 * <p>Threading: stateless.
 */
public final class IcebergSplitSerializer extends VersionedSerializer<IcebergSplit> {
    private static final long serialVersionUID = 1L;

    /** A task's JSON holds its schema; far above any real one, refuses a corrupt length. */
    private static final int MAX_JSON_BYTES = 64 << 20;

    private final boolean caseSensitive;

    /**
     * @param caseSensitive how a task's residual filter binds to its schema when read back (the
     *     source's {@code case_sensitive})
     */
    public IcebergSplitSerializer(boolean caseSensitive) {
        this.caseSensitive = caseSensitive;
    }

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, IcebergSplit split) throws IOException {
        out.writeLong(split.recordOffset());
        byte[] json = FileScanTaskParser.toJson(split.task()).getBytes(StandardCharsets.UTF_8);
        out.writeInt(json.length);
        out.write(json);
    }

    @Override
    protected IcebergSplit read(DataInputStream in, int version) throws IOException {
        long offset = in.readLong();
        if (offset < 0) {
            throw new IOException("Iceberg split: negative record offset " + offset);
        }
        int len = in.readInt();
        if (len < 0 || len > MAX_JSON_BYTES) {
            throw new IOException("Iceberg split: task length " + len + " does not fit");
        }
        byte[] json = new byte[len];
        in.readFully(json);
        FileScanTask task =
                FileScanTaskParser.fromJson(
                        new String(json, StandardCharsets.UTF_8), caseSensitive);
        return new IcebergSplit(task, offset);
    }
}
