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

package org.apache.seatunnel.connectors.managed.conformance;

import java.util.List;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.DefaultSerializer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeConfig;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSourceOptions;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * "JavaSerializedFake": ManagedFake with one connector bug, its splits checkpointed by Java
 * serialization (SeaTunnel's DefaultSerializer), which answers malformed bytes with a
 * RuntimeException instead of an IOException; SERIALIZERS_ROUND_TRIP must fail on it. Only ever
 * packed into the broken jar of {@link ConformanceCommandLineTest}, never registered in this
 * module's test resources.
 */
public final class JavaSerializedFakeSourceFactory implements TableSourceFactory {

    @Override
    public String factoryIdentifier() {
        return "JavaSerializedFake";
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder().optional(ManagedFakeSourceOptions.ALL).build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <
                    T,
                    SplitT extends org.apache.seatunnel.api.source.SourceSplit,
                    StateT extends java.io.Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ManagedFakeConfig config = ManagedFakeConfig.of(context.getOptions());
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) new Source(config);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return Source.class;
    }

    /** ManagedFake with Java-serialized splits. Immutable. */
    static final class Source
            implements SeaTunnelSource<
                            SeaTunnelRow, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>,
                    SupportManagedSource {
        private static final long serialVersionUID = 1L;
        private final ManagedFakeSource fake;

        Source(ManagedFakeConfig config) {
            this.fake = new ManagedFakeSource(config);
        }

        @Override
        public String getPluginName() {
            return "JavaSerializedFake";
        }

        @Override
        public Boundedness getBoundedness() {
            return fake.getBoundedness();
        }

        @Override
        public List<CatalogTable> getProducedCatalogTables() {
            return fake.getProducedCatalogTables();
        }

        @Override
        public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(
                SourceReader.Context context) {
            return fake.createReader(context);
        }

        @Override
        public Serializer<ManagedFakeSplit> getSplitSerializer() {
            return new DefaultSerializer<>();
        }

        @Override
        public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
                createEnumerator(SourceSplitEnumerator.Context<ManagedFakeSplit> context) {
            return fake.createEnumerator(context);
        }

        @Override
        public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
                restoreEnumerator(
                        SourceSplitEnumerator.Context<ManagedFakeSplit> context,
                        NumberedSplitState<ManagedFakeSplit> state) {
            return fake.restoreEnumerator(context, state);
        }

        @Override
        public Serializer<NumberedSplitState<ManagedFakeSplit>> getEnumeratorStateSerializer() {
            return fake.getEnumeratorStateSerializer();
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return fake.managedSourceCapability();
        }

        @Override
        public Serializer<SourceEvent> managedSourceEventSerializer() {
            return fake.managedSourceEventSerializer();
        }
    }
}
