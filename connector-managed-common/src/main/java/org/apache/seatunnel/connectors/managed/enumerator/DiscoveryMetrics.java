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

package org.apache.seatunnel.connectors.managed.enumerator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.source.managed.SnapshotGauges;

/**
 * The metrics of one {@link DiscoveringSplitEnumerator}, registered unlabelled in the enumerator's
 * metrics context as restore-safe gauges ({@link SnapshotGauges}): totals continue across restores,
 * the pending level reads the live enumerator.
 *
 * <p>Threading: every member is thread-safe.
 */
final class DiscoveryMetrics {
    static final String RUNS = "ManagedSourceDiscoveryRuns";
    static final String FAILURES = "ManagedSourceDiscoveryFailures";
    static final String PAUSES = "ManagedSourceDiscoveryPauses";
    static final String DISCOVERED = "ManagedSourceDiscoveredSplits";
    static final String PENDING = "ManagedSourceDiscoveryPendingSplits";

    final Total runs = new Total();
    final Total failures = new Total();
    final Total paused = new Total();
    final Total discovered = new Total();

    DiscoveryMetrics(MetricsContext metrics, LongSupplier pending) {
        if (metrics == null) {
            return;
        }
        SnapshotGauges.register(metrics, RUNS, SnapshotGauges.Kind.TOTAL, runs);
        SnapshotGauges.register(metrics, FAILURES, SnapshotGauges.Kind.TOTAL, failures);
        SnapshotGauges.register(metrics, PAUSES, SnapshotGauges.Kind.TOTAL, paused);
        SnapshotGauges.register(metrics, DISCOVERED, SnapshotGauges.Kind.TOTAL, discovered);
        SnapshotGauges.register(metrics, PENDING, SnapshotGauges.Kind.LEVEL, pending);
    }

    /** A count since this enumerator started. */
    static final class Total implements LongSupplier {
        private final AtomicLong n = new AtomicLong();

        void inc() {
            n.incrementAndGet();
        }

        void inc(long k) {
            n.addAndGet(k);
        }

        @Override
        public long getAsLong() {
            return n.get();
        }
    }
}
