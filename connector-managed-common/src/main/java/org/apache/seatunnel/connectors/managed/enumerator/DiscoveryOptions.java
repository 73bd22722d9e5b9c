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

import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;

/**
 * The source options of a connector whose enumerator is a {@link DiscoveringSplitEnumerator}: when
 * it discovers, how long one discovery may take, and the bounds that keep a discovery that finds a
 * very large number of splits from growing the coordinator's memory. A connector adds {@link #ALL}
 * to its factory's {@code OptionRule} and builds its {@link DiscoveryConfig} with {@link
 * DiscoveryConfig#from}. Stateless.
 */
public final class DiscoveryOptions {
    private DiscoveryOptions() {}

    public static final Option<Long> INTERVAL_MS =
            Options.key("discovery.interval-ms")
                    .longType()
                    .defaultValue(1000L)
                    .withDescription(
                            "Greater than 0: discover again this long after the previous discovery"
                                    + " returned. 0: discover when a reader asks for splits and"
                                    + " none are waiting for it. -1: discover only at start.");

    public static final Option<Long> TIMEOUT_MS =
            Options.key("discovery.timeout-ms")
                    .longType()
                    .defaultValue(60_000L)
                    .withDescription(
                            "Bound of one discovery on the coordinator's worker pool; a discovery"
                                    + " that takes longer counts as failed.");

    public static final Option<Integer> MAX_PENDING_SPLITS =
            Options.key("discovery.max-pending-splits")
                    .intType()
                    .defaultValue(10_000)
                    .withDescription(
                            "Discovered splits not yet assigned to a reader at which discovery"
                                    + " pauses until readers took some; each discovery is asked"
                                    + " for at most the difference.");

    public static final Option<Integer> MAX_CONSECUTIVE_FAILURES =
            Options.key("discovery.max-consecutive-failures")
                    .intType()
                    .defaultValue(10)
                    .withDescription(
                            "Discoveries after the first that may fail in a row (each logged and"
                                    + " retried at the next interval) before the job fails. The"
                                    + " first discovery failing fails the job at once.");

    /** Every option above, for {@code OptionRule.builder().optional(DiscoveryOptions.ALL)}. */
    public static final Option<?>[] ALL = {
        INTERVAL_MS, TIMEOUT_MS, MAX_PENDING_SPLITS, MAX_CONSECUTIVE_FAILURES
    };
}
