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

/**
 * The resolved, validated settings of one {@code ManagedFake} source. Immutable; travels inside the
 * serialized source to every member.
 */
public final class ManagedFakeConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int splitCount;
    private final long rowsPerSplit;
    private final boolean bounded;
    private final long rowsPerSecond;
    private final long slowDataMillis;
    private final boolean slowDataJitter;
    private final boolean datesColumn;
    private final String faultId;
    private final long failOnceAtRow;
    private final String enumeratorFailOn;
    private final long enumeratorFailAtCheckpoint;
    private final long holdSnapshotAtCheckpoint;
    private final String sourceEventRunId;

    private ManagedFakeConfig(Builder b) {
        if (b.splitCount < 0) {
            throw new IllegalArgumentException("split.count must be >= 0: " + b.splitCount);
        }
        if (b.rowsPerSplit < 0) {
            throw new IllegalArgumentException("rows.per.split must be >= 0: " + b.rowsPerSplit);
        }
        if (b.rowsPerSecond < 0) {
            throw new IllegalArgumentException("rows.per.second must be >= 0: " + b.rowsPerSecond);
        }
        if (b.slowDataMillis < 0) {
            throw new IllegalArgumentException(
                    "slow.data.millis must be >= 0: " + b.slowDataMillis);
        }
        this.splitCount = b.splitCount;
        this.rowsPerSplit = b.rowsPerSplit;
        this.bounded = b.bounded;
        this.rowsPerSecond = b.rowsPerSecond;
        this.slowDataMillis = b.slowDataMillis;
        this.slowDataJitter = b.slowDataJitter;
        this.datesColumn = b.datesColumn;
        if (!b.enumeratorFailOn.isEmpty()
                && !"snapshot".equals(b.enumeratorFailOn)
                && !"checkpoint-complete".equals(b.enumeratorFailOn)) {
            throw new IllegalArgumentException(
                    "enumerator.fail.on must be 'snapshot' or 'checkpoint-complete': "
                            + b.enumeratorFailOn);
        }
        this.faultId = b.faultId;
        this.failOnceAtRow = b.failOnceAtRow;
        this.enumeratorFailOn = b.enumeratorFailOn;
        this.enumeratorFailAtCheckpoint = b.enumeratorFailAtCheckpoint;
        this.holdSnapshotAtCheckpoint = b.holdSnapshotAtCheckpoint;
        this.sourceEventRunId = b.sourceEventRunId;
    }

    public static ManagedFakeConfig of(ReadonlyConfig options) {
        return builder()
                .splitCount(options.get(ManagedFakeSourceOptions.SPLIT_COUNT))
                .rowsPerSplit(options.get(ManagedFakeSourceOptions.ROWS_PER_SPLIT))
                .bounded(options.get(ManagedFakeSourceOptions.BOUNDED))
                .rowsPerSecond(options.get(ManagedFakeSourceOptions.ROWS_PER_SECOND))
                .slowDataMillis(options.get(ManagedFakeSourceOptions.SLOW_DATA_MILLIS))
                .slowDataJitter(options.get(ManagedFakeSourceOptions.SLOW_DATA_JITTER))
                .datesColumn(options.get(ManagedFakeSourceOptions.DATES_COLUMN))
                .faultId(options.get(ManagedFakeSourceOptions.FAULT_ID))
                .failOnceAtRow(options.get(ManagedFakeSourceOptions.FAIL_ONCE_AT_ROW))
                .enumeratorFailOn(options.get(ManagedFakeSourceOptions.ENUMERATOR_FAIL_ON))
                .enumeratorFailAtCheckpoint(
                        options.get(ManagedFakeSourceOptions.ENUMERATOR_FAIL_AT_CHECKPOINT))
                .holdSnapshotAtCheckpoint(
                        options.get(ManagedFakeSourceOptions.HOLD_SNAPSHOT_AT_CHECKPOINT))
                .sourceEventRunId(options.get(ManagedFakeSourceOptions.SOURCE_EVENT_RUN_ID))
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

    /** Empty when no fault is injected. */
    public String faultId() {
        return faultId;
    }

    public long failOnceAtRow() {
        return failOnceAtRow;
    }

    public String enumeratorFailOn() {
        return enumeratorFailOn;
    }

    public long enumeratorFailAtCheckpoint() {
        return enumeratorFailAtCheckpoint;
    }

    public long holdSnapshotAtCheckpoint() {
        return holdSnapshotAtCheckpoint;
    }

    /** Empty when the enumerator sends no source events. */
    public String sourceEventRunId() {
        return sourceEventRunId;
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
                + (faultId.isEmpty() ? "" : ", faultId=" + faultId)
                + (sourceEventRunId.isEmpty() ? "" : ", sourceEventRunId=" + sourceEventRunId)
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
        private String faultId = ManagedFakeSourceOptions.FAULT_ID.defaultValue();
        private long failOnceAtRow = ManagedFakeSourceOptions.FAIL_ONCE_AT_ROW.defaultValue();
        private String enumeratorFailOn =
                ManagedFakeSourceOptions.ENUMERATOR_FAIL_ON.defaultValue();
        private long enumeratorFailAtCheckpoint =
                ManagedFakeSourceOptions.ENUMERATOR_FAIL_AT_CHECKPOINT.defaultValue();
        private long holdSnapshotAtCheckpoint =
                ManagedFakeSourceOptions.HOLD_SNAPSHOT_AT_CHECKPOINT.defaultValue();
        private String sourceEventRunId =
                ManagedFakeSourceOptions.SOURCE_EVENT_RUN_ID.defaultValue();

        private Builder() {}

        public Builder faultId(String v) {
            this.faultId = v == null ? "" : v;
            return this;
        }

        public Builder failOnceAtRow(long v) {
            this.failOnceAtRow = v;
            return this;
        }

        public Builder enumeratorFailOn(String v) {
            this.enumeratorFailOn = v == null ? "" : v;
            return this;
        }

        public Builder enumeratorFailAtCheckpoint(long v) {
            this.enumeratorFailAtCheckpoint = v;
            return this;
        }

        public Builder holdSnapshotAtCheckpoint(long v) {
            this.holdSnapshotAtCheckpoint = v;
            return this;
        }

        public Builder sourceEventRunId(String v) {
            this.sourceEventRunId = v == null ? "" : v;
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

        public ManagedFakeConfig build() {
            return new ManagedFakeConfig(this);
        }
    }
}
