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

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.api.table.event.AlterTableAddColumnEvent;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * The reader of {@link SchemaChangeSource}, the same steps on both lanes: on Lane A in bounded
 * turns ({@link #pollNextManaged}), on Lane B one step per {@code pollNext} under the checkpoint
 * lock. A schema change is marked through the collector, as SeaTunnel 2.3.8's CDC sources do: the
 * turn that marks returns right away.
 *
 * <p>Threading: Lane A — every method on the reader loop's driving thread. Lane B — {@code
 * pollNext} on the task thread, {@code snapshotState} under the checkpoint lock on another engine
 * thread (so the split is only touched under that lock), {@code addSplits}, {@code
 * handleNoMoreSplits} and {@code notifyCheckpointComplete} on operation threads (volatile fields
 * and the lock).
 */
final class SchemaChangeReader
        implements ManagedSourceReader<SeaTunnelRow, SchemaChangeSource.Split> {
    /** Failures injected per run id (test code reads them). */
    static final Map<String, AtomicInteger> INJECTED = new ConcurrentHashMap<>();

    private static final int ROWS_PER_STEP = 16;

    private final SourceReader.Context context;
    private final SchemaChangeSource source;
    private final Object splitLock = new Object();
    // guarded by splitLock on Lane B; loop thread only on Lane A
    private SchemaChangeSource.Split split;
    private volatile boolean noMoreSplits;
    private volatile boolean checkpointSeen;
    private boolean beforeMarked;
    private boolean afterMarked;
    // This attempt emitted the change (or re-emitted it on restore).
    private boolean changeAnnounced;
    private long rowsAfterChange;
    // The checkpoint that took the after-change cut, and whether a later one completed since.
    private long afterCut = Long.MAX_VALUE;
    private volatile boolean laterCheckpointCompleted;
    private boolean endSignalled;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    SchemaChangeReader(SourceReader.Context context, SchemaChangeSource source) {
        this.context = context;
        this.source = source;
    }

    static int injected(String runId) {
        AtomicInteger n = INJECTED.get(runId);
        return n == null ? 0 : n.get();
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return SchemaChangeSource.CAPABILITY;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public PollStatus pollNextManaged(Collector<SeaTunnelRow> output, PollContext context) {
        PollStatus s =
                step(output, Math.max(1, Math.min(ROWS_PER_STEP, context.remainingRecords())));
        if (s == PollStatus.NOTHING_AVAILABLE && available.isDone()) {
            available = new CompletableFuture<>();
        }
        return s;
    }

    @Override
    public void pollNext(Collector<SeaTunnelRow> output) {
        PollStatus s;
        synchronized (output.getCheckpointLock()) {
            synchronized (splitLock) {
                s = step(output, ROWS_PER_STEP);
            }
        }
        if (s == PollStatus.END_OF_INPUT && !endSignalled) {
            endSignalled = true;
            context.signalNoMoreElement();
        }
    }

    /** One step: rows up to the change or the end, or one phase of the change. */
    private PollStatus step(Collector<SeaTunnelRow> out, int maxRows) {
        SchemaChangeSource.Split s = split;
        if (s == null) {
            return noMoreSplits ? PollStatus.END_OF_INPUT : PollStatus.NOTHING_AVAILABLE;
        }
        if (s.version == 1 && s.next == source.changeAt) {
            if (!checkpointSeen) {
                return PollStatus.NOTHING_AVAILABLE;
            }
            if (!beforeMarked) {
                // Everything read so far goes into the checkpoint cut before the change.
                beforeMarked = true;
                out.markSchemaChangeBeforeCheckpoint();
                return PollStatus.MORE_AVAILABLE;
            }
            out.collect(
                    AlterTableAddColumnEvent.add(
                            SchemaChangeSource.TABLE, SchemaChangeSource.EXTRA));
            split = new SchemaChangeSource.Split(s.next, 2);
            afterMarked = true;
            changeAnnounced = true;
            out.markSchemaChangeAfterCheckpoint();
            return PollStatus.MORE_AVAILABLE;
        }
        if (s.version == 2 && !changeAnnounced && source.reemitOnRestore) {
            // Restored after the change: the engine's collector and the sink start from the
            // planned table, so bring them to the schema this split is read with first.
            changeAnnounced = true;
            out.collect(
                    AlterTableAddColumnEvent.add(
                            SchemaChangeSource.TABLE, SchemaChangeSource.EXTRA));
            return PollStatus.MORE_AVAILABLE;
        }
        if ("later-cut".equals(source.failAfterChange)
                && s.version == 2
                && s.next >= source.changeAt + ROWS_PER_STEP
                && !laterCheckpointCompleted
                && injected(source.runId + "/after") == 0) {
            // Hold the rest until a checkpoint after the change completed, to fail the next one.
            return PollStatus.NOTHING_AVAILABLE;
        }
        long limit = s.version == 1 ? source.changeAt : source.rows;
        long next = s.next;
        for (int n = 0; n < maxRows && next < limit; n++, next++) {
            out.collect(SchemaChangeSource.row(next, s.version));
        }
        if (s.version == 2) {
            rowsAfterChange += next - s.next;
        }
        split = new SchemaChangeSource.Split(next, s.version);
        if (next >= source.rows) {
            return noMoreSplits ? PollStatus.END_OF_INPUT : PollStatus.NOTHING_AVAILABLE;
        }
        return PollStatus.MORE_AVAILABLE;
    }

    @Override
    public List<SchemaChangeSource.Split> snapshotState(long checkpointId) throws IOException {
        synchronized (splitLock) {
            if (afterMarked && source.failInChange && injectOnce(source.runId)) {
                throw new IOException(
                        "injected: the reader fails the first checkpoint after its schema change");
            }
            boolean failHere =
                    "later-cut".equals(source.failAfterChange)
                            ? laterCheckpointCompleted
                            : "after-cut".equals(source.failAfterChange) && checkpointId > afterCut;
            if (failHere && injectOnce(source.runId + "/after")) {
                throw new IOException(
                        "injected: the reader fails a checkpoint after its schema change completed");
            }
            if (afterMarked) {
                afterCut = checkpointId;
            }
            afterMarked = false;
            return split == null
                    ? Collections.<SchemaChangeSource.Split>emptyList()
                    : new ArrayList<>(Collections.singletonList(split));
        }
    }

    private static boolean injectOnce(String key) {
        return INJECTED.computeIfAbsent(key, k -> new AtomicInteger()).compareAndSet(0, 1);
    }

    @Override
    public void addSplits(List<SchemaChangeSource.Split> splits) {
        synchronized (splitLock) {
            for (SchemaChangeSource.Split s : splits) {
                split = s;
            }
        }
        available.complete(null);
    }

    @Override
    public void handleNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpointSeen = true;
        if (checkpointId > afterCut) {
            laterCheckpointCompleted = true;
        }
        available.complete(null);
    }

    @Override
    public void handleSourceEvent(SourceEvent sourceEvent) {}

    @Override
    public void wakeup() {}

    @Override
    public void open() {}

    @Override
    public void close() {}
}
