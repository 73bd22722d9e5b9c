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

package org.apache.seatunnel.connectors.managed.fake;

import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.reader.ManagedRecordEmitter;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/**
 * The reader of the managed FakeSource, on the managed reader base: rows are generated on the fetch
 * thread by {@link ManagedFakeSplitReader} and emitted on the loop, where each split's position
 * moves.
 *
 * <p>Threading: as {@link ManagedSourceReaderBase}. On Lane B with slow data it holds the
 * checkpoint lock while it waits for the next chunk, as today's JDBC and HTTP readers hold it
 * around their query (apache/seatunnel#5694): the failure mode Lane A removes.
 */
public final class ManagedFakeReader
        extends ManagedSourceReaderBase<
                ManagedFakeSplitReader.Row,
                SeaTunnelRow,
                ManagedFakeSplit,
                ManagedFakeReader.Cursor> {

    /** Rows per Lane B poll and per slow-data chunk. */
    public static final int CHUNK_ROWS = ManagedFakeSplitReader.CHUNK_ROWS;

    /** The checkpointed position of one split: the next sequence number to emit. */
    static final class Cursor {
        final int splitNumber;
        long next;

        Cursor(ManagedFakeSplit split) {
            this.splitNumber = split.splitNumber();
            this.next = split.offset();
        }
    }

    private final ManagedFakeConfig config;
    private final ManagedFakeHooks hooks;

    public ManagedFakeReader(
            SourceReader.Context context, ManagedFakeConfig config, ManagedFakeHooks hooks) {
        this(
                context,
                config,
                hooks,
                ManagedFakeSplitReader.SystemPacer::new,
                new Random(System.nanoTime() ^ (31L * context.getIndexOfSubtask())));
    }

    /** With the split reader's time and jitter injected (tests). */
    ManagedFakeReader(
            SourceReader.Context context,
            ManagedFakeConfig config,
            ManagedFakeHooks hooks,
            Supplier<ManagedFakeSplitReader.Pacer> pacers,
            Random random) {
        super(
                context,
                config.readerConfig(),
                () -> new ManagedFakeSplitReader(config, pacers.get(), random),
                new Emitter(hooks, context.getIndexOfSubtask()));
        this.config = config;
        this.hooks = hooks;
    }

    /** Bounded splits and discovered ones end after rows.per.split rows; others never do. */
    @Override
    protected boolean everySplitEnds() {
        return config.splitsEnd();
    }

    @Override
    protected Cursor initialState(ManagedFakeSplit split) {
        return new Cursor(split);
    }

    @Override
    protected ManagedFakeSplit toSplit(String splitId, Cursor cursor) {
        return new ManagedFakeSplit(cursor.splitNumber, cursor.next);
    }

    @Override
    public java.util.List<ManagedFakeSplit> snapshotState(long checkpointId) {
        hooks.readerSnapshot(checkpointId);
        return super.snapshotState(checkpointId);
    }

    @Override
    public void handleSourceEvent(SourceEvent event) {
        hooks.sourceEventReceived(context.getIndexOfSubtask(), event);
    }

    /** Lane B: with slow data, wait for the next chunk inside the checkpoint lock (see above). */
    @Override
    public void pollNext(Collector<SeaTunnelRow> output) throws Exception {
        if (config.slowDataMillis() <= 0) {
            super.pollNext(output);
            return;
        }
        synchronized (output.getCheckpointLock()) {
            try {
                // Jitter is at most 1.5x; the bound keeps a stalled fetch from holding forever.
                isAvailable().get(2 * config.slowDataMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // No chunk yet: the base's own poll decides what to do.
            }
            super.pollNext(output);
        }
    }

    /** Emits a row, moves its split's position past it and reports it to the hooks. */
    private static final class Emitter
            implements ManagedRecordEmitter<ManagedFakeSplitReader.Row, SeaTunnelRow, Cursor> {
        private final ManagedFakeHooks hooks;
        private final int subtask;
        private long rowsEmitted;

        Emitter(ManagedFakeHooks hooks, int subtask) {
            this.hooks = hooks;
            this.subtask = subtask;
        }

        @Override
        public void emitRecord(
                ManagedFakeSplitReader.Row row, Collector<SeaTunnelRow> output, Cursor cursor) {
            hooks.beforeRow(subtask, rowsEmitted);
            output.collect(row.row);
            cursor.next = row.seq + 1;
            rowsEmitted++;
            if (row.dueNanos != Long.MIN_VALUE) {
                hooks.rowEmitted(row.dueNanos);
            }
        }
    }
}
