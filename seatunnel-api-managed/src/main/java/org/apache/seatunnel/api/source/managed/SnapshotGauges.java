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

package org.apache.seatunnel.api.source.managed;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.annotation.Experimental;
import org.apache.seatunnel.api.common.metrics.AbstractMetricsContext;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.Metric;
import org.apache.seatunnel.api.common.metrics.MetricsContext;

/**
 * Registers {@link SnapshotGauge}s so that they stay live after a restore.
 *
 * <p>Why: Zeta 2.3.8 gives a restored task the metrics context the master last received for it, in
 * which every gauge has become a plain counter holding its value at that moment; and a metrics
 * context keeps the first metric of a name, dropping a later one with a "Name collision" warning.
 * Registered with {@code counter(name, gauge)}, a restored task's gauges would be dropped and the
 * job would report the frozen values of the attempt before the restore. This replaces such a metric
 * instead: a {@link Kind#TOTAL} continues from the value it held (a job's total does not fall back
 * at a restore), a {@link Kind#LEVEL} reads only the new source.
 *
 * <p>Threading: stateless; {@link #register} holds the context's own lock while it replaces, as the
 * context does when it adds.
 */
@Experimental
public final class SnapshotGauges {
    /** What a gauge's value is, which decides what a restore does to it. */
    public enum Kind {
        /** A count since the task started, e.g. records polled: continues across restores. */
        TOTAL,
        /** A current level or limit, e.g. records queued: the new attempt's value only. */
        LEVEL
    }

    /** {@code AbstractMetricsContext.metrics}, or null where the API's layout is another. */
    private static final Field METRICS = metricsField();

    private SnapshotGauges() {}

    /**
     * Registers a gauge named {@code name} reading {@code value} in {@code context}, replacing a
     * metric of that name a restored context holds; returns the registered gauge.
     */
    public static SnapshotGauge register(
            MetricsContext context, String name, Kind kind, LongSupplier value) {
        Map<String, Metric> metrics = metricsOf(context);
        if (metrics == null) {
            return context.counter(name, new SnapshotGauge(name, value));
        }
        synchronized (context) {
            Metric prior = metrics.remove(name);
            long base = kind == Kind.TOTAL && prior instanceof Counter ? countOf(prior) : 0;
            SnapshotGauge gauge =
                    new SnapshotGauge(name, base == 0 ? value : () -> base + value.getAsLong());
            return context.counter(name, gauge);
        }
    }

    private static long countOf(Metric prior) {
        try {
            return ((Counter) prior).getCount();
        } catch (RuntimeException e) {
            // A live gauge of an attempt whose source failed: start from nothing.
            return 0;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Metric> metricsOf(MetricsContext context) {
        if (METRICS == null || !(context instanceof AbstractMetricsContext)) {
            return null;
        }
        try {
            return (Map<String, Metric>) METRICS.get(context);
        } catch (IllegalAccessException | ClassCastException e) {
            return null;
        }
    }

    private static Field metricsField() {
        try {
            Field f = AbstractMetricsContext.class.getDeclaredField("metrics");
            f.setAccessible(true);
            return Map.class.isAssignableFrom(f.getType()) ? f : null;
        } catch (NoSuchFieldException | RuntimeException e) {
            return null;
        }
    }
}
