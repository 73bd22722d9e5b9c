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
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import javax.annotation.concurrent.GuardedBy;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.seatunnel.iceberg.IcebergTableLoader;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergScanContext;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergScanSplitPlanner;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergStreamScanStrategy;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.split.IcebergFileScanTaskSplit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocking work of snapshot discovery: load the table's current metadata, resolve the start
 * mode once, and plan the files after the cursor with the stock planner ({@link
 * IcebergScanSplitPlanner}, so projection, filter, case sensitivity and split sizes are the stock
 * source's), handing out at most the budget per call. The tasks of a range are sorted by file and
 * start, so a restored cursor's "n handed out" names the same tasks again.
 *
 * <p>Start modes, as the stock source: a {@code BATCH} job reads one range, the table at {@code
 * use_snapshot_id} / {@code use_snapshot_timestamp} / the current snapshot, or the appends between
 * {@code start_snapshot_id} (exclusive) and {@code end_snapshot_id} (or the current snapshot) when
 * either is set. A {@code STREAMING} job follows {@code stream_scan_strategy}: {@code
 * FROM_LATEST_SNAPSHOT} (default) reads the current snapshot's appends and all later ones, {@code
 * FROM_EARLIEST_SNAPSHOT} every append kept, {@code FROM_SNAPSHOT_ID} and {@code
 * FROM_SNAPSHOT_TIMESTAMP} the appends from that snapshot (inclusive; the first snapshot at or
 * after the timestamp), {@code TABLE_SCAN_THEN_INCREMENTAL} the table at the current snapshot and
 * then the appends after it.
 *
 * <p>A snapshot the cursor points at that no longer exists (expired while the job was behind) or is
 * no longer an ancestor of the current one (a rollback) fails the discovery with an {@link
 * IllegalStateException} that says so: the appends in between cannot be read incrementally any
 * more, and nothing is skipped silently.
 *
 * <p>Threading: {@link #discover} runs on the coordinator scheduler's worker pool, one call at a
 * time (the enumerator never overlaps discoveries) but not always on the same thread; the table
 * loader and the planned range it caches are guarded by this object's monitor so each call sees the
 * previous one's. {@link #close} from the enumerator, any thread; it never waits for a discovery.
 */
final class IcebergSnapshotDiscovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IcebergSnapshotDiscovery.class);

    private static final Comparator<FileScanTask> TASK_ORDER =
            Comparator.comparing((FileScanTask t) -> t.file().path().toString())
                    .thenComparingLong(FileScanTask::start);

    private final SourceConfig config;
    private final CatalogTable catalogTable;
    private final IcebergScanContext scanContext;
    private final boolean bounded;

    @GuardedBy("this")
    private IcebergTableLoader loader;

    @GuardedBy("this")
    private Table table;

    // the last range planned, reused while its chunks are handed out
    @GuardedBy("this")
    private String plannedKey;

    @GuardedBy("this")
    private List<FileScanTask> planned = Collections.emptyList();

    private final Object lifecycle = new Object();

    @GuardedBy("lifecycle")
    private boolean closed;

    @GuardedBy("lifecycle")
    private boolean running;

    IcebergSnapshotDiscovery(
            SourceConfig config,
            CatalogTable catalogTable,
            IcebergScanContext scanContext,
            boolean bounded) {
        this.config = config;
        this.catalogTable = catalogTable;
        this.scanContext = scanContext;
        this.bounded = bounded;
    }

    /** At most {@code budget} (at least one) splits after {@code cursor}, and the next cursor. */
    DiscoveryResult<IcebergSplit, IcebergCursor> discover(IcebergCursor cursor, int budget) {
        synchronized (lifecycle) {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            running = true;
        }
        try {
            synchronized (this) {
                return discoverNow(cursor, budget);
            }
        } finally {
            boolean release;
            synchronized (lifecycle) {
                running = false;
                release = closed;
            }
            if (release) {
                release();
            }
        }
    }

    @GuardedBy("this")
    private DiscoveryResult<IcebergSplit, IcebergCursor> discoverNow(
            IcebergCursor cursor, int budget) {
        Table t = refreshedTable();
        IcebergCursor c = cursor.started() ? cursor : start(t);
        if (c.range() == null) {
            if (bounded) {
                return DiscoveryResult.last(Collections.<IcebergSplit>emptyList(), c);
            }
            Snapshot current = t.currentSnapshot();
            if (current == null || (c.position() != null && c.position() == current.snapshotId())) {
                return DiscoveryResult.more(Collections.<IcebergSplit>emptyList(), c);
            }
            c = c.withRange(IcebergCursor.Range.appends(c.position(), current.snapshotId()));
        }
        IcebergCursor.Range r = c.range();
        List<FileScanTask> tasks = plan(t, r);
        long from = Math.min(r.handedOut, tasks.size());
        long to = Math.min(tasks.size(), from + Math.max(1, budget));
        List<IcebergSplit> splits = new ArrayList<>((int) (to - from));
        for (long i = from; i < to; i++) {
            splits.add(new IcebergSplit(tasks.get((int) i), 0));
        }
        IcebergCursor next = to >= tasks.size() ? c.rangeDone() : c.withRange(r.handedOut(to));
        if (to >= tasks.size()) {
            forgetPlanned();
        }
        if (bounded && next.range() == null) {
            return DiscoveryResult.last(splits, next);
        }
        return DiscoveryResult.more(splits, next);
    }

    /** The cursor of the configured start mode, resolved against the table now. */
    private IcebergCursor start(Table t) {
        Snapshot current = t.currentSnapshot();
        if (bounded) {
            if (config.getStartSnapshotId() != null || config.getEndSnapshotId() != null) {
                Long end =
                        config.getEndSnapshotId() != null
                                ? config.getEndSnapshotId()
                                : current == null ? null : current.snapshotId();
                if (end == null) {
                    return IcebergCursor.at(null);
                }
                requireSnapshot(t, end, "end_snapshot_id");
                if (config.getStartSnapshotId() != null) {
                    requireSnapshot(t, config.getStartSnapshotId(), "start_snapshot_id");
                }
                return IcebergCursor.at(config.getStartSnapshotId())
                        .withRange(IcebergCursor.Range.appends(config.getStartSnapshotId(), end));
            }
            Long at;
            if (config.getUseSnapshotId() != null) {
                at = requireSnapshot(t, config.getUseSnapshotId(), "use_snapshot_id").snapshotId();
            } else if (config.getUseSnapshotTimestamp() != null) {
                at = SnapshotUtil.snapshotIdAsOfTime(t, config.getUseSnapshotTimestamp());
            } else {
                at = current == null ? null : current.snapshotId();
            }
            return at == null
                    ? IcebergCursor.at(null)
                    : IcebergCursor.at(null).withRange(IcebergCursor.Range.tableScan(at));
        }
        IcebergStreamScanStrategy strategy = config.getStreamScanStrategy();
        IcebergCursor c;
        switch (strategy) {
            case TABLE_SCAN_THEN_INCREMENTAL:
                // Planned through nothing until the scan is out; then through its snapshot.
                c =
                        current == null
                                ? IcebergCursor.at(null)
                                : IcebergCursor.at(null)
                                        .withRange(
                                                IcebergCursor.Range.tableScan(
                                                        current.snapshotId()));
                break;
            case FROM_LATEST_SNAPSHOT:
                c = IcebergCursor.at(current == null ? null : keptParent(t, current));
                break;
            case FROM_EARLIEST_SNAPSHOT:
                c = IcebergCursor.at(null);
                break;
            case FROM_SNAPSHOT_ID:
                c =
                        IcebergCursor.at(
                                keptParent(
                                        t,
                                        requireSnapshot(
                                                t,
                                                config.getStartSnapshotId(),
                                                "start_snapshot_id")));
                break;
            case FROM_SNAPSHOT_TIMESTAMP:
                c = IcebergCursor.at(beforeTimestamp(t, config.getStartSnapshotTimestamp()));
                break;
            default:
                throw new IllegalArgumentException("unsupported stream_scan_strategy " + strategy);
        }
        LOG.info("Iceberg table {}: {} resolves to {}", t.name(), strategy, c);
        return c;
    }

    /** The parent of {@code s} if the table still has it, else null (read from the oldest kept). */
    private static Long keptParent(Table t, Snapshot s) {
        Long parent = s.parentId();
        return parent != null && t.snapshot(parent) != null ? parent : null;
    }

    /**
     * The newest ancestor of the current snapshot committed before {@code timestampMs}: the appends
     * after it are those at or after the timestamp. Null when every kept ancestor is at or after
     * it.
     */
    private static Long beforeTimestamp(Table t, long timestampMs) {
        for (Snapshot s : SnapshotUtil.currentAncestors(t)) {
            if (s.timestampMillis() < timestampMs) {
                return s.snapshotId();
            }
        }
        return null;
    }

    private static Snapshot requireSnapshot(Table t, Long id, String option) {
        Snapshot s = id == null ? null : t.snapshot(id);
        if (s == null) {
            throw new IllegalArgumentException(
                    "Iceberg table "
                            + t.name()
                            + " has no snapshot "
                            + id
                            + " (option '"
                            + option
                            + "')");
        }
        return s;
    }

    /** The sorted tasks of {@code r}, planned once per range while its chunks go out. */
    private List<FileScanTask> plan(Table t, IcebergCursor.Range r) {
        String key = r.planKey();
        if (key.equals(plannedKey)) {
            return planned;
        }
        IcebergScanContext ctx;
        if (r.kind == IcebergCursor.Range.Kind.TABLE_SCAN) {
            ctx =
                    scanContext.toBuilder()
                            .streaming(false)
                            .startSnapshotId(null)
                            .endSnapshotId(null)
                            .useSnapshotTimestamp(null)
                            .useSnapshotId(r.to)
                            .build();
        } else {
            checkReadable(t, r.from, r.to);
            ctx = scanContext.copyWithAppendsBetween(r.from, r.to);
        }
        List<IcebergFileScanTaskSplit> stock = IcebergScanSplitPlanner.planSplits(t, ctx);
        List<FileScanTask> tasks = new ArrayList<>(stock.size());
        for (IcebergFileScanTaskSplit s : stock) {
            tasks.add(s.getTask());
        }
        tasks.sort(TASK_ORDER);
        plannedKey = key;
        planned = tasks;
        LOG.info(
                "Iceberg table {}: {} planned into {} file scan tasks",
                t.name(),
                key,
                tasks.size());
        return tasks;
    }

    /** The appends after {@code from} up to {@code to} can still be read incrementally. */
    private static void checkReadable(Table t, Long from, long to) {
        if (t.snapshot(to) == null) {
            throw new IllegalStateException(
                    "Iceberg snapshot "
                            + to
                            + " of table "
                            + t.name()
                            + " no longer exists (expired before its files were handed out)");
        }
        if (from == null) {
            return;
        }
        if (t.snapshot(from) == null) {
            throw new IllegalStateException(
                    "Iceberg snapshot "
                            + from
                            + " of table "
                            + t.name()
                            + ", which this job has read up to, no longer exists (expired while the"
                            + " job was behind): the appends after it cannot be read incrementally;"
                            + " restart the job with a start mode (see docs/en/iceberg.md)");
        }
        if (!SnapshotUtil.isAncestorOf(t, to, from)) {
            throw new IllegalStateException(
                    "Iceberg snapshot "
                            + from
                            + " of table "
                            + t.name()
                            + ", which this job has read up to, is not an ancestor of snapshot "
                            + to
                            + " (the table was rolled back or replaced)");
        }
    }

    private void forgetPlanned() {
        plannedKey = null;
        planned = Collections.emptyList();
    }

    @GuardedBy("this")
    private Table refreshedTable() {
        if (table != null) {
            table.refresh();
            return table;
        }
        // The stock catalog loader sets the calling thread's context class loader; this thread is
        // the scheduler's shared worker, so it gets its own back.
        Thread thread = Thread.currentThread();
        ClassLoader own = thread.getContextClassLoader();
        try {
            if (loader == null) {
                loader = IcebergTableLoader.create(config, catalogTable).open();
            }
            table = loader.loadTable();
        } finally {
            thread.setContextClassLoader(own);
        }
        return table;
    }

    /**
     * Stops discovering. Never waits for a running discovery (the enumerator calls it on the
     * coordinator loop): the catalog is closed now, or by that discovery when it ends.
     */
    @Override
    public void close() {
        boolean release;
        synchronized (lifecycle) {
            closed = true;
            release = !running;
        }
        if (release) {
            release();
        }
    }

    private synchronized void release() {
        forgetPlanned();
        table = null;
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException e) {
                LOG.warn("Closing the Iceberg catalog failed", e);
            } finally {
                loader = null;
            }
        }
    }
}
