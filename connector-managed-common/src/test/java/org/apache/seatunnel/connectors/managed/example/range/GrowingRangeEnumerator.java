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

import java.util.ArrayList;
import java.util.List;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveringSplitEnumerator;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryResult;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;

/**
 * Discovers ranges as the job runs: {@code initial} at start, then {@code step} more per discovery
 * until {@code max}; the cursor is the number of the next range. No lock: the base serialises
 * everything but {@link #discover}, which uses only its arguments and final fields.
 */
final class GrowingRangeEnumerator extends DiscoveringSplitEnumerator<RangeSplit, Long> {
    private final int initial;
    private final int step;
    private final int max;
    private final long rowsPerSplit;

    GrowingRangeEnumerator(
            SourceSplitEnumerator.Context<RangeSplit> context,
            DiscoveryState<RangeSplit, Long> state,
            DiscoveryConfig config,
            GrowingRangeSource source) {
        super(context, state, config);
        this.initial = source.initial;
        this.step = source.step;
        this.max = source.max;
        this.rowsPerSplit = source.rowsPerSplit;
    }

    @Override
    protected DiscoveryResult<RangeSplit, Long> discover(Long next, int budget) {
        long end = Math.min(max, next + Math.min(next == 0 ? initial : step, budget));
        List<RangeSplit> found = new ArrayList<>();
        for (long n = next; n < end; n++) {
            found.add(new RangeSplit((int) n, 0, rowsPerSplit));
        }
        return end >= max ? DiscoveryResult.last(found, end) : DiscoveryResult.more(found, end);
    }
}
