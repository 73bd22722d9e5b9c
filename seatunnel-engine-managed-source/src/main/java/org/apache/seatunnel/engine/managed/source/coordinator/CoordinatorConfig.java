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

import java.time.Duration;
import java.util.Objects;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * Settings of one coordinator loop, fixed at construction (correctness-critical settings are not
 * hot-reloadable). Immutable; any thread. Defaults are STIP-31's initial production defaults.
 */
public final class CoordinatorConfig {
    public static final int DEFAULT_COMMAND_QUEUE_CAPACITY = 4096;
    public static final int DEFAULT_COMPLETION_QUEUE_CAPACITY = 1 << 16;
    public static final int DEFAULT_DRAIN_BATCH = 1024;
    public static final int DEFAULT_MAX_SPLITS_PER_COMMAND = 64;
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 512 << 10;
    public static final Duration DEFAULT_SNAPSHOT_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_ASYNC_MAX_CONCURRENCY = 4;
    public static final int DEFAULT_ASYNC_QUEUE_CAPACITY = 16;
    public static final Duration DEFAULT_SNAPSHOT_SLOW_THRESHOLD = Duration.ofSeconds(1);

    private final long jobId;
    private final long sourceRuntimeId;
    private final long epoch;
    private final int parallelism;
    private final int commandQueueCapacity;
    private final int completionQueueCapacity;
    private final int drainBatch;
    private final int maxTrackerEntries;
    private final long maxTrackerBytes;
    private final boolean checkpointsEnabled;
    private final Duration snapshotTimeout;
    private final RetryPolicy retryPolicy;
    private final int asyncMaxConcurrency;
    private final int asyncQueueCapacity;
    private final Duration snapshotSlowThreshold;
    private final int maxUnassignedEntries;
    private final long maxUnassignedBytes;
    private final int maxSplitsPerCommand;
    private final int maxPayloadBytes;

    private CoordinatorConfig(Builder b) {
        this.jobId = b.jobId;
        this.sourceRuntimeId = b.sourceRuntimeId;
        this.epoch = b.epoch;
        this.parallelism = b.parallelism;
        this.commandQueueCapacity = b.commandQueueCapacity;
        this.completionQueueCapacity = b.completionQueueCapacity;
        this.drainBatch = b.drainBatch;
        this.maxTrackerEntries = b.maxTrackerEntries;
        this.maxTrackerBytes = b.maxTrackerBytes;
        this.checkpointsEnabled = b.checkpointsEnabled;
        this.maxUnassignedEntries = b.maxUnassignedEntries;
        this.maxUnassignedBytes = b.maxUnassignedBytes;
        this.maxSplitsPerCommand = b.maxSplitsPerCommand;
        this.maxPayloadBytes = b.maxPayloadBytes;
        this.snapshotTimeout = b.snapshotTimeout;
        this.retryPolicy = b.retryPolicy;
        this.asyncMaxConcurrency = b.asyncMaxConcurrency;
        this.asyncQueueCapacity = b.asyncQueueCapacity;
        this.snapshotSlowThreshold = b.snapshotSlowThreshold;
    }

    public static Builder builder() {
        return new Builder();
    }

    public long jobId() {
        return jobId;
    }

    public long sourceRuntimeId() {
        return sourceRuntimeId;
    }

    /** The coordinator epoch: 1 for a fresh start, previous + 1 for every coordinator failover. */
    public long epoch() {
        return epoch;
    }

    public int parallelism() {
        return parallelism;
    }

    public int commandQueueCapacity() {
        return commandQueueCapacity;
    }

    public int completionQueueCapacity() {
        return completionQueueCapacity;
    }

    public int drainBatch() {
        return drainBatch;
    }

    public int maxTrackerEntries() {
        return maxTrackerEntries;
    }

    public long maxTrackerBytes() {
        return maxTrackerBytes;
    }

    public boolean checkpointsEnabled() {
        return checkpointsEnabled;
    }

    /** {@code assignment-tracker.max-unassigned-entries}. */
    public int maxUnassignedEntries() {
        return maxUnassignedEntries;
    }

    /** {@code assignment-tracker.max-unassigned-bytes}. */
    public long maxUnassignedBytes() {
        return maxUnassignedBytes;
    }

    /** {@code coordinator.max-splits-per-command}. */
    public int maxSplitsPerCommand() {
        return maxSplitsPerCommand;
    }

    /** {@code command.max-payload-bytes}: what one assignment command may carry. */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** {@code coordinator.snapshot-timeout}: the longest wait of the engine's snapshot demand. */
    public Duration snapshotTimeout() {
        return snapshotTimeout;
    }

    /** {@code coordinator.snapshot-slow-threshold}: a longer snapshot wait is reported. */
    public Duration snapshotSlowThreshold() {
        return snapshotSlowThreshold;
    }

    /** The {@code retry.*} settings: how assignments and controls are sent again. */
    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** {@code coordinator.async-max-concurrency}: async tasks of this coordinator running. */
    public int asyncMaxConcurrency() {
        return asyncMaxConcurrency;
    }

