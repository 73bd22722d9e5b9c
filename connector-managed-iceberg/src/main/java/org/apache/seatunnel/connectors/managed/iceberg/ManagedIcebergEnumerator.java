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

import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveringSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;

/**
 * Assigns Iceberg file scan tasks to readers: discovers new snapshots and plans their appended
 * files on the coordinator scheduler's worker pool ({@link IcebergSnapshotDiscovery}), at most
 * {@code discovery.max-pending-splits} waiting at a time, and hands them to readers as they ask
 * (Lane A: within each reader's split window). The cursor is the last planned snapshot and the
 * position inside the range being handed out ({@link IcebergCursor}); it is checkpointed with the
 * splits not yet assigned, so a restore plans neither a file twice nor one too few.
 *
 * <p>Threading: as {@link DiscoveringSplitEnumerator}, which serialises every callback and result
 * on both lanes; this class has no thread and no lock of its own. {@link #discover} runs on the
 * worker pool and uses only its arguments and the thread-safe discovery.
 *
 * <p>A {@code BATCH} job's enumerator is finished once the configured range is out; a {@code
 * STREAMING} job's discovers every {@code discovery.interval-ms}. The first discovery failing fails
 * the job; a later one is retried at the next interval, and {@code
 * discovery.max-consecutive-failures} in a row fail it (an expired snapshot does, see {@link
 * IcebergSnapshotDiscovery}).
 */
public final class ManagedIcebergEnumerator
        extends DiscoveringSplitEnumerator<IcebergSplit, IcebergCursor> {
    private final IcebergSnapshotDiscovery discovery;

    ManagedIcebergEnumerator(
            SourceSplitEnumerator.Context<IcebergSplit> context,
            IcebergSnapshotDiscovery discovery,
            DiscoveryConfig config,
            DiscoveryState<IcebergSplit, IcebergCursor> restored) {
        super(
                context,
                restored != null ? restored : DiscoveryState.initial(IcebergCursor.INITIAL),
                config);
        this.discovery = discovery;
    }

    @Override
    protected DiscoveryResult<IcebergSplit, IcebergCursor> discover(
            IcebergCursor cursor, int budget) {
        return discovery.discover(cursor, budget);
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            discovery.close();
        }
    }
}
