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

package org.apache.seatunnel.connectors.managed.reader;

import java.util.function.LongSupplier;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.connectors.managed.reader.fetcher.FetchQueue;

/**
 * The metrics of one {@link ManagedSourceReaderBase}, registered in the reader's metrics context
 * (unlabelled: no split id ever becomes a metric name). Counters are updated per split or per
 * batch, never per record; the queue gauges read the queue when scraped.
 *
 * <p>Threading: every member is thread-safe.
 */
final class ReaderBaseMetrics {
    static final String FETCH_QUEUE_RECORDS = "ManagedSourceFetchQueueRecords";
    static final String FETCH_QUEUE_BYTES = "ManagedSourceFetchQueueBytes";
    static final String FETCH_QUEUE_FULL_WAITS = "ManagedSourceFetchQueueFullWaits";
    static final String FETCH_QUEUE_PEAK_RECORDS = "ManagedSourceFetchQueuePeakRecords";
    static final String ASSIGNED_SPLITS = "ManagedSourceReaderSplitsAssigned";
    static final String FINISHED_SPLITS = "ManagedSourceReaderSplitsFinished";
    static final String DUPLICATE_SPLITS = "ManagedSourceReaderSplitsDuplicate";

    final Counter assignedSplits;
    final Counter finishedSplits;
    final Counter duplicateSplits;

    ReaderBaseMetrics(MetricsContext metrics, FetchQueue<?> queue) {
        this.assignedSplits = counter(metrics, ASSIGNED_SPLITS);
        this.finishedSplits = counter(metrics, FINISHED_SPLITS);
        this.duplicateSplits = counter(metrics, DUPLICATE_SPLITS);
        if (metrics != null) {
            metrics.counter(FETCH_QUEUE_RECORDS, new Gauge(FETCH_QUEUE_RECORDS, queue::records));
            metrics.counter(FETCH_QUEUE_BYTES, new Gauge(FETCH_QUEUE_BYTES, queue::bytes));
            metrics.counter(
                    FETCH_QUEUE_FULL_WAITS, new Gauge(FETCH_QUEUE_FULL_WAITS, queue::fullWaits));
            metrics.counter(
                    FETCH_QUEUE_PEAK_RECORDS,
                    new Gauge(FETCH_QUEUE_PEAK_RECORDS, queue::peakRecords));
        }
    }

    private static Counter counter(MetricsContext metrics, String name) {
        return metrics == null ? new ThreadSafeCounter(name) : metrics.counter(name);
    }

    /** A read-only counter whose value is read from its source when scraped. */
    private static final class Gauge implements Counter {
        private static final long serialVersionUID = 1L;
        private final String name;
        private final transient LongSupplier value;

        Gauge(String name, LongSupplier value) {
            this.name = name;
            this.value = value;
        }

        /**
         * The engine ships each task's metrics to the master by Java serialization (its metrics
         * map), and the master's class loader cannot see a connector jar from {@code connectors/}:
         * this class must never leave the JVM. What leaves is the engine's own counter holding the
         * value at shipping time, which is what the job's metrics then show.
         */
        private Object writeReplace() {
            ThreadSafeCounter snapshot = new ThreadSafeCounter(name);
            snapshot.set(getCount());
            return snapshot;
        }

        @Override
        public void inc() {}

        @Override
        public void inc(long n) {}

        @Override
        public void dec() {}

        @Override
        public void dec(long n) {}

        @Override
        public void set(long n) {}

        @Override
        public long getCount() {
            return value == null ? 0 : value.getAsLong();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public org.apache.seatunnel.api.common.metrics.Unit unit() {
            return org.apache.seatunnel.api.common.metrics.Unit.COUNT;
        }
    }
}