    /** {@code coordinator.async-queue-capacity}: async tasks of this coordinator waiting. */
    public int asyncQueueCapacity() {
        return asyncQueueCapacity;
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private long jobId;
        private long sourceRuntimeId;
        private long epoch = 1;
        private int parallelism = 1;
        private int commandQueueCapacity = DEFAULT_COMMAND_QUEUE_CAPACITY;
        private int completionQueueCapacity = DEFAULT_COMPLETION_QUEUE_CAPACITY;
        private int drainBatch = DEFAULT_DRAIN_BATCH;
        private int maxTrackerEntries = SourceAssignmentTracker.DEFAULT_MAX_ENTRIES;
        private long maxTrackerBytes = SourceAssignmentTracker.DEFAULT_MAX_BYTES;
        private boolean checkpointsEnabled = true;
        private Duration snapshotTimeout = DEFAULT_SNAPSHOT_TIMEOUT;
        private RetryPolicy retryPolicy = RetryPolicy.defaults();
        private int asyncMaxConcurrency = DEFAULT_ASYNC_MAX_CONCURRENCY;
        private int asyncQueueCapacity = DEFAULT_ASYNC_QUEUE_CAPACITY;
        private Duration snapshotSlowThreshold = DEFAULT_SNAPSHOT_SLOW_THRESHOLD;
        private int maxUnassignedEntries = SourceAssignmentTracker.DEFAULT_MAX_ENTRIES;
        private long maxUnassignedBytes = SourceAssignmentTracker.DEFAULT_MAX_BYTES;
        private int maxSplitsPerCommand = DEFAULT_MAX_SPLITS_PER_COMMAND;
        private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;

        private Builder() {}

        public Builder jobId(long v) {
            this.jobId = v;
            return this;
        }

        public Builder sourceRuntimeId(long v) {
            this.sourceRuntimeId = v;
            return this;
        }

        public Builder epoch(long v) {
            if (v < 1 || v >= (1L << 23)) {
                throw new IllegalArgumentException("epoch must be in [1, 2^23): " + v);
            }
            this.epoch = v;
            return this;
        }

        public Builder parallelism(int v) {
            this.parallelism = positive(v, "parallelism");
            return this;
        }

        public Builder commandQueueCapacity(int v) {
            this.commandQueueCapacity = positive(v, "commandQueueCapacity");
            return this;
        }

        public Builder completionQueueCapacity(int v) {
            this.completionQueueCapacity = positive(v, "completionQueueCapacity");
            return this;
        }

        public Builder drainBatch(int v) {
            this.drainBatch = positive(v, "drainBatch");
            return this;
        }

        public Builder maxTrackerEntries(int v) {
            this.maxTrackerEntries = positive(v, "maxTrackerEntries");
            return this;
        }

        public Builder maxTrackerBytes(long v) {
            if (v <= 0) {
                throw new IllegalArgumentException("maxTrackerBytes must be positive: " + v);
            }
            this.maxTrackerBytes = v;
            return this;
        }

        /** {@code assignment-tracker.max-unassigned-entries} and {@code -bytes}. */
        public Builder maxUnassigned(int entries, long bytes) {
            this.maxUnassignedEntries = positive(entries, "maxUnassignedEntries");
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxUnassignedBytes must be positive: " + bytes);
            }
            this.maxUnassignedBytes = bytes;
            return this;
        }

        /** {@code coordinator.max-splits-per-command}. */
        public Builder maxSplitsPerCommand(int v) {
            this.maxSplitsPerCommand = positive(v, "maxSplitsPerCommand");
            return this;
        }

        /** {@code command.max-payload-bytes}. */
        public Builder maxPayloadBytes(int v) {
            this.maxPayloadBytes = positive(v, "maxPayloadBytes");
            return this;
        }

        public Builder checkpointsEnabled(boolean v) {
            this.checkpointsEnabled = v;
            return this;
        }

        public Builder snapshotTimeout(Duration v) {
            this.snapshotTimeout = Objects.requireNonNull(v, "snapshotTimeout");
            return this;
        }

        public Builder snapshotSlowThreshold(Duration v) {
            this.snapshotSlowThreshold = Objects.requireNonNull(v, "snapshotSlowThreshold");
            return this;
        }

        public Builder retryPolicy(RetryPolicy v) {
            this.retryPolicy = Objects.requireNonNull(v, "retryPolicy");
            return this;
        }

        public Builder asyncBounds(int maxConcurrency, int queueCapacity) {
            this.asyncMaxConcurrency = positive(maxConcurrency, "asyncMaxConcurrency");
            if (queueCapacity < 0) {
                throw new IllegalArgumentException(
                        "asyncQueueCapacity must not be negative: " + queueCapacity);
            }
            this.asyncQueueCapacity = queueCapacity;
            return this;
        }

        public CoordinatorConfig build() {
            return new CoordinatorConfig(this);
        }

        private static int positive(int v, String name) {
            if (v <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + v);
            }
            return v;
        }
    }
}
