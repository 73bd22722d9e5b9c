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

package org.apache.seatunnel.engine.managed.source.zeta;

import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.source.managed.SnapshotGauges;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.lane.LaneDecision;
import org.apache.seatunnel.engine.managed.source.lane.LaneReason;

/**
 * The lane a Managed source runs on, as a metric of its enumerator task, so that it shows in the
 * job's metrics (the client's {@code getJobMetrics}; REST {@code job-info} shows only the engine's
 * fixed counters) where operators already look: {@value #NAME} is 1 on Lane A and 0 on Lane B, one
 * measurement per source, and {@value #REASON} the {@link LaneReason#code()} of why (-1 when the
 * decision recorded none). The reason's full text stays in the log ({@code planned on
 * LaneDecision{…}}).
 *
 * <p>Threading: stateless; called on the enumerator task's thread as it opens.
 */
final class LaneMetric {
    static final String NAME = "ManagedSourceLaneA";
    static final String REASON = "ManagedSourceLaneReason";

    private LaneMetric() {}

    /** Registers the lane in {@code context}; a null context (some test contexts) gets nothing. */
    static void register(MetricsContext context, LaneDecision decision) {
        if (context == null) {
            return;
        }
        long value = decision.lane() == Lane.A ? 1 : 0;
        LaneReason why = decision.reasonCode();
        long code = why == null ? -1 : why.code();
        SnapshotGauges.register(context, NAME, SnapshotGauges.Kind.LEVEL, () -> value);
        SnapshotGauges.register(context, REASON, SnapshotGauges.Kind.LEVEL, () -> code);
    }
}
