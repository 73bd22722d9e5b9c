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

package org.apache.seatunnel.connectors.managed.kafka;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.managed.reader.SourceOptionRange;

/**
 * The options {@code ManagedKafka} adds to the stock {@code Kafka} source's options: the bounds of
 * its metadata calls and of offsets waiting for their checkpoint to complete. Immutable holder.
 */
public final class ManagedKafkaOptions {
    private ManagedKafkaOptions() {}

    public static final Option<Long> DISCOVERY_TIMEOUT_MS =
            Options.key("managed.discovery.timeout-ms")
                    .longType()
                    .defaultValue(30_000L)
                    .withDescription(
                            "Bound of one partition discovery (list topics, describe them,"
                                    + " resolve start and end offsets) on the coordinator's"
                                    + " worker pool; the first discovery failing fails the job.");

    public static final Option<Long> COMMIT_TIMEOUT_MS =
            Options.key("managed.commit.timeout-ms")
                    .longType()
                    .defaultValue(30_000L)
                    .withDescription(
                            "Bound of one offset commit on checkpoint complete; a commit that"
                                    + " fails or times out is counted and superseded by the"
                                    + " next checkpoint's.");

    public static final Option<Integer> COMMIT_MAX_PENDING_CHECKPOINTS =
            Options.key("managed.commit.max-pending-checkpoints")
                    .intType()
                    .defaultValue(32)
                    .withDescription(
                            "Snapshots whose offsets wait for their checkpoint to complete, per"
                                    + " reader; beyond it the oldest are dropped (a later"
                                    + " checkpoint commits newer offsets).");

    public static final List<Option<?>> ALL =
            Collections.unmodifiableList(
                    Arrays.<Option<?>>asList(
                            DISCOVERY_TIMEOUT_MS,
                            COMMIT_TIMEOUT_MS,
                            COMMIT_MAX_PENDING_CHECKPOINTS));

    /** The validated values of one job's options. Immutable. */
    static final class Values implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final long discoveryTimeoutMs;
        final long commitTimeoutMs;
        final int maxPendingCheckpoints;

        private Values(long discoveryTimeoutMs, long commitTimeoutMs, int maxPendingCheckpoints) {
            this.discoveryTimeoutMs = discoveryTimeoutMs;
            this.commitTimeoutMs = commitTimeoutMs;
            this.maxPendingCheckpoints = maxPendingCheckpoints;
        }

        static Values from(ReadonlyConfig options) {
            return new Values(
                    inRange(options, DISCOVERY_TIMEOUT_MS, 100, 600_000),
                    inRange(options, COMMIT_TIMEOUT_MS, 100, 600_000),
                    (int) inRange(options, COMMIT_MAX_PENDING_CHECKPOINTS, 1, 10_000));
        }

        private static long inRange(
                ReadonlyConfig options, Option<? extends Number> option, long min, long max) {
            return SourceOptionRange.check(option, options.get(option).longValue(), min, max);
        }
    }
}
