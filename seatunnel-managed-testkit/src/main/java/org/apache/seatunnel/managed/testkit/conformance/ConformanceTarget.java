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

package org.apache.seatunnel.managed.testkit.conformance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * What the conformance rules run against: how to make readers, the splits holding the fixture data
 * (a bounded amount: every rule reads it to its end), how to tell records apart, and the bounds of
 * the rules' waits. Immutable.
 */
public final class ConformanceTarget<T, SplitT extends SourceSplit> {
    private final SeaTunnelSource<T, SplitT, ?> source;
    private final ReaderFactory<T, SplitT> readers;
    private final Serializer<SplitT> splitSerializer;
    private final List<SplitT> splits;
    private final Function<T, String> recordKey;
    private final List<SourceEvent> events;
    private final long seed;
    private final int recordsPerShouldYield;
    private final Duration turnGrace;
    private final Duration availabilityBound;
    private final Duration readBound;
    private final Duration closeBound;
    private final Duration idleObservation;
    private final boolean eventsResentAfterRestore;
    private final Duration blockedTurn;
    private final Duration wakeupBound;

    private ConformanceTarget(Builder<T, SplitT> b) {
        this.source = b.source;
        this.readers = b.readers;
        this.splitSerializer = b.splitSerializer;
        this.splits = Collections.unmodifiableList(new ArrayList<>(b.splits));
        this.recordKey = b.recordKey;
        this.events = Collections.unmodifiableList(new ArrayList<>(b.events));
        this.seed = b.seed;
        this.recordsPerShouldYield = b.recordsPerShouldYield;
        this.turnGrace = b.turnGrace;
        this.availabilityBound = b.availabilityBound;
        this.readBound = b.readBound;
        this.closeBound = b.closeBound;
        this.idleObservation = b.idleObservation;
        this.eventsResentAfterRestore = b.eventsResentAfterRestore;
        this.blockedTurn = b.blockedTurn;
        this.wakeupBound = b.wakeupBound;
    }

    /** A target built from the connector's source (readers, serializers, enumerator). */
    public static <T, SplitT extends SourceSplit> Builder<T, SplitT> forSource(
            SeaTunnelSource<T, SplitT, ?> source) {
        Builder<T, SplitT> b = new Builder<>();
        b.source = source;
        b.readers = source::createReader;
        b.splitSerializer = source.getSplitSerializer();
        return b;
    }

    /** A target of readers without a source (the class-loader rule is then skipped). */
    public static <T, SplitT extends SourceSplit> Builder<T, SplitT> forReaders(
            ReaderFactory<T, SplitT> readers, Serializer<SplitT> splitSerializer) {
        Builder<T, SplitT> b = new Builder<>();
        b.readers = readers;
        b.splitSerializer = splitSerializer;
        return b;
    }

    /**
     * The default record key: the fields of a {@link SeaTunnelRow} (nested arrays included), or
     * {@code String.valueOf} of anything else.
     */
    public static String defaultKey(Object record) {
        if (record instanceof SeaTunnelRow) {
            return Arrays.deepToString(((SeaTunnelRow) record).getFields());
        }
        return String.valueOf(record);
    }

    SeaTunnelSource<T, SplitT, ?> source() {
        return source;
    }

    SourceReader<T, SplitT> newReader(SourceReader.Context context) throws Exception {
        return readers.create(context);
    }

    /** Makes a reader for a context, as {@code SeaTunnelSource#createReader} does. */
    @FunctionalInterface
    public interface ReaderFactory<T, SplitT extends SourceSplit> {
        SourceReader<T, SplitT> create(SourceReader.Context context) throws Exception;
    }

    Serializer<SplitT> splitSerializer() {
        return splitSerializer;
    }

    List<SplitT> splits() {
        return splits;
    }

    String key(T record) {
        return recordKey.apply(record);
    }

    List<SourceEvent> events() {
        return events;
    }

    long seed() {
        return seed;
    }

    int recordsPerShouldYield() {
        return recordsPerShouldYield;
    }

    long turnGraceNanos() {
        return turnGrace.toNanos();
    }

    long availabilityBoundNanos() {
        return availabilityBound.toNanos();
    }

    long readBoundNanos() {
        return readBound.toNanos();
    }

    Duration closeBound() {
        return closeBound;
    }

    Duration idleObservation() {
        return idleObservation;
    }

    boolean eventsResentAfterRestore() {
        return eventsResentAfterRestore;
    }

