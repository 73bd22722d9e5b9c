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

package org.apache.seatunnel.engine.managed.e2e;

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeConfig;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSourceOptions;

/**
 * Creates {@link SlowDiscoverySource} from {@code SlowDiscovery { ... }} or through {@code
 * Managed}. Stateless.
 */
public final class SlowDiscoverySourceFactory implements TableSourceFactory {

    public static final Option<String> RUN_ID =
            Options.key("run.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Key of the SlowDiscoveryProbe entry this run reports to.");

    public static final Option<Integer> BURST =
            Options.key("discovery.burst")
                    .intType()
                    .defaultValue(2)
                    .withDescription("Discoveries (distinct keys) submitted at once on open.");

    public static final Option<Long> DISCOVERY_MILLIS =
            Options.key("discovery.millis")
                    .longType()
                    .defaultValue(5000L)
                    .withDescription("How long each discovery takes (unless the probe releases).");

    @Override
    public String factoryIdentifier() {
        return SlowDiscoverySource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .required(RUN_ID)
                .optional(
                        BURST,
                        DISCOVERY_MILLIS,
                        ManagedFakeSourceOptions.SPLIT_COUNT,
                        ManagedFakeSourceOptions.ROWS_PER_SPLIT,
                        ManagedFakeSourceOptions.BOUNDED,
                        ManagedFakeSourceOptions.ROWS_PER_SECOND)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ManagedFakeConfig config = ManagedFakeConfig.of(context.getOptions());
        String runId = context.getOptions().get(RUN_ID);
        int burst = context.getOptions().get(BURST);
        long millis = context.getOptions().get(DISCOVERY_MILLIS);
        return () ->
                (SeaTunnelSource<T, SplitT, StateT>)
                        (Object)
                                new SlowDiscoverySource(
                                        new ManagedFakeSource(config), runId, burst, millis);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return SlowDiscoverySource.class;
    }
}
