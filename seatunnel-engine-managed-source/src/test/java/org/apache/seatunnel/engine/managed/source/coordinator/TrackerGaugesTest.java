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

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Gauge;
import org.junit.jupiter.api.Test;

/** The tracker's gauges: what they show, and how often they are published. */
class TrackerGaugesTest {

    /** A clock the test steps. */
    private static final class SteppedClock extends Clock {
        final AtomicLong millis = new AtomicLong(1_000_000);

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }

    @Test
    void gaugesShowTheTrackerAtMostEveryPeriod() {
        CoordinatorMetrics metrics = new CoordinatorMetrics();
        SteppedClock clock = new SteppedClock();
        TrackerGauges gauges = new TrackerGauges(metrics, clock);
        SourceAssignmentTracker t = new SourceAssignmentTracker(10, 1 << 20, true, metrics);
        gauges.maybePublish(t);
        assertEquals(0, metrics.get(Gauge.TRACKER_SPLITS));
        assertEquals(-1, metrics.get(Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS));

        t.addPending("a", new byte[] {1}, 0);
        t.addPending("b", new byte[] {2}, 0);
        t.dispatched(0, 1, 1, 1, 1, 1, 0, 500);
        gauges.maybePublish(t);
        assertEquals(0, metrics.get(Gauge.TRACKER_SPLITS), "within the period: not again");
        clock.millis.addAndGet(TrackerGauges.PERIOD_MILLIS);
        gauges.maybePublish(t);
        assertEquals(1, metrics.get(Gauge.TRACKER_ASSIGNMENTS));
        assertEquals(2, metrics.get(Gauge.TRACKER_SPLITS), "one in flight, one waiting");
        assertEquals(t.estimatedBytes(), metrics.get(Gauge.TRACKER_BYTES));
        assertEquals(500, metrics.get(Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS));
    }
}
