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

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergScanContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot discovery against real Hadoop-catalog tables: chunks within the budget, a cursor that
 * resumes at the exact task after a restore, the start modes, empty snapshots, and the outcome of a
 * snapshot expired while the job was behind.
 */
class IcebergSnapshotDiscoveryTest {
    @TempDir Path warehouse;
    private final List<IcebergSnapshotDiscovery> opened = new ArrayList<>();

    @AfterEach
    void close() {
        for (IcebergSnapshotDiscovery d : opened) {
            d.close();
        }
    }

    private IcebergSnapshotDiscovery discovery(
            IcebergTestTable t, boolean bounded, Map<String, Object> extra) {
        Map<String, Object> o = t.options();
        o.putAll(extra);
        SourceConfig config = new SourceConfig(ReadonlyConfig.fromMap(o));
        IcebergScanContext scan =
                bounded
                        ? IcebergScanContext.scanContext(config, IcebergTestTable.SCHEMA)
                        : IcebergScanContext.streamScanContext(config, IcebergTestTable.SCHEMA);
        IcebergSnapshotDiscovery d = new IcebergSnapshotDiscovery(config, null, scan, bounded);
        opened.add(d);
        return d;
    }

    private static Map<String, Object> strategy(String s) {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put("stream_scan_strategy", s);
        return m;
    }

    /** Runs discoveries from {@code cursor} until nothing new comes; every split id once. */
    private static IcebergCursor drain(
            IcebergSnapshotDiscovery d, IcebergCursor cursor, int budget, Set<String> ids) {
        for (int i = 0; i < 1000; i++) {
            DiscoveryResult<IcebergSplit, IcebergCursor> r = d.discover(cursor, budget);
            assertTrue(r.splits().size() <= budget, "over the budget: " + r.splits().size());
            for (IcebergSplit s : r.splits()) {
                assertTrue(ids.add(s.splitId()), "handed out twice: " + s.splitId());
            }
            cursor = r.cursor();
            if (r.finished() || (r.splits().isEmpty() && cursor.range() == null)) {
                return cursor;
            }
        }
        throw new AssertionError("discovery did not settle");
    }

