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

package org.apache.seatunnel.connectors.managed.reader;

import java.io.Serializable;
import java.time.Duration;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;

/**
 * The validated values of {@link ManagedReaderOptions} for one source. Immutable and serializable
 * (it travels inside the source to every member).
 */
public final class ManagedReaderConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final ManagedReaderConfig DEFAULTS = builder().build();

    private final int fetchQueueMaxRecords;
    private final long fetchQueueMaxBytes;
    private final long fetchEmptyBackoffNanos;
    private final long closeTimeoutNanos;
    private final int legacyPollMaxRecords;
    private final long legacyPollIdleWaitNanos;
    private final int finishedSplitsRemembered;

    private ManagedReaderConfig(Builder b) {
        this.fetchQueueMaxRecords = b.fetchQueueMaxRecords;
        this.fetchQueueMaxBytes = b.fetchQueueMaxBytes;
        this.fetchEmptyBackoffNanos = b.fetchEmptyBackoff.toNanos();
        this.closeTimeoutNanos = b.closeTimeout.toNanos();
        this.legacyPollMaxRecords = b.legacyPollMaxRecords;
        this.legacyPollIdleWaitNanos = b.legacyPollIdleWait.toNanos();
        this.finishedSplitsRemembered = b.finishedSplitsRemembered;
    }

    public static ManagedReaderConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Reads and validates the options from a source's config; a value out of range fails naming the
     * key, the value and the allowed range.
     */
    public static ManagedReaderConfig from(ReadonlyConfig config) {
        return builder()
                .fetchQueueMaxRecords(config.get(ManagedReaderOptions.FETCH_QUEUE_MAX_RECORDS))
                .fetchQueueMaxBytes(config.get(ManagedReaderOptions.FETCH_QUEUE_MAX_BYTES))
                .fetchEmptyBackoff(millis(config, ManagedReaderOptions.FETCH_EMPTY_BACKOFF_MS))
                .closeTimeout(millis(config, ManagedReaderOptions.CLOSE_TIMEOUT_MS))
                .legacyPollMaxRecords(config.get(ManagedReaderOptions.LEGACY_POLL_MAX_RECORDS))
                .legacyPollIdleWait(millis(config, ManagedReaderOptions.LEGACY_POLL_IDLE_WAIT_MS))
                .finishedSplitsRemembered(
                        config.get(ManagedReaderOptions.FINISHED_SPLITS_REMEMBERED))
                .build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A millisecond option as a duration; a negative value is out of range, not an exception. */
    private static Duration millis(ReadonlyConfig config, Option<Long> option) {
        return Duration.ofMillis(
                SourceOptionRange.check(option, config.get(option), 0, Long.MAX_VALUE / 1_000_000));
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return builder()
                .fetchQueueMaxRecords(fetchQueueMaxRecords)
                .fetchQueueMaxBytes(fetchQueueMaxBytes)
                .fetchEmptyBackoff(java.time.Duration.ofNanos(fetchEmptyBackoffNanos))
                .closeTimeout(java.time.Duration.ofNanos(closeTimeoutNanos))
                .legacyPollMaxRecords(legacyPollMaxRecords)
                .legacyPollIdleWait(java.time.Duration.ofNanos(legacyPollIdleWaitNanos))
                .finishedSplitsRemembered(finishedSplitsRemembered);
    }

    public int fetchQueueMaxRecords() {
        return fetchQueueMaxRecords;
    }

    public long fetchQueueMaxBytes() {
        return fetchQueueMaxBytes;
    }

    public long fetchEmptyBackoffNanos() {
        return fetchEmptyBackoffNanos;
    }

    public long closeTimeoutNanos() {
        return closeTimeoutNanos;
    }

    public int legacyPollMaxRecords() {
        return legacyPollMaxRecords;
    }

    public long legacyPollIdleWaitNanos() {
        return legacyPollIdleWaitNanos;
    }

    public int finishedSplitsRemembered() {
        return finishedSplitsRemembered;
    }

    @Override
    public String toString() {
        return "ManagedReaderConfig{fetchQueueMaxRecords="
                + fetchQueueMaxRecords
                + ", fetchQueueMaxBytes="
                + fetchQueueMaxBytes
                + ", fetchEmptyBackoffNanos="
                + fetchEmptyBackoffNanos
                + ", closeTimeoutNanos="
                + closeTimeoutNanos
                + ", legacyPollMaxRecords="
                + legacyPollMaxRecords
                + ", legacyPollIdleWaitNanos="
                + legacyPollIdleWaitNanos
                + ", finishedSplitsRemembered="
                + finishedSplitsRemembered
                + '}';
    }

    /** Builder starting from the options' defaults; every setter checks its range. */
    public static final class Builder {
        private int fetchQueueMaxRecords =
                ManagedReaderOptions.FETCH_QUEUE_MAX_RECORDS.defaultValue();
        private long fetchQueueMaxBytes = ManagedReaderOptions.FETCH_QUEUE_MAX_BYTES.defaultValue();
        private Duration fetchEmptyBackoff =
                Duration.ofMillis(ManagedReaderOptions.FETCH_EMPTY_BACKOFF_MS.defaultValue());
        private Duration closeTimeout =
                Duration.ofMillis(ManagedReaderOptions.CLOSE_TIMEOUT_MS.defaultValue());
        private int legacyPollMaxRecords =
                ManagedReaderOptions.LEGACY_POLL_MAX_RECORDS.defaultValue();
        private Duration legacyPollIdleWait =
                Duration.ofMillis(ManagedReaderOptions.LEGACY_POLL_IDLE_WAIT_MS.defaultValue());
        private int finishedSplitsRemembered =
                ManagedReaderOptions.FINISHED_SPLITS_REMEMBERED.defaultValue();

        private Builder() {}

        public Builder fetchQueueMaxRecords(int v) {
            this.fetchQueueMaxRecords =
                    (int)
                            SourceOptionRange.check(
                                    ManagedReaderOptions.FETCH_QUEUE_MAX_RECORDS, v, 1, 1 << 24);
            return this;
        }

        public Builder fetchQueueMaxBytes(long v) {
            this.fetchQueueMaxBytes =
                    SourceOptionRange.check(
                            ManagedReaderOptions.FETCH_QUEUE_MAX_BYTES, v, 1024, 1L << 34);
            return this;
        }

        public Builder fetchEmptyBackoff(Duration v) {
            this.fetchEmptyBackoff =
                    SourceOptionRange.check(
                            ManagedReaderOptions.FETCH_EMPTY_BACKOFF_MS,
                            v,
                            Duration.ZERO,
                            Duration.ofSeconds(10));
            return this;
        }

        public Builder closeTimeout(Duration v) {
            this.closeTimeout =
                    SourceOptionRange.check(
                            ManagedReaderOptions.CLOSE_TIMEOUT_MS,
                            v,
                            Duration.ofMillis(1),
                            Duration.ofMinutes(10));
            return this;
        }

        public Builder legacyPollMaxRecords(int v) {
            this.legacyPollMaxRecords =
                    (int)
                            SourceOptionRange.check(
                                    ManagedReaderOptions.LEGACY_POLL_MAX_RECORDS, v, 1, 1 << 20);
            return this;
        }

        public Builder legacyPollIdleWait(Duration v) {
            this.legacyPollIdleWait =
                    SourceOptionRange.check(
                            ManagedReaderOptions.LEGACY_POLL_IDLE_WAIT_MS,
                            v,
                            Duration.ZERO,
                            Duration.ofSeconds(10));
            return this;
        }

        public Builder finishedSplitsRemembered(int v) {
            this.finishedSplitsRemembered =
                    (int)
                            SourceOptionRange.check(
                                    ManagedReaderOptions.FINISHED_SPLITS_REMEMBERED, v, 0, 1 << 24);
            return this;
        }

        public ManagedReaderConfig build() {
            return new ManagedReaderConfig(this);
        }
    }
}
