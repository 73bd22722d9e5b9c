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

import java.util.ArrayDeque;
import java.util.List;
import org.apache.seatunnel.connectors.managed.reader.FetchedRecords;
import org.apache.seatunnel.connectors.managed.reader.ManagedSplitReader;

/**
 * Reads its splits one after the other, up to 256 numbers per fetch. Runs on the base's fetch
 * thread; its position is its own and never checkpointed (the reader's split state is).
 */
final class RangeSplitReader implements ManagedSplitReader<Long, RangeSplit> {
    private final ArrayDeque<RangeSplit> splits = new ArrayDeque<>();
    private long next = -1;

    @Override
    public void handleSplitsAdded(List<RangeSplit> added) {
        splits.addAll(added);
    }

    @Override
    public FetchedRecords<Long> fetch() {
        RangeSplit split = splits.peekFirst();
        if (split == null) {
            return FetchedRecords.empty();
        }
        if (next < 0) {
            next = split.next;
        }
        FetchedRecords.Builder<Long> batch = FetchedRecords.builder();
        for (int i = 0; i < 256 && next < split.end; i++) {
            batch.add(split.splitId(), next++, 8);
        }
        if (next >= split.end) {
            batch.finish(split.splitId());
            splits.pollFirst();
            next = -1;
        }
        return batch.build();
    }

    @Override
    public void wakeUp() {
        // fetch() never blocks: nothing to wake.
    }

    @Override
    public void close() {}
}
