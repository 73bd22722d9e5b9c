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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.source.managed.SnapshotGauges;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;

/**
 * Puts a Lane A coordinator's counters into the metrics context of the engine's enumerator task, so
 * they appear in the job's metrics next to the readers'.
 *
 * <p>Threading: {@link #register} runs once when the enumerator host is created; the gauges read
 * only atomics and may be read by the engine's metrics thread at any time.
 *
 * <p>Every name gets the {@code ManagedSource} prefix ({@code CoordinatorQueueFull} is exported as
 * {@code ManagedSourceCoordinatorQueueFull}) so that operators find all Lane A metrics under one
 * prefix; there are no labels beyond the engine's own task labels.
 */
final class CoordinatorTaskMetrics {
    static final String PREFIX = "ManagedSource";

    private CoordinatorTaskMetrics() {}

    static String exportedName(CoordinatorMetrics.Counter c) {
        return prefixed(c.metricName());
    }

    static String exportedName(CoordinatorMetrics.Gauge g) {
        return prefixed(g.metricName());
    }

    private static String prefixed(String n) {
        return n.startsWith(PREFIX) ? n : PREFIX + n;
    }

    /** Milliseconds since {@code dispatchedAt}, 0 when there is none (-1). */
    static long ageOf(long dispatchedAt) {
        return dispatchedAt < 0 ? 0 : Math.max(0, System.currentTimeMillis() - dispatchedAt);
    }

    /** Registers every coordinator counter and gauge; a null context registers nothing. */
    static List<String> register(MetricsContext context, CoordinatorMetrics metrics) {
        List<String> names = new ArrayList<>();
        if (context == null) {
            return names;
        }
        for (CoordinatorMetrics.Counter c : CoordinatorMetrics.Counter.values()) {
            String name = exportedName(c);
            SnapshotGauges.register(context, name, SnapshotGauges.Kind.TOTAL, () -> metrics.get(c));
            names.add(name);
        }
        for (CoordinatorMetrics.Gauge g : CoordinatorMetrics.Gauge.values()) {
            String name = exportedName(g);
            LongSupplier value =
                    g == CoordinatorMetrics.Gauge.OLDEST_UNCHECKPOINTED_DISPATCH_MILLIS
                            ? () -> ageOf(metrics.get(g))
                            : () -> metrics.get(g);
            SnapshotGauges.register(context, name, SnapshotGauges.Kind.LEVEL, value);
            names.add(name);
        }
        return Collections.unmodifiableList(names);
    }
}
