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

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderOptions;
import org.apache.seatunnel.connectors.managed.reader.UnknownOptions;

/**
 * Creates {@link ManagedFakeSource} from a job config block {@code ManagedFake { ... }}. Found by
 * the engine through {@code META-INF/services/org.apache.seatunnel.api.table.factory.Factory}. A
 * key it does not know fails planning, naming it ({@link UnknownOptions}). Stateless.
 */
public final class ManagedFakeSourceFactory implements TableSourceFactory {

    @Override
    public String factoryIdentifier() {
        return ManagedFakeSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .optional(ManagedFakeSourceOptions.ALL)
                .optional(ManagedReaderOptions.ALL)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        UnknownOptions.reject(
                ManagedFakeSource.IDENTIFIER,
                context.getOptions(),
                optionRule(),
                java.util.Collections.<String>emptyList());
        ManagedFakeConfig config = ManagedFakeConfig.of(context.getOptions());
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) new ManagedFakeSource(config);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return ManagedFakeSource.class;
    }
}
