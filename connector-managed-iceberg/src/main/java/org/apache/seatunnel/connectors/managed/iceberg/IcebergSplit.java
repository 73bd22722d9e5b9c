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

import java.util.Objects;
import org.apache.iceberg.FileScanTask;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * One file scan task of an Iceberg table (a data file, or a byte range of one when the planner
 * splits large files, with its delete files and residual filter) and how many of its records were
 * emitted before. Its id is the file path and the range's start, so two ranges of one file are two
 * splits (the stock split's id, the path alone, would make them one).
 *
 * <p>Threading: immutable.
 */
public final class IcebergSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;

    private final FileScanTask task;
    private final long recordOffset;

    public IcebergSplit(FileScanTask task, long recordOffset) {
        this.task = Objects.requireNonNull(task, "task");
        if (recordOffset < 0) {
            throw new IllegalArgumentException("negative record offset " + recordOffset);
        }
        this.recordOffset = recordOffset;
    }

    /** The split id of a task: {@code <file path>@<start>}. */
    static String idOf(FileScanTask task) {
        return task.file().path() + "@" + task.start();
    }

    @Override
    public String splitId() {
        return idOf(task);
    }

    public FileScanTask task() {
        return task;
    }

    /** Records of this task already emitted: reading resumes after them. */
    public long recordOffset() {
        return recordOffset;
    }

    IcebergSplit withRecordOffset(long offset) {
        return offset == recordOffset ? this : new IcebergSplit(task, offset);
    }

    @Override
    public String toString() {
        return "IcebergSplit{" + splitId() + ", recordOffset=" + recordOffset + '}';
    }
}
