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

import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/**
 * The Iceberg reader on the managed reader base: {@link IcebergFileSplitReader} reads and converts
 * records on the fetch thread; emitting one advances its split's record offset on the reader loop,
 * so a checkpoint holds exactly the records emitted before it and a restored split resumes at the
 * next record of its file.
 *
 * <p>Threading: as {@link ManagedSourceReaderBase}.
 */
public final class ManagedIcebergReader
        extends ManagedSourceReaderBase<
                SeaTunnelRow, SeaTunnelRow, IcebergSplit, ManagedIcebergReader.Position> {

    ManagedIcebergReader(
            SourceReader.Context context, ManagedReaderConfig config, ManagedIcebergSource source) {
        super(
                context,
                config,
                source::newSplitReader,
                (row, output, position) -> {
                    output.collect(row);
                    position.emitted++;
                });
    }

    /** Files end: Lane A gives this reader at most its split window of unread splits. */
    @Override
    protected boolean everySplitEnds() {
        return true;
    }

    @Override
    protected Position initialState(IcebergSplit split) {
        return new Position(split);
    }

    @Override
    protected IcebergSplit toSplit(String splitId, Position state) {
        return state.split.withRecordOffset(state.emitted);
    }

    /**
     * The mutable read position of one split: records emitted so far. Threading: advanced by the
     * emitter on the reader loop, read by its snapshots (the base's guarantees).
     */
    static final class Position {
        final IcebergSplit split;
        long emitted;

        Position(IcebergSplit split) {
            this.split = split;
            this.emitted = split.recordOffset();
        }
    }
}
