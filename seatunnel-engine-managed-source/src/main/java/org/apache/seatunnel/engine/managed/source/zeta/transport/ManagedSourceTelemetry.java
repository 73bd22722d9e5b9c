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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.GaugeMetricFamily;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;

/**
 * Member-level Lane A metrics on SeaTunnel's telemetry endpoint ({@code
 * /hazelcast/rest/instance/openmetrics} and {@code .../metrics}, with {@code
 * telemetry.metric.enabled}).
 *
 * <p>Threading: members are added and removed by their service's init/shutdown; the endpoint's
 * thread calls {@link #collect} at any time and reads only atomics.
 *
 * <p>The engine serves the JVM-wide Prometheus default registry, so one collector per JVM reports
 * every member running in it, each under the single bounded label {@code address} (the member's own
 * address). Names are the PascalCase names of {@link TransportMetrics}, of the async worker pool
 * ({@link SourceAsyncWorkerPool#snapshot()}) and {@code ManagedSourceRestoresRefused} (per JVM, no
 * label), as gauges of the current totals.
 */
public final class ManagedSourceTelemetry extends Collector {
    public static final String RESTORES_REFUSED = "ManagedSourceRestoresRefused";
    private static final ManagedSourceTelemetry INSTANCE = new ManagedSourceTelemetry();
    private static final AtomicBoolean REGISTERED = new AtomicBoolean();
    // Per JVM, like the metric: the refusal is found in a state serializer, outside any member.
    private static final AtomicLong RESTORES_REFUSED_TOTAL = new AtomicLong();

    private final List<Member> members = new CopyOnWriteArrayList<>();

    private ManagedSourceTelemetry() {}

    static void add(String address, TransportMetrics metrics, SourceAsyncWorkerPool asyncWorkers) {
        if (REGISTERED.compareAndSet(false, true)) {
            INSTANCE.register(CollectorRegistry.defaultRegistry);
        }
        INSTANCE.members.add(new Member(address, metrics, asyncWorkers));
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

    /** The metric names this collector exports (for the docs check). */
    public static List<String> names() {
        List<String> names = new ArrayList<>(new TransportMetrics().snapshot().keySet());
        names.addAll(SourceAsyncWorkerPool.metricNames());
        names.add(RESTORES_REFUSED);
        return Collections.unmodifiableList(names);
    }

    @Override
    public List<MetricFamilySamples> collect() {
        Map<String, GaugeMetricFamily> families = new LinkedHashMap<>();
        for (Member m : members) {
            Map<String, Long> values = new LinkedHashMap<>(m.metrics.snapshot());
            values.putAll(m.asyncWorkers.snapshot());
            for (Map.Entry<String, Long> e : values.entrySet()) {
                GaugeMetricFamily f = families.get(e.getKey());
                if (f == null) {
                    f =
                            new GaugeMetricFamily(
                                    e.getKey(),
                                    "Lane A command transport and async workers of this member",
                                    Collections.singletonList("address"));
                    families.put(e.getKey(), f);
                }
                f.addMetric(Collections.singletonList(m.address), e.getValue());
            }
        }
        List<MetricFamilySamples> out = new ArrayList<>(families.values());
        out.add(
                new GaugeMetricFamily(
                        RESTORES_REFUSED,
                        "Restores refused before running: checkpoint of another lane or digest",
                        RESTORES_REFUSED_TOTAL.get()));
        return out;
    }

    private static final class Member {
        final String address;
        final TransportMetrics metrics;
        final SourceAsyncWorkerPool asyncWorkers;

        Member(String address, TransportMetrics metrics, SourceAsyncWorkerPool asyncWorkers) {
            this.address = address;
            this.metrics = metrics;
            this.asyncWorkers = asyncWorkers;
        }
    }
}