    Duration blockedTurn() {
        return blockedTurn;
    }

    Duration wakeupBound() {
        return wakeupBound;
    }

    /** Builder; see the setters for defaults. */
    public static final class Builder<T, SplitT extends SourceSplit> {
        private SeaTunnelSource<T, SplitT, ?> source;
        private ReaderFactory<T, SplitT> readers;
        private Serializer<SplitT> splitSerializer;
        private List<SplitT> splits = Collections.emptyList();
        private Function<T, String> recordKey = ConformanceTarget::defaultKey;
        private List<SourceEvent> events = Collections.emptyList();
        private long seed = Long.getLong("conformance.seed", 20261201L);
        private int recordsPerShouldYield = 1;
        private Duration turnGrace = Duration.ofSeconds(1);
        private Duration availabilityBound = Duration.ofSeconds(5);
        private Duration readBound = Duration.ofSeconds(60);
        private Duration closeBound = Duration.ofSeconds(10);
        private Duration idleObservation = Duration.ofMillis(300);
        private boolean eventsResentAfterRestore;
        private Duration blockedTurn = Duration.ofSeconds(10);
        private Duration wakeupBound = Duration.ofSeconds(1);

        private Builder() {}

        /** The fixture data: splits of a bounded amount of records (required, non-empty). */
        public Builder<T, SplitT> splits(List<SplitT> splits) {
            this.splits = splits;
            return this;
        }

        /** Tells records apart; must be unique per record of the fixture data. */
        public Builder<T, SplitT> recordKey(Function<T, String> recordKey) {
            this.recordKey = recordKey;
            return this;
        }

        /**
         * Source events of the connector's own kinds (default none): the serializer rule
         * round-trips them and SOURCE_EVENTS_DECLARED delivers them to a reader part-way.
         */
        public Builder<T, SplitT> events(List<SourceEvent> events) {
            this.events = events;
            return this;
        }

        /** The seed of the randomized rules (default: system property conformance.seed). */
        public Builder<T, SplitT> seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * Records one emitter call may emit after shouldYield() turned true (default 1: one element
         * can stand for at most this many records).
         */
        public Builder<T, SplitT> recordsPerShouldYield(int n) {
            this.recordsPerShouldYield = n;
            return this;
        }

        /** How far past its deadline a turn may return (default 1 s). */
        public Builder<T, SplitT> turnGrace(Duration d) {
            this.turnGrace = d;
            return this;
        }

        /** How long an availability future may take to complete once data is there (5 s). */
        public Builder<T, SplitT> availabilityBound(Duration d) {
            this.availabilityBound = d;
            return this;
        }

        /** How long reading the fixture data to its end may take (default 60 s). */
        public Builder<T, SplitT> readBound(Duration d) {
            this.readBound = d;
            return this;
        }

        /** How long the reader's threads may take to end after close() (default 10 s). */
        public Builder<T, SplitT> closeBound(Duration d) {
            this.closeBound = d;
            return this;
        }

        /** How long the idle snapshot is watched for background changes (default 300 ms). */
        public Builder<T, SplitT> idleObservation(Duration d) {
            this.idleObservation = d;
            return this;
        }

        /**
         * Whether the enumerator sends the {@link #events} again to a restored reader (default
         * false). Source events are not checkpointed: when false, what an event changed must be in
         * the reader's snapshot; when true, the rule re-delivers the events after a restore, as
         * such an enumerator would.
         */
        public Builder<T, SplitT> eventsResentAfterRestore(boolean resent) {
            this.eventsResentAfterRestore = resent;
            return this;
        }

        /**
         * The deadline of the turn WAKEUP_ENDS_BLOCKED_POLL expects a reader to wait in (default 10
         * s); a reader that ignores wakeup() holds the rule this long.
         */
        public Builder<T, SplitT> blockedTurn(Duration d) {
            this.blockedTurn = d;
            return this;
        }

        /** How soon after wakeup() a waiting poll turn must return (default 1 s). */
        public Builder<T, SplitT> wakeupBound(Duration d) {
            this.wakeupBound = d;
            return this;
        }

        public ConformanceTarget<T, SplitT> build() {
            if (splits == null || splits.isEmpty()) {
                throw new IllegalArgumentException("the conformance target needs fixture splits");
            }
            if (splitSerializer == null) {
                throw new IllegalArgumentException(
                        "the conformance target needs a split serializer");
            }
            return new ConformanceTarget<>(this);
        }
    }
}
