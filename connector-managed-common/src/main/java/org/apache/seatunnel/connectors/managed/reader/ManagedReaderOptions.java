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

import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;

/**
 * The source options of every connector built on {@link ManagedSourceReaderBase}: the bounds of its
 * fetch side. A connector adds them to its factory's {@code OptionRule} (see {@link #ALL}) and
 * builds its {@link ManagedReaderConfig} with {@link ManagedReaderConfig#from}. Times are whole
 * milliseconds ({@code -ms} keys, as SeaTunnel's own connector options): SeaTunnel 2.3.8 cannot
 * read a duration-typed source option from a job's config. Stateless.
 */
public final class ManagedReaderOptions {
    private ManagedReaderOptions() {}

    public static final Option<Integer> FETCH_QUEUE_MAX_RECORDS =
            Options.key("reader.fetch-queue.max-records")
                    .intType()
                    .defaultValue(4096)
                    .withDescription(
                            "Records fetched but not yet emitted, per reader, across all its fetch"
                                    + " threads; a fetch thread waits when the queue is full. A"
                                    + " single batch larger than the bound is admitted alone.");

    public static final Option<Long> FETCH_QUEUE_MAX_BYTES =
            Options.key("reader.fetch-queue.max-bytes")
                    .longType()
                    .defaultValue(16L * 1024 * 1024)
                    .withDescription(
                            "Estimated bytes of the records fetched but not yet emitted, per"
                                    + " reader (the split reader's estimates).");

    public static final Option<Long> FETCH_EMPTY_BACKOFF_MS =
            Options.key("reader.fetch.empty-backoff-ms")
                    .longType()
                    .defaultValue(5L)
                    .withDescription(
                            "How long a fetch thread waits after a fetch that returned nothing"
                                    + " before fetching again (ended early by new splits,"
                                    + " wakeup or close), so a split reader that does not block"
                                    + " in fetch() does not spin.");

    public static final Option<Long> CLOSE_TIMEOUT_MS =
            Options.key("reader.close-timeout-ms")
                    .longType()
                    .defaultValue(30_000L)
                    .withDescription(
                            "How long close() waits for each fetch thread to stop after waking it;"
                                    + " a thread still running then is interrupted and reported.");

    public static final Option<Integer> LEGACY_POLL_MAX_RECORDS =
            Options.key("reader.legacy-poll.max-records")
                    .intType()
                    .defaultValue(1024)
                    .withDescription(
                            "Lane B only: records one pollNext call emits at most, inside one hold"
                                    + " of the checkpoint lock.");

    public static final Option<Long> LEGACY_POLL_IDLE_WAIT_MS =
            Options.key("reader.legacy-poll.idle-wait-ms")
                    .longType()
                    .defaultValue(100L)
                    .withDescription(
                            "Lane B only: how long a pollNext call that found nothing waits for"
                                    + " fetched records (outside the checkpoint lock) before"
                                    + " returning to the engine.");

    public static final Option<Integer> FINISHED_SPLITS_REMEMBERED =
            Options.key("reader.finished-splits-remembered")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Ids of splits read to their end that a reader remembers, so that one"
                                    + " assigned again is ignored rather than read twice; past"
                                    + " the bound the oldest are forgotten (counted as"
                                    + " ManagedSourceReaderFinishedSplitsForgotten). 0 remembers"
                                    + " none.");

    /** Every option above, for a factory's {@code OptionRule.builder().optional(...)}. */
    public static final Option<?>[] ALL = {
        FETCH_QUEUE_MAX_RECORDS,
        FETCH_QUEUE_MAX_BYTES,
        FETCH_EMPTY_BACKOFF_MS,
        CLOSE_TIMEOUT_MS,
        LEGACY_POLL_MAX_RECORDS,
        LEGACY_POLL_IDLE_WAIT_MS,
        FINISHED_SPLITS_REMEMBERED
    };
}
