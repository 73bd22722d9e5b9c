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

package org.apache.seatunnel.connectors.managed.kafka;

import java.io.Serializable;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;

/**
 * {@code ManagedKafka}: the stock {@code Kafka} source's options on Lane A. A job moves by naming
 * it through {@code Managed { connector = "ManagedKafka" }} (naming it as the plugin runs it on
 * Lane B); the options are parsed by {@code connector-kafka}'s own {@code KafkaSourceConfig} and
 * checked when the job is planned ({@link ManagedKafkaPlanning}). Listed in {@code
 * META-INF/services/org.apache.seatunnel.api.table.factory.Factory}.
 *
 * <p>This class touches no {@code connector-kafka} class, so the engine can instantiate it in a job
 * whose class path lacks that jar; using it there fails with an error that names the jar.
 *
 * <p>Threading: stateless, any thread.
 */
public final class ManagedKafkaSourceFactory implements TableSourceFactory {
    public static final String IDENTIFIER = "ManagedKafka";

    /** SeaTunnel's Kafka connector, whose classes ManagedKafka reuses; named in the manifest. */
    public static final String STOCK_JAR = "connector-kafka-2.3.8.jar";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    /** The stock {@code Kafka} source's rule, plus the options it reads and the managed ones. */
    @Override
    public OptionRule optionRule() {
        return planning().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ManagedKafkaSource source = create(context.getOptions());
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    /** Validates {@code options} (see {@link ManagedKafkaPlanning}) and builds the source. */
    public ManagedKafkaSource create(ReadonlyConfig options) {
        return planning().create(options);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        planning();
        return ManagedKafkaSource.class;
    }

    private static ManagedKafkaPlanning planning() {
        try {
            return new ManagedKafkaPlanning();
        } catch (NoClassDefFoundError e) {
            throw new IllegalStateException(
                    "ManagedKafka needs SeaTunnel's Kafka connector: "
                            + STOCK_JAR
                            + " is not in this job's class path (put it in connectors/, next to"
                            + " connector-managed-kafka; see docs/en/kafka.md). Missing class: "
                            + e.getMessage(),
                    e);
        }
    }
}
