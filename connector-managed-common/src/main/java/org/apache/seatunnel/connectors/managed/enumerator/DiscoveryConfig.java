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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.io.Serializable;
import java.time.Duration;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.managed.reader.SourceOptionRange;

/**
 * The validated values of {@link DiscoveryOptions} for one {@link DiscoveringSplitEnumerator}.
 * Immutable.
 */
public final class DiscoveryConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /** {@link #intervalMillis()} of a source that discovers when a reader asks. */
    public static final long ON_DEMAND = 0;

    /** {@link #intervalMillis()} of a source that discovers only at start. */
    public static final long AT_START_ONLY = -1;

    private final long intervalMillis;
    private final long timeoutMillis;
    private final int maxPendingSplits;
    private final int maxConsecutiveFailures;

    private DiscoveryConfig(Builder b) {
        this.intervalMillis = b.intervalMillis;
        this.timeoutMillis = b.timeoutMillis;
        this.maxPendingSplits = b.maxPendingSplits;
        this.maxConsecutiveFailures = b.maxConsecutiveFailures;
    }

    public static DiscoveryConfig defaults() {
        return builder().build();
    }

    /** The values of a job's source options, each checked against its range. */
    public static DiscoveryConfig from(ReadonlyConfig options) {
        return builder()
                .interval(options.get(DiscoveryOptions.INTERVAL_MS))
                .timeout(Duration.ofMillis(options.get(DiscoveryOptions.TIMEOUT_MS)))
                .maxPendingSplits(options.get(DiscoveryOptions.MAX_PENDING_SPLITS))
                .maxConsecutiveFailures(options.get(DiscoveryOptions.MAX_CONSECUTIVE_FAILURES))
                .build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Greater than 0: periodic; {@link #ON_DEMAND}; or {@link #AT_START_ONLY}. */
    public long intervalMillis() {
        return intervalMillis;
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }

    public int maxPendingSplits() {
        return maxPendingSplits;
    }

    public int maxConsecutiveFailures() {
        return maxConsecutiveFailures;
    }

    @Override
    public String toString() {
        return "DiscoveryConfig{interval="
                + intervalMillis
                + " ms, timeout="
                + timeoutMillis
                + " ms, maxPendingSplits="
                + maxPendingSplits
                + ", maxConsecutiveFailures="
                + maxConsecutiveFailures
                + '}';
    }

    /** Starts from the options' defaults; every setter checks the option's range. */
    public static final class Builder {
        private long intervalMillis = DiscoveryOptions.INTERVAL_MS.defaultValue();
        private long timeoutMillis = DiscoveryOptions.TIMEOUT_MS.defaultValue();
        private int maxPendingSplits = DiscoveryOptions.MAX_PENDING_SPLITS.defaultValue();
        private int maxConsecutiveFailures =
                DiscoveryOptions.MAX_CONSECUTIVE_FAILURES.defaultValue();

        private Builder() {}

        /** Milliseconds: greater than 0, {@link #ON_DEMAND} or {@link #AT_START_ONLY}. */
        public Builder interval(long millis) {
            this.intervalMillis =
                    SourceOptionRange.check(
                            DiscoveryOptions.INTERVAL_MS,
                            millis,
                            -1,
                            Duration.ofDays(1).toMillis());
            return this;
        }

        public Builder interval(Duration interval) {
            return interval(interval.toMillis());
        }

        public Builder timeout(Duration timeout) {
            this.timeoutMillis =
                    SourceOptionRange.check(
                            DiscoveryOptions.TIMEOUT_MS,
                            timeout.toMillis(),
                            1,
                            Duration.ofHours(1).toMillis());
            return this;
        }

        public Builder maxPendingSplits(int n) {
            this.maxPendingSplits =
                    (int)
                            SourceOptionRange.check(
                                    DiscoveryOptions.MAX_PENDING_SPLITS, n, 1, 100_000_000);
            return this;
        }

        public Builder maxConsecutiveFailures(int n) {
            this.maxConsecutiveFailures =
                    (int)
                            SourceOptionRange.check(
                                    DiscoveryOptions.MAX_CONSECUTIVE_FAILURES, n, 1, 1_000_000);
            return this;
        }

        public DiscoveryConfig build() {
            return new DiscoveryConfig(this);
        }
    }
}
