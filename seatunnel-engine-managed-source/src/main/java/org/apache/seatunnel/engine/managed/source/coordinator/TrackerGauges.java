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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.time.Clock;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Gauge;

/**
 * Publishes what the assignment tracker holds as coordinator gauges: assignments in flight, splits
 * tracked (in flight and waiting), their estimated bytes, and when the oldest assignment not yet
 * proven by a completed checkpoint was dispatched (exported as its age). At most every {@link
 * #PERIOD_MILLIS}: the loop calls it after every command, and the oldest assignment takes a look at
 * each reader's first.
 *
 * <p>Threading: owned by the coordinator loop; the values it sets are atomics any thread reads.
 */
final class TrackerGauges {
    static final long PERIOD_MILLIS = 200;

    private final CoordinatorMetrics metrics;
    private final Clock clock;
    private boolean published;
    private long lastMillis;

    TrackerGauges(CoordinatorMetrics metrics, Clock clock) {
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Publishes the tracker's figures if the period passed since the last time. */
    void maybePublish(SourceAssignmentTracker tracker) {
        long now = clock.millis();
        if (published && now - lastMillis < PERIOD_MILLIS) {
            return;
        }
        published = true;
        lastMillis = now;
        publish(tracker);
    }

    /** Publishes the tracker's figures now. */
    void publish(SourceAssignmentTracker tracker) {
        metrics.set(Gauge.TRACKER_ASSIGNMENTS, tracker.inFlightCount());
        metrics.set(Gauge.TRACKER_SPLITS, tracker.size());
        metrics.set(Gauge.TRACKER_BYTES, tracker.estimatedBytes());
        metrics.set(Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS, tracker.oldestDispatchMillis());
    }
}
