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

package org.apache.seatunnel.connectors.managed.fake;

import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;

/** The options of the {@code ManagedFake} source, declared with SeaTunnel's option API. */
public final class ManagedFakeSourceOptions {

    public static final Option<Integer> SPLIT_COUNT =
            Options.key("split.count")
                    .intType()
                    .defaultValue(5)
                    .withDescription("Number of splits; split n is assigned to subtask n % p.");

    public static final Option<Long> ROWS_PER_SPLIT =
            Options.key("rows.per.split")
                    .longType()
                    .defaultValue(20L)
                    .withDescription(
                            "Rows per split when bounded or discovered; ignored otherwise.");

    public static final Option<Boolean> BOUNDED =
            Options.key("bounded")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Bounded splits finish after rows.per.split rows; unbounded never do.");

    public static final Option<Long> ROWS_PER_SECOND =
            Options.key("rows.per.second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "Rate limit per reader in rows per second, paced in batches of about"
                                    + " 10 ms of rows (one row at a time below 200 rows/s);"
                                    + " 0 = unlimited.");

    public static final Option<Long> SLOW_DATA_MILLIS =
            Options.key("slow.data.millis")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "Time until the next chunk of data is there (a slow query or HTTP"
                                    + " call); 0 = data is always there.");

    public static final Option<Boolean> SLOW_DATA_JITTER =
            Options.key("slow.data.jitter")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Draw each slow-data delay uniformly from [0.5x, 1.5x]"
                                    + " slow.data.millis.");

    public static final Option<Boolean> DATES_COLUMN =
            Options.key("dates.column")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Adds a fifth column, days ARRAY<DATE>, of three dates per row: a type"
                                    + " SeaTunnel sizes only by the row type, so rows that carry"
                                    + " it show whether a lane sizes rows as the engine does.");

    public static final Option<String> SOURCE_EVENT_RUN_ID =
            Options.key("source.event.run.id")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "When set, the enumerator sends one source event carrying this id to"
                                    + " each reader after it registers (the stock engine drops"
                                    + " it; Lane A delivers it).");

    public static final Option<Long> DISCOVERY_SPLITS_PER_SECOND =
            Options.key("discovery.splits.per.second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "Unbounded only: the enumerator discovers this many new splits per"
                                    + " second after the split.count initial ones, each of"
                                    + " rows.per.split rows (as a streaming source finds new"
                                    + " partitions or files); 0 = no discovery.");

    /** Every option above, in the order the docs list them (docs/en/managed-fake.md). */
    public static final Option<?>[] ALL = {
        SPLIT_COUNT,
        ROWS_PER_SPLIT,
        BOUNDED,
        ROWS_PER_SECOND,
        SLOW_DATA_MILLIS,
        SLOW_DATA_JITTER,
        DATES_COLUMN,
        SOURCE_EVENT_RUN_ID,
        DISCOVERY_SPLITS_PER_SECOND
    };

    private ManagedFakeSourceOptions() {}
}
