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

package org.apache.seatunnel.connectors.managed.example.range;

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryOptions;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderOptions;

/**
 * {@code ManagedGrowingRange { initial-ranges = 4, ranges-per-discovery = 2, max-ranges = 12,
 * discovery.interval-ms = 200 }}; listed in META-INF/services.
 */
public final class GrowingRangeSourceFactory implements TableSourceFactory {
    static final String IDENTIFIER = "ManagedGrowingRange";

    static final Option<Integer> INITIAL =
            Options.key("initial-ranges").intType().defaultValue(4).withDescription("At start.");
    static final Option<Integer> STEP =
            Options.key("ranges-per-discovery")
                    .intType()
                    .defaultValue(2)
                    .withDescription("Found by each later discovery.");
    static final Option<Integer> MAX =
            Options.key("max-ranges").intType().defaultValue(12).withDescription("In all.");
    static final Option<Long> ROWS =
            Options.key("rows-per-split")
                    .longType()
                    .defaultValue(1000L)
                    .withDescription("Numbers per range.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .optional(INITIAL, STEP, MAX, ROWS)
                .optional(DiscoveryOptions.ALL)
                .optional(ManagedReaderOptions.ALL)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ReadonlyConfig options = context.getOptions();
        GrowingRangeSource source =
                new GrowingRangeSource(
                        options.get(INITIAL),
                        options.get(STEP),
                        options.get(MAX),
                        options.get(ROWS),
                        DiscoveryConfig.from(options),
                        ManagedReaderConfig.from(options));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return GrowingRangeSource.class;
    }
}
