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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.connectors.managed.reader.SourceOptionRange;

/**
 * The options {@code ManagedIceberg} adds to the stock {@code Iceberg} source's options and the
 * kit's {@code discovery.*} options. Immutable holder.
 */
public final class ManagedIcebergOptions {
    private ManagedIcebergOptions() {}

    public static final Option<Integer> FETCH_BATCH_ROWS =
            Options.key("managed.fetch.batch-rows")
                    .intType()
                    .defaultValue(512)
                    .withDescription(
                            "Rows one fetch of the split reader reads from a data file before it"
                                    + " hands them to the reader loop.");

    public static final List<Option<?>> ALL =
            Collections.unmodifiableList(Arrays.<Option<?>>asList(FETCH_BATCH_ROWS));

    /** The validated values of one job's options. Immutable. */
    static final class Values implements Serializable {
        private static final long serialVersionUID = 1L;

        final int fetchBatchRows;

        private Values(int fetchBatchRows) {
            this.fetchBatchRows = fetchBatchRows;
        }

        static Values from(ReadonlyConfig options) {
            return new Values(
                    (int)
                            SourceOptionRange.check(
                                    FETCH_BATCH_ROWS,
                                    options.get(FETCH_BATCH_ROWS).longValue(),
                                    1,
                                    1_000_000));
        }
    }
}
