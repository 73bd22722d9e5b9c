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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accounts for the engine's synchronous snapshot demands on one coordinator: every wait is added to
 * the loop's metrics, and a wait longer than {@code coordinator.snapshot-slow-threshold} (or one
 * that timed out) is counted and logged at WARN at most once per {@link #WARN_INTERVAL_NANOS},
 * naming only ids and durations.
 *
 * <p>Threading: any thread. Zeta serializes a coordinator's snapshot demands, but nothing here
 * relies on it: the counters are atomic and the rate limit is a compare-and-set.
 */
final class SnapshotWaitReport {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotWaitReport.class);
    static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final CoordinatorConfig config;
    private final CoordinatorMetrics metrics;
    private final long slowNanos;
    // When the next WARN may be logged (System.nanoTime()); the first slow wait always logs.
    private final AtomicLong nextWarnNanos;
    private final AtomicLong suppressed = new AtomicLong();

    SnapshotWaitReport(CoordinatorConfig config, CoordinatorMetrics metrics, long nowNanos) {
        this.config = config;
        this.metrics = metrics;
        this.slowNanos = config.snapshotSlowThreshold().toNanos();
        this.nextWarnNanos = new AtomicLong(nowNanos);
    }

    /** A snapshot demand got its blob (or its failure) after {@code waitedNanos}. */
    void answered(long checkpointId, long waitedNanos, long nowNanos) {
        metrics.add(Counter.SNAPSHOT_WAIT_NANOS, waitedNanos);
        if (waitedNanos < slowNanos) {
            return;
        }
        metrics.increment(Counter.SNAPSHOT_SLOW_WAITS);
        if (mayWarn(nowNanos)) {
            LOG.warn(
                    "Lane A coordinator (job {}, source runtime {}, epoch {}): the engine's"
                            + " snapshot of checkpoint {} waited {} ms for the coordinator loop,"
                            + " above coordinator.snapshot-slow-threshold ({} ms); {} slow waits"
                            + " not logged since the last warning",
                    config.jobId(),
                    config.sourceRuntimeId(),
                    config.epoch(),
                    checkpointId,
                    TimeUnit.NANOSECONDS.toMillis(waitedNanos),
                    TimeUnit.NANOSECONDS.toMillis(slowNanos),
                    suppressed.getAndSet(0));
        }
    }

    /** A snapshot demand gave up after {@code coordinator.snapshot-timeout}. */
    void timedOut(long checkpointId, long waitedNanos, long nowNanos) {
        metrics.add(Counter.SNAPSHOT_WAIT_NANOS, waitedNanos);
        metrics.increment(Counter.SNAPSHOT_TIMEOUTS);
        if (mayWarn(nowNanos)) {
            LOG.warn(
                    "Lane A coordinator (job {}, source runtime {}, epoch {}): the engine's"
                            + " snapshot of checkpoint {} gave up after coordinator.snapshot-timeout"
                            + " ({} ms); the engine fails this checkpoint; {} slow waits not logged"
                            + " since the last warning",
                    config.jobId(),
                    config.sourceRuntimeId(),
                    config.epoch(),
                    checkpointId,
                    TimeUnit.NANOSECONDS.toMillis(waitedNanos),
                    suppressed.getAndSet(0));
        }
    }

    /** Rate limit: true at most once per {@link #WARN_INTERVAL_NANOS}; else counts the miss. */
    boolean mayWarn(long nowNanos) {
        long next = nextWarnNanos.get();
        if (nowNanos - next >= 0
                && nextWarnNanos.compareAndSet(next, nowNanos + WARN_INTERVAL_NANOS)) {
            return true;
        }
        suppressed.incrementAndGet();
        return false;
    }

    /** Slow waits not logged since the last warning (tests). */
    long suppressedSinceLastWarning() {
        return suppressed.get();
    }
}
