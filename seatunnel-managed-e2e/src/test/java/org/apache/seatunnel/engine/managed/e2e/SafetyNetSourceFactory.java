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
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSourceFactory;

/** Creates {@link SafetyNetSource}: the {@code ManagedFake} options plus its own. Stateless. */
public final class SafetyNetSourceFactory implements TableSourceFactory {

    public static final Option<String> BEHAVIOUR =
            Options.key("behaviour")
                    .stringType()
                    .defaultValue("unsignalled")
                    .withDescription("unsignalled, block or off-loop (see SafetyNetSource).");

    public static final Option<Integer> BLOCK_SUBTASK =
            Options.key("block.subtask")
                    .intType()
                    .defaultValue(0)
                    .withDescription("The subtask that blocks in a poll turn (behaviour block).");

    public static final Option<Long> ROW_ARRIVAL_MILLIS =
            Options.key("row.arrival.millis")
                    .longType()
                    .defaultValue(10L)
                    .withDescription("The fetch thread makes one row available per interval.");

    @Override
    public String factoryIdentifier() {
        return SafetyNetSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        OptionRule fake = new ManagedFakeSourceFactory().optionRule();
        return OptionRule.builder()
                .optional(fake.getOptionalOptions().toArray(new Option<?>[0]))
                .optional(BEHAVIOUR, BLOCK_SUBTASK, ROW_ARRIVAL_MILLIS)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ManagedFakeConfig config = ManagedFakeConfig.of(context.getOptions());
        SafetyNetSource.Settings settings =
                new SafetyNetSource.Settings(
                        context.getOptions().get(BEHAVIOUR),
                        context.getOptions().get(BLOCK_SUBTASK),
                        context.getOptions().get(ROW_ARRIVAL_MILLIS));
        return () ->
                (SeaTunnelSource<T, SplitT, StateT>)
                        (Object) new SafetyNetSource(new ManagedFakeSource(config), settings);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return SafetyNetSource.class;
    }
}
