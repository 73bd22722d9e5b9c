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

package org.apache.seatunnel.connectors.managed.fake;

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderOptions;

/**
 * The resolved, validated settings of one {@code ManagedFake} source. Immutable; travels inside the
 * serialized source to every member.
 */
public final class ManagedFakeConfig implements Serializable {

    private static final long serialVersionUID = 3L;

    private final int splitCount;
    private final long rowsPerSplit;
    private final boolean bounded;
    private final long rowsPerSecond;
    private final long slowDataMillis;
    private final boolean slowDataJitter;
    private final boolean datesColumn;
    private final String sourceEventRunId;
    private final long discoverySplitsPerSecond;
    private final ManagedReaderConfig readerConfig;

    private ManagedFakeConfig(Builder b) {
        this.splitCount = (int) atLeast(ManagedFakeSourceOptions.SPLIT_COUNT.key(), b.splitCount);
        this.rowsPerSplit = atLeast(ManagedFakeSourceOptions.ROWS_PER_SPLIT.key(), b.rowsPerSplit);
        this.rowsPerSecond =
                atLeast(ManagedFakeSourceOptions.ROWS_PER_SECOND.key(), b.rowsPerSecond);
        this.slowDataMillis =
                atLeast(ManagedFakeSourceOptions.SLOW_DATA_MILLIS.key(), b.slowDataMillis);
        this.bounded = b.bounded;
        this.slowDataJitter = b.slowDataJitter;
        this.datesColumn = b.datesColumn;
        this.sourceEventRunId = b.sourceEventRunId;
        this.readerConfig = b.readerConfig;
        this.discoverySplitsPerSecond =
                atLeast(
                        ManagedFakeSourceOptions.DISCOVERY_SPLITS_PER_SECOND.key(),
                        b.discoverySplitsPerSecond);
        if (discoverySplitsPerSecond > 0 && bounded) {
            throw new IllegalArgumentException(
                    ManagedFakeSourceOptions.DISCOVERY_SPLITS_PER_SECOND.key()
                            + " needs bounded = false: a bounded source has all its splits at"
                            + " the start");
        }
        if (splitCount == Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    ManagedFakeSourceOptions.SPLIT_COUNT.key() + " must be < " + Integer.MAX_VALUE);
        }
    }

    private static long atLeast(String key, long v) {
        if (v < 0) {
            throw new IllegalArgumentException(key + " must be >= 0: " + v);
        }
        return v;
    }

    /**
     * Reads the options. Lane B polls default to one chunk per call, today's reader shape, unless
     * {@code reader.legacy-poll.max-records} says otherwise.
     */
    public static ManagedFakeConfig of(ReadonlyConfig options) {
        ManagedReaderConfig reader = ManagedReaderConfig.from(options);
        if (!options.getOptional(ManagedReaderOptions.LEGACY_POLL_MAX_RECORDS).isPresent()) {
            reader = reader.toBuilder().legacyPollMaxRecords(ManagedFakeReader.CHUNK_ROWS).build();
        }
        return builder()
                .splitCount(options.get(ManagedFakeSourceOptions.SPLIT_COUNT))
                .rowsPerSplit(options.get(ManagedFakeSourceOptions.ROWS_PER_SPLIT))
                .bounded(options.get(ManagedFakeSourceOptions.BOUNDED))
                .rowsPerSecond(options.get(ManagedFakeSourceOptions.ROWS_PER_SECOND))
                .slowDataMillis(options.get(ManagedFakeSourceOptions.SLOW_DATA_MILLIS))
                .slowDataJitter(options.get(ManagedFakeSourceOptions.SLOW_DATA_JITTER))
                .datesColumn(options.get(ManagedFakeSourceOptions.DATES_COLUMN))
                .sourceEventRunId(options.get(ManagedFakeSourceOptions.SOURCE_EVENT_RUN_ID))
                .discoverySplitsPerSecond(
                        options.get(ManagedFakeSourceOptions.DISCOVERY_SPLITS_PER_SECOND))
                .readerConfig(reader)
                .build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int splitCount() {
        return splitCount;
    }

    public long rowsPerSplit() {
        return rowsPerSplit;
    }

    public boolean bounded() {
        return bounded;
    }

    public long rowsPerSecond() {
        return rowsPerSecond;
    }

    public long slowDataMillis() {
        return slowDataMillis;
    }

    public boolean slowDataJitter() {
        return slowDataJitter;
    }

    public boolean datesColumn() {
        return datesColumn;
    }

    /** New splits the enumerator discovers per second; 0 when it discovers none. */
    public long discoverySplitsPerSecond() {
        return discoverySplitsPerSecond;
    }

    /** Whether a split ends after rows.per.split rows: bounded, or discovered while unbounded. */
    public boolean splitsEnd() {
        return bounded || discoverySplitsPerSecond > 0;
    }

    /** Empty when the enumerator sends no source events. */
    public String sourceEventRunId() {
        return sourceEventRunId;
    }

    /** The reader base's bounds (fetch queue, close timeout, Lane B poll). */
    public ManagedReaderConfig readerConfig() {
        return readerConfig;
    }

    @Override
    public String toString() {
        return "ManagedFakeConfig{splitCount="
                + splitCount
                + ", rowsPerSplit="
                + rowsPerSplit
                + ", bounded="
                + bounded
                + ", rowsPerSecond="
                + rowsPerSecond
                + ", slowDataMillis="
                + slowDataMillis
                + ", slowDataJitter="
                + slowDataJitter
                + (datesColumn ? ", datesColumn=true" : "")
                + (sourceEventRunId.isEmpty() ? "" : ", sourceEventRunId=" + sourceEventRunId)
                + (discoverySplitsPerSecond > 0
                        ? ", discoverySplitsPerSecond=" + discoverySplitsPerSecond
                        : "")
                + '}';
    }

    /** Builder; defaults equal the option defaults. */
    public static final class Builder {
        private int splitCount = ManagedFakeSourceOptions.SPLIT_COUNT.defaultValue();
        private long rowsPerSplit = ManagedFakeSourceOptions.ROWS_PER_SPLIT.defaultValue();
        private boolean bounded = ManagedFakeSourceOptions.BOUNDED.defaultValue();
        private long rowsPerSecond = ManagedFakeSourceOptions.ROWS_PER_SECOND.defaultValue();
        private long slowDataMillis = ManagedFakeSourceOptions.SLOW_DATA_MILLIS.defaultValue();
        private boolean slowDataJitter = ManagedFakeSourceOptions.SLOW_DATA_JITTER.defaultValue();
        private boolean datesColumn = ManagedFakeSourceOptions.DATES_COLUMN.defaultValue();
        private String sourceEventRunId =
                ManagedFakeSourceOptions.SOURCE_EVENT_RUN_ID.defaultValue();
        private long discoverySplitsPerSecond =
                ManagedFakeSourceOptions.DISCOVERY_SPLITS_PER_SECOND.defaultValue();
        private ManagedReaderConfig readerConfig =
                ManagedReaderConfig.builder()
                        .legacyPollMaxRecords(ManagedFakeReader.CHUNK_ROWS)
                        .build();

        private Builder() {}

        public Builder sourceEventRunId(String v) {
            this.sourceEventRunId = v == null ? "" : v;
            return this;
        }

        public Builder discoverySplitsPerSecond(long v) {
            this.discoverySplitsPerSecond = v;
            return this;
        }

        public Builder splitCount(int v) {
            this.splitCount = v;
            return this;
        }

        public Builder rowsPerSplit(long v) {
            this.rowsPerSplit = v;
            return this;
        }

        public Builder bounded(boolean v) {
            this.bounded = v;
            return this;
        }

        public Builder rowsPerSecond(long v) {
            this.rowsPerSecond = v;
            return this;
        }

        public Builder slowDataMillis(long v) {
            this.slowDataMillis = v;
            return this;
        }

        public Builder slowDataJitter(boolean v) {
            this.slowDataJitter = v;
            return this;
        }

        public Builder datesColumn(boolean v) {
            this.datesColumn = v;
            return this;
        }

        public Builder readerConfig(ManagedReaderConfig v) {
            this.readerConfig = v;
            return this;
        }

        public ManagedFakeConfig build() {
            return new ManagedFakeConfig(this);
        }
    }
}
