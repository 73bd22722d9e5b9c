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
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;

/**
 * {@code ManagedIceberg}: the stock {@code Iceberg} source's options on Lane A. A job moves by
 * naming it through {@code Managed { connector = "ManagedIceberg" }} (naming it as the plugin runs
 * it on Lane B); the options are parsed by {@code connector-iceberg}'s own {@code SourceConfig} and
 * checked, and the table's schema loaded, when the job is planned ({@link ManagedIcebergPlanning}).
 * Listed in {@code META-INF/services/org.apache.seatunnel.api.table.factory.Factory}.
 *
 * <p>This class touches no {@code connector-iceberg} class, so the engine can instantiate it in a
 * job whose class path lacks that jar; using it there fails with an error that names the jar.
 *
 * <p>Threading: stateless, any thread.
 */
public final class ManagedIcebergSourceFactory implements TableSourceFactory {
    public static final String IDENTIFIER = "ManagedIceberg";

    /**
     * SeaTunnel's Iceberg connector, whose classes ManagedIceberg reuses; named in the manifest.
     */
    public static final String STOCK_JAR = "connector-iceberg-2.3.8.jar";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    /** The stock {@code Iceberg} source's rule, plus the options it reads and the managed ones. */
    @Override
    public OptionRule optionRule() {
        return planning().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ManagedIcebergSource source = create(context.getOptions());
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    /** Validates {@code options} (see {@link ManagedIcebergPlanning}) and builds the source. */
    public ManagedIcebergSource create(ReadonlyConfig options) {
        return planning().create(options);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        planning();
        return ManagedIcebergSource.class;
    }

    private static ManagedIcebergPlanning planning() {
        try {
            return new ManagedIcebergPlanning();
        } catch (NoClassDefFoundError e) {
            throw new IllegalStateException(
                    "ManagedIceberg needs SeaTunnel's Iceberg connector: "
                            + STOCK_JAR
                            + " is not in this job's class path (put it in connectors/, next to"
                            + " connector-managed-iceberg; see docs/en/iceberg.md). Missing class: "
                            + e.getMessage(),
                    e);
        }
    }
}
