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

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;

/**
 * What the enumerator rules run against: how to create and restore enumerators, their state and
 * split serializers, the splits they must hand out (the fixture; by default whatever a reference
 * run hands out), the parallelism, and an optional discovery cursor read from the state. Immutable.
 */
public final class EnumeratorTarget<SplitT extends SourceSplit, StateT> {
    private final Creator<SplitT, StateT> creator;
    private final Restorer<SplitT, StateT> restorer;
    private final Serializer<StateT> stateSerializer;
    private final Serializer<SplitT> splitSerializer;
    private final List<SplitT> expectedSplits;
    private final int parallelism;
    private final boolean bounded;
    private final Function<StateT, Comparable<?>> cursor;
    private final long seed;
    private final int schedules;
    private final int steps;
    private final int maxDrainSteps;

    private EnumeratorTarget(Builder<SplitT, StateT> b) {
        this.creator = b.creator;
        this.restorer = b.restorer;
        this.stateSerializer = b.stateSerializer;
        this.splitSerializer = b.splitSerializer;
        this.expectedSplits =
                b.expectedSplits == null
                        ? null
                        : Collections.unmodifiableList(new ArrayList<>(b.expectedSplits));
        this.parallelism = b.parallelism;
        this.bounded = b.bounded;
        this.cursor = b.cursor;
        this.seed = b.seed;
        this.schedules = b.schedules;
        this.steps = b.steps;
        this.maxDrainSteps = b.maxDrainSteps;
    }

    /** A target of the source's enumerators, serializers and boundedness. */
    public static <SplitT extends SourceSplit, StateT extends Serializable>
            Builder<SplitT, StateT> forSource(SeaTunnelSource<?, SplitT, StateT> source) {
        Builder<SplitT, StateT> b = new Builder<>();
        b.creator = source::createEnumerator;
        b.restorer = source::restoreEnumerator;
        b.stateSerializer = source.getEnumeratorStateSerializer();
        b.splitSerializer = source.getSplitSerializer();
        b.bounded = source.getBoundedness() == Boundedness.BOUNDED;
        return b;
    }

    /** A target of enumerators made without a source. */
    public static <SplitT extends SourceSplit, StateT> Builder<SplitT, StateT> forEnumerators(
            Creator<SplitT, StateT> creator,
            Restorer<SplitT, StateT> restorer,
            Serializer<StateT> stateSerializer,
            Serializer<SplitT> splitSerializer,
            boolean bounded) {
        Builder<SplitT, StateT> b = new Builder<>();
        b.creator = creator;
        b.restorer = restorer;
        b.stateSerializer = stateSerializer;
        b.splitSerializer = splitSerializer;
        b.bounded = bounded;
        return b;
    }

    /** Makes a fresh enumerator, as {@code SeaTunnelSource#createEnumerator}. */
    @FunctionalInterface
    public interface Creator<SplitT extends SourceSplit, StateT> {
        SourceSplitEnumerator<SplitT, StateT> create(SourceSplitEnumerator.Context<SplitT> context)
                throws Exception;
    }

    /** Restores an enumerator, as {@code SeaTunnelSource#restoreEnumerator}. */
    @FunctionalInterface
    public interface Restorer<SplitT extends SourceSplit, StateT> {
        SourceSplitEnumerator<SplitT, StateT> restore(
                SourceSplitEnumerator.Context<SplitT> context, StateT state) throws Exception;
    }

    SourceSplitEnumerator<SplitT, StateT> create(SourceSplitEnumerator.Context<SplitT> c)
            throws Exception {
        return creator.create(c);
    }

    SourceSplitEnumerator<SplitT, StateT> restore(
            SourceSplitEnumerator.Context<SplitT> c, StateT state) throws Exception {
        return restorer.restore(c, state);
    }

    Serializer<StateT> stateSerializer() {
        return stateSerializer;
    }

    Serializer<SplitT> splitSerializer() {
        return splitSerializer;
    }

    /** The fixture, or null when a reference run defines it. */
    List<SplitT> expectedSplits() {
        return expectedSplits;
    }

    int parallelism() {
        return parallelism;
    }

    boolean bounded() {
        return bounded;
    }

    Function<StateT, Comparable<?>> cursor() {
        return cursor;
    }

    long seed() {
        return seed;
    }

    int schedules() {
        return schedules;
    }

    int steps() {
        return steps;
    }

    int maxDrainSteps() {
        return maxDrainSteps;
    }

    /** Builder; see the setters for defaults. */
    public static final class Builder<SplitT extends SourceSplit, StateT> {
        private Creator<SplitT, StateT> creator;
        private Restorer<SplitT, StateT> restorer;
        private Serializer<StateT> stateSerializer;
        private Serializer<SplitT> splitSerializer;
        private List<SplitT> expectedSplits;
        private int parallelism = 3;
        private boolean bounded;
        private Function<StateT, Comparable<?>> cursor;
        private long seed = Long.getLong("conformance.seed", 20261201L);
        private int schedules = 6;
        private int steps = 40;
        private int maxDrainSteps = 5000;

        private Builder() {}

        /**
         * The splits every run must hand out, each exactly once (compared by id and serialized
         * bytes). Default: what a reference run hands out (readers registering in order, every
         * scheduled task run), which must then hold at least one split.
         */
        public Builder<SplitT, StateT> expectedSplits(List<SplitT> splits) {
            this.expectedSplits = splits;
            return this;
        }

        /** Reader subtasks (default 3). */
        public Builder<SplitT, StateT> parallelism(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1");
            }
            this.parallelism = parallelism;
            return this;
        }

        /** Whether readers must all get no-more-splits once done (default: the source's). */
        public Builder<SplitT, StateT> bounded(boolean bounded) {
            this.bounded = bounded;
            return this;
        }

        /**
         * The discovery cursor in a state (for example the number of the next split to discover):
         * ENUMERATOR_CURSOR_MONOTONIC runs only with one.
         */
        public Builder<SplitT, StateT> cursor(Function<StateT, Comparable<?>> cursor) {
            this.cursor = cursor;
            return this;
        }

        /** The seed of the random schedules (default: system property conformance.seed). */
        public Builder<SplitT, StateT> seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Random schedules per rule and lane (default 6). */
        public Builder<SplitT, StateT> schedules(int n) {
            this.schedules = n;
            return this;
        }

        /** Steps of a random schedule before it is drained (default 40). */
        public Builder<SplitT, StateT> steps(int n) {
            this.steps = n;
            return this;
        }

        /** Steps a drain may take before the splits it has not seen count as lost (5,000). */
        public Builder<SplitT, StateT> maxDrainSteps(int n) {
            this.maxDrainSteps = n;
            return this;
        }

        public EnumeratorTarget<SplitT, StateT> build() {
            if (creator == null || restorer == null) {
                throw new IllegalArgumentException("the target needs to create and restore");
            }
            if (stateSerializer == null || splitSerializer == null) {
                throw new IllegalArgumentException(
                        "the target needs the state and split serializers");
            }
            return new EnumeratorTarget<>(this);
        }
    }
}
