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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The one declaration of a member-level metric: its PascalCase name, its kind, its own help text
 * and how its value is read from the object that counts it.
 *
 * <p>The telemetry collector exports from these declarations and the docs check reads the same
 * ones, so a name, a kind or a help text cannot differ between what is scraped and what is
 * documented.
 *
 * <p>Threading: immutable; the value functions it holds read atomics and may run on any thread.
 *
 * @param <S> what the value is read from (the member's transport counters, its async worker pool)
 */
public final class MemberMetric<S> {

    /** Whether the value only grows (until the member restarts) or goes up and down. */
    public enum Kind {
        /** Exported as a Prometheus counter: samples named {@code <name>_total}. */
        COUNTER,
        /** Exported as a Prometheus gauge under its own name. */
        GAUGE
    }

    /** Receives the series of one metric: the values of its extra labels, then the value. */
    public interface Sink {
        void sample(List<String> extraLabelValues, double value);
    }

    /** Writes the series of one metric of {@code source} into a sink. */
    public interface Sampler<S> {
        void sample(S source, Sink sink);
    }

    private final String name;
    private final Kind kind;
    private final String help;
    private final List<String> extraLabels;
    private final Sampler<S> sampler;

    private MemberMetric(
            String name, Kind kind, String help, List<String> extraLabels, Sampler<S> sampler) {
        if (!name.matches("ManagedSource[A-Z][A-Za-z]*")) {
            // Bounded PascalCase names only: a name built from data would be a cardinality leak.
            throw new IllegalArgumentException("not a PascalCase ManagedSource name: " + name);
        }
        if (help == null || help.trim().isEmpty()) {
            throw new IllegalArgumentException("no help text for " + name);
        }
        this.name = name;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.help = help;
        this.extraLabels = Collections.unmodifiableList(new ArrayList<>(extraLabels));
        this.sampler = Objects.requireNonNull(sampler, "sampler");
    }

    /** A total that only grows: one series per member. */
    public static <S> MemberMetric<S> counter(String name, String help, ToLongFunction<S> value) {
        return single(name, Kind.COUNTER, help, value);
    }

    /** A level: one series per member. */
    public static <S> MemberMetric<S> gauge(String name, String help, ToLongFunction<S> value) {
        return single(name, Kind.GAUGE, help, value);
    }

    /**
     * A metric with bounded labels beyond the member's {@code address} (for example a job id): the
     * sampler writes one series per combination of their values.
     */
    public static <S> MemberMetric<S> withLabels(
            String name, Kind kind, String help, List<String> extraLabels, Sampler<S> sampler) {
        return new MemberMetric<>(name, kind, help, extraLabels, sampler);
    }

    private static <S> MemberMetric<S> single(
            String name, Kind kind, String help, ToLongFunction<S> value) {
        Objects.requireNonNull(value, "value");
        return new MemberMetric<>(
                name,
                kind,
                help,
                Collections.<String>emptyList(),
                (source, sink) ->
                        sink.sample(Collections.<String>emptyList(), value.applyAsLong(source)));
    }

    /** The same metric, read from what {@code source} finds in a {@code T}. */
    public <T> MemberMetric<T> on(Function<T, S> source) {
        Sampler<S> own = sampler;
        return new MemberMetric<>(
                name, kind, help, extraLabels, (t, sink) -> own.sample(source.apply(t), sink));
    }

    /** The PascalCase name, as the code and the docs name the metric. */
    public String name() {
        return name;
    }

    /**
     * The name of its samples on the scrape: {@code <name>_total} for a counter (the Prometheus
     * client appends the suffix), the name itself for a gauge.
     */
    public String exportedName() {
        return kind == Kind.COUNTER ? name + "_total" : name;
    }

    public Kind kind() {
        return kind;
    }

    public String help() {
        return help;
    }

    /** Labels beyond {@code address}, empty for a metric with one series per member. */
    public List<String> extraLabels() {
        return extraLabels;
    }

    /** Writes the series of {@code source}. */
    public void sample(S source, Sink sink) {
        sampler.sample(source, sink);
    }

    /** The value of a metric without extra labels. */
    public long value(S source) {
        if (!extraLabels.isEmpty()) {
            throw new IllegalStateException(name + " has labels " + extraLabels);
        }
        long[] v = new long[1];
        sampler.sample(source, (labels, value) -> v[0] = (long) value);
        return v[0];
    }

    @Override
    public String toString() {
        return name + "(" + kind + ")";
    }
}
