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

package org.apache.seatunnel.connectors.managed.fake.testing;

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeConfig;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSourceFactory;

/**
 * {@code ManagedFakeTesting { ... }}: the managed FakeSource with every ManagedFake option plus the
 * fault-injection options, reporting to the test probes. Lives in the test-jar of {@code
 * connector-managed-common}, never in the shipped connector. Stateless.
 */
public final class ManagedFakeTestingSourceFactory implements TableSourceFactory {
    public static final String IDENTIFIER = "ManagedFakeTesting";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .optional(
                        new ManagedFakeSourceFactory()
                                .optionRule()
                                .getOptionalOptions()
                                .toArray(new org.apache.seatunnel.api.configuration.Option<?>[0]))
                .optional(
                        ManagedFakeTestingOptions.FAULT_ID,
                        ManagedFakeTestingOptions.FAIL_ONCE_AT_ROW,
                        ManagedFakeTestingOptions.ENUMERATOR_FAIL_ON,
                        ManagedFakeTestingOptions.ENUMERATOR_FAIL_AT_CHECKPOINT,
                        ManagedFakeTestingOptions.HOLD_SNAPSHOT_AT_CHECKPOINT)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ReadonlyConfig options = context.getOptions();
        ManagedFakeSource source =
                new ManagedFakeSource(
                        ManagedFakeConfig.of(options),
                        new ManagedFakeTestingHooks(
                                options.get(ManagedFakeTestingOptions.FAULT_ID),
                                options.get(ManagedFakeTestingOptions.FAIL_ONCE_AT_ROW),
                                options.get(ManagedFakeTestingOptions.ENUMERATOR_FAIL_ON),
                                options.get(
                                        ManagedFakeTestingOptions.ENUMERATOR_FAIL_AT_CHECKPOINT),
                                options.get(
                                        ManagedFakeTestingOptions.HOLD_SNAPSHOT_AT_CHECKPOINT)));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return ManagedFakeSource.class;
    }
}
