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

package org.apache.seatunnel.connectors.managed.example.range;

import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/** Emits one row {@code (split, n)} per number; the split's position moves only here. */
public final class RangeReader
        extends ManagedSourceReaderBase<Long, SeaTunnelRow, RangeSplit, RangeReader.Position> {

    /** The mutable position of one split, advanced by the emitter on the reader loop. */
    static final class Position {
        final int number;
        final long end;
        long next;

        Position(RangeSplit split) {
            this.number = split.number;
            this.next = split.next;
            this.end = split.end;
        }
    }

    RangeReader(SourceReader.Context context, ManagedReaderConfig config) {
        super(
                context,
                config,
                RangeSplitReader::new,
                (n, output, position) -> {
                    output.collect(new SeaTunnelRow(new Object[] {position.number, n}));
                    position.next = n + 1;
                });
    }

    @Override
    protected Position initialState(RangeSplit split) {
        return new Position(split);
    }

    @Override
    protected RangeSplit toSplit(String splitId, Position p) {
        return new RangeSplit(p.number, p.next, p.end);
    }
}
