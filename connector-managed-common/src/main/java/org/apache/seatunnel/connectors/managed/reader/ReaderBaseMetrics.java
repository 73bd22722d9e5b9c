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

import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.source.managed.SnapshotGauges;
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
    static final String FINISHED_SPLITS_FORGOTTEN = "ManagedSourceReaderFinishedSplitsForgotten";

    final Counter assignedSplits;
    final Counter finishedSplits;
    final Counter duplicateSplits;
    final Counter finishedSplitsForgotten;

    ReaderBaseMetrics(MetricsContext metrics, FetchQueue<?> queue) {
        this.assignedSplits = counter(metrics, ASSIGNED_SPLITS);
        this.finishedSplits = counter(metrics, FINISHED_SPLITS);
        this.duplicateSplits = counter(metrics, DUPLICATE_SPLITS);
        this.finishedSplitsForgotten = counter(metrics, FINISHED_SPLITS_FORGOTTEN);
        if (metrics != null) {
            SnapshotGauges.register(
                    metrics, FETCH_QUEUE_RECORDS, SnapshotGauges.Kind.LEVEL, queue::records);
            SnapshotGauges.register(
                    metrics, FETCH_QUEUE_BYTES, SnapshotGauges.Kind.LEVEL, queue::bytes);
            SnapshotGauges.register(
                    metrics, FETCH_QUEUE_FULL_WAITS, SnapshotGauges.Kind.TOTAL, queue::fullWaits);
            // A peak of the attempt's own queue: a restored queue starts empty.
            SnapshotGauges.register(
                    metrics,
                    FETCH_QUEUE_PEAK_RECORDS,
                    SnapshotGauges.Kind.LEVEL,
                    queue::peakRecords);
        }
    }

    private static Counter counter(MetricsContext metrics, String name) {
        return metrics == null ? new ThreadSafeCounter(name) : metrics.counter(name);
    }
}
