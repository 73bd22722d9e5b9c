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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.transport.MemberMetric;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;

/**
 * Member-level Lane A metrics on SeaTunnel's telemetry endpoint, which Prometheus scrapes at {@code
 * /hazelcast/rest/instance/metrics} (with {@code telemetry.metric.enabled}).
 *
 * <p>Threading: members are added and removed by their service's init/shutdown; the endpoint's
 * thread calls {@link #collect} at any time and reads only atomics (and {@link MemberTaskTotals}
 * under its own short lock).
 *
 * <p>The engine serves the JVM-wide Prometheus default registry, so one collector per JVM reports
 * every member running in it, each under the single bounded label {@code address} (the member's own
 * address). Every metric is declared once, as a {@link MemberMetric} with its kind and help text
 * ({@link #metrics()}): totals go out as counters ({@code <Name>_total}), levels as gauges. {@link
 * #RESTORES_REFUSED} is counted per JVM (a refused restore is found in a state serializer, outside
 * any member) and goes out once, under the address of the JVM's first running member; a SeaTunnel
 * server runs one member per JVM, so there it is that member's own count.
 *
 * <p>A further family (for example one with the labels {@code address} and {@code job_id}) is one
 * more {@link MemberMetric#withLabels} declaration in {@link #declare()}.
 */
public final class ManagedSourceTelemetry extends Collector {
    public static final String RESTORES_REFUSED = "ManagedSourceRestoresRefused";
    static final String ADDRESS = "address";
    private static final ManagedSourceTelemetry INSTANCE = new ManagedSourceTelemetry();
    private static final AtomicBoolean REGISTERED = new AtomicBoolean();
    // Per JVM, like the metric: the refusal is found in a state serializer, outside any member.
    private static final AtomicLong RESTORES_REFUSED_TOTAL = new AtomicLong();

    // Member metrics, then the one per-JVM metric (sampled only for the JVM's first member).
    private static final List<MemberMetric<Member>> METRICS = declare();
    private static final MemberMetric<Member> RESTORES_REFUSED_METRIC =
            MemberMetric.counter(
                    RESTORES_REFUSED,
                    "Restores refused before running because the checkpoint was taken on another"
                            + " lane or capability digest (counted per JVM, reported under its"
                            + " first member)",
                    m -> RESTORES_REFUSED_TOTAL.get());

    private final List<Member> members = new CopyOnWriteArrayList<>();

    private ManagedSourceTelemetry() {}

    static void add(
            String address,
            TransportMetrics metrics,
            SourceAsyncWorkerPool asyncWorkers,
            MemberTaskTotals taskTotals) {
        if (REGISTERED.compareAndSet(false, true)) {
            INSTANCE.register(CollectorRegistry.defaultRegistry);
        }
        INSTANCE.members.add(new Member(address, metrics, asyncWorkers, taskTotals));
    }

    static void remove(TransportMetrics metrics) {
        for (Member m : INSTANCE.members) {
            if (m.metrics == metrics) {
                INSTANCE.members.remove(m);
            }
        }
    }

    /** Counts one refused restore ({@value #RESTORES_REFUSED}). */
    public static void restoreRefused() {
        RESTORES_REFUSED_TOTAL.incrementAndGet();
    }

    /** Restores refused in this JVM since it started ({@value #RESTORES_REFUSED}). */
    public static long restoresRefused() {
        return RESTORES_REFUSED_TOTAL.get();
    }

    private static List<MemberMetric<Member>> declare() {
        List<MemberMetric<Member>> l = new ArrayList<>();
        for (MemberMetric<TransportMetrics> d : TransportMetrics.metrics()) {
            l.add(d.on(m -> m.metrics));
        }
        for (MemberMetric<SourceAsyncWorkerPool> d : SourceAsyncWorkerPool.metrics()) {
            l.add(d.on(m -> m.asyncWorkers));
        }
        for (MemberMetric<MemberTaskTotals> d : MemberTaskTotals.metrics()) {
            l.add(d.on(m -> m.taskTotals));
        }
        return Collections.unmodifiableList(l);
    }

    /**
     * Every metric this collector exports, in export order: name, kind and help (for the docs check
     * and the dashboard check).
     */
    public static List<MemberMetric<?>> metrics() {
        List<MemberMetric<?>> all = new ArrayList<>(METRICS);
        all.add(RESTORES_REFUSED_METRIC);
        return Collections.unmodifiableList(all);
    }

    /** The PascalCase names of {@link #metrics()}. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (MemberMetric<?> d : metrics()) {
            names.add(d.name());
        }
        return Collections.unmodifiableList(names);
    }

    /** The names of the samples on the scrape: {@code <Name>_total} for counters. */
    public static List<String> exportedNames() {
        List<String> names = new ArrayList<>();
        for (MemberMetric<?> d : metrics()) {
            names.add(d.exportedName());
        }
        return Collections.unmodifiableList(names);
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<Member> now = new ArrayList<>(members);
        List<MetricFamilySamples> out = new ArrayList<>(METRICS.size() + 1);
        for (MemberMetric<Member> d : METRICS) {
            out.add(family(d, now));
        }
        // Only the first member: several members in one JVM (embedded tests) would otherwise
        // each report the JVM's count, and a sum over members would multiply it.
        out.add(
                family(
                        RESTORES_REFUSED_METRIC,
                        now.isEmpty()
                                ? Collections.<Member>emptyList()
                                : Collections.singletonList(now.get(0))));
        return out;
    }

    private static MetricFamilySamples family(MemberMetric<Member> d, List<Member> members) {
        List<String> labels = new ArrayList<>();
        labels.add(ADDRESS);
        labels.addAll(d.extraLabels());
        if (d.kind() == MemberMetric.Kind.COUNTER) {
            // The client appends "_total" to the samples and the 0.0.4 family name itself.
            CounterMetricFamily f = new CounterMetricFamily(d.name(), d.help(), labels);
            for (Member m : members) {
                d.sample(m, (extra, value) -> f.addMetric(m.labelValues(extra), value));
            }
            return f;
        }
        GaugeMetricFamily f = new GaugeMetricFamily(d.name(), d.help(), labels);
        for (Member m : members) {
            d.sample(m, (extra, value) -> f.addMetric(m.labelValues(extra), value));
        }
        return f;
    }

    private static final class Member {
        final String address;
        final TransportMetrics metrics;
        final SourceAsyncWorkerPool asyncWorkers;
        final MemberTaskTotals taskTotals;

        Member(
                String address,
                TransportMetrics metrics,
                SourceAsyncWorkerPool asyncWorkers,
                MemberTaskTotals taskTotals) {
            this.address = address;
            this.metrics = metrics;
            this.asyncWorkers = asyncWorkers;
            this.taskTotals = taskTotals;
        }

        List<String> labelValues(List<String> extra) {
            List<String> v = new ArrayList<>(1 + extra.size());
            v.add(address);
            v.addAll(extra);
            return v;
        }
    }
}