    @Test
    void aBatchScanOfManyFilesIsHandedOutInChunksWithinTheBudget() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "chunks")) {
            t.append(25, 2);
            t.append(5, 2);
            IcebergSnapshotDiscovery d = discovery(t, true, new java.util.HashMap<>());
            DiscoveryResult<IcebergSplit, IcebergCursor> first =
                    d.discover(IcebergCursor.INITIAL, 10);
            assertEquals(10, first.splits().size());
            assertFalse(first.finished());
            assertEquals(10, first.cursor().range().handedOut);
            Set<String> ids = new HashSet<>();
            for (IcebergSplit s : first.splits()) {
                ids.add(s.splitId());
            }
            IcebergCursor end = drain(d, first.cursor(), 10, ids);
            assertEquals(30, ids.size());
            assertNull(end.range());
        }
    }

    @Test
    void aRestoredCursorResumesAtTheExactTaskWithAFreshPlanner() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "resume")) {
            t.append(12, 1);
            IcebergSnapshotDiscovery a = discovery(t, false, strategy("FROM_EARLIEST_SNAPSHOT"));
            DiscoveryResult<IcebergSplit, IcebergCursor> first =
                    a.discover(IcebergCursor.INITIAL, 5);
            Set<String> seen = new HashSet<>();
            for (IcebergSplit s : first.splits()) {
                seen.add(s.splitId());
            }
            // The cursor goes through its serializer, as a checkpoint does.
            IcebergCursor.Serializer ser = new IcebergCursor.Serializer();
            IcebergCursor restored = ser.deserialize(ser.serialize(first.cursor()));
            assertEquals(first.cursor(), restored);
            IcebergSnapshotDiscovery b = discovery(t, false, strategy("FROM_EARLIEST_SNAPSHOT"));
            Set<String> rest = new HashSet<>();
            drain(b, restored, 5, rest);
            assertEquals(7, rest.size());
            for (String id : rest) {
                assertFalse(seen.contains(id), "re-planned " + id);
            }
        }
    }

    @Test
    void streamingFollowsAppendsAndAnEmptySnapshotOnlyMovesTheCursor() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "follow")) {
            long s0 = t.append(2, 3);
            IcebergSnapshotDiscovery d = discovery(t, false, strategy("FROM_LATEST_SNAPSHOT"));
            Set<String> ids = new HashSet<>();
            IcebergCursor c = drain(d, IcebergCursor.INITIAL, 100, ids);
            assertEquals(2, ids.size(), "the current snapshot's files are read (inclusive)");
            assertEquals(s0, c.position());
            long empty = t.appendEmpty();
            DiscoveryResult<IcebergSplit, IcebergCursor> r = d.discover(c, 100);
            assertTrue(r.splits().isEmpty());
            c = drain(d, c, 100, ids);
            assertEquals(empty, c.position());
            t.append(3, 1);
            t.append(1, 1);
            c = drain(d, c, 100, ids);
            assertEquals(6, ids.size());
            assertEquals(t.table().currentSnapshot().snapshotId(), c.position());
        }
    }

    @Test
    void startModesPickTheirFirstSnapshot() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "modes")) {
            long s1 = t.append(1, 1);
            long s2 = t.append(2, 1);
            // The timestamp start mode needs the third snapshot in a later millisecond.
            long s2Time = t.table().snapshot(s2).timestampMillis();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > s2Time);
            long s3 = t.append(4, 1);
            assertEquals(7, count(discovery(t, false, strategy("FROM_EARLIEST_SNAPSHOT"))));
            assertEquals(4, count(discovery(t, false, strategy("FROM_LATEST_SNAPSHOT"))));
            assertEquals(7, count(discovery(t, false, strategy("TABLE_SCAN_THEN_INCREMENTAL"))));
            Map<String, Object> byId = strategy("FROM_SNAPSHOT_ID");
            byId.put("start_snapshot_id", s2);
            assertEquals(6, count(discovery(t, false, byId)));
            Snapshot third = t.table().snapshot(s3);
            Map<String, Object> byTime = strategy("FROM_SNAPSHOT_TIMESTAMP");
            byTime.put("start_snapshot_timestamp", third.timestampMillis());
            assertEquals(4, count(discovery(t, false, byTime)));
            // Bounded: the table now, a snapshot of the past, the appends between two snapshots.
            assertEquals(7, count(discovery(t, true, new java.util.HashMap<>())));
            Map<String, Object> asOf = new java.util.HashMap<>();
            asOf.put("use_snapshot_id", s2);
            assertEquals(3, count(discovery(t, true, asOf)));
            Map<String, Object> between = new java.util.HashMap<>();
            between.put("start_snapshot_id", s1);
            between.put("end_snapshot_id", s2);
            assertEquals(2, count(discovery(t, true, between)));
        }
    }

    private static int count(IcebergSnapshotDiscovery d) {
        Set<String> ids = new HashSet<>();
        drain(d, IcebergCursor.INITIAL, 3, ids);
        return ids.size();
    }

    @Test
    void aSnapshotExpiredWhileBehindFailsTheDiscoveryNamingIt() throws Exception {
        try (IcebergTestTable t = IcebergTestTable.create(warehouse, "expired")) {
            t.append(1, 1);
            IcebergSnapshotDiscovery d = discovery(t, false, strategy("FROM_EARLIEST_SNAPSHOT"));
            IcebergCursor c = drain(d, IcebergCursor.INITIAL, 10, new HashSet<>());
            long readUpTo = c.position();
            t.append(1, 1);
            t.append(1, 1);
            long now = t.table().currentSnapshot().snapshotId();
            t.table().expireSnapshots().expireSnapshotId(readUpTo).commit();
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> d.discover(c, 10));
            assertTrue(e.getMessage().contains(Long.toString(readUpTo)), e.getMessage());
            assertTrue(e.getMessage().contains("no longer exists"), e.getMessage());
            assertTrue(now != readUpTo);
        }
    }
}
