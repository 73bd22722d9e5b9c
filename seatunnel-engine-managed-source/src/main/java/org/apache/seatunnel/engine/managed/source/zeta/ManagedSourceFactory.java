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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.Factory;
import org.apache.seatunnel.api.table.factory.FactoryUtil;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;

/**
 * The {@code Managed} source of a job's HOCON: {@code source { Managed { connector = "ManagedFake",
 * job-name = "orders", ... } }}. It builds the named connector with the remaining options; the lane
 * is chosen once per deployment on the member that deserializes the plan (see {@link
 * PendingLaneSource}), travels inside the planned source and is checked again on every restore.
 *
 * <p>Threading: stateless, any thread.
 */
public final class ManagedSourceFactory implements TableSourceFactory {
    public static final String IDENTIFIER = "Managed";

    public static final Option<String> CONNECTOR =
            Options.key("connector")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Factory identifier of the managed connector to run.");

    public static final Option<String> JOB_NAME =
            Options.key("job-name")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Fallback name matched against managed-source.allowed-jobs when the"
                                    + " job has no env.job.name of its own; defaults to the"
                                    + " connector identifier.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return SeaTunnelSource.class;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder().required(CONNECTOR).optional(JOB_NAME).build();
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        String connector = context.getOptions().get(CONNECTOR);
        if (connector == null || connector.isEmpty() || IDENTIFIER.equals(connector)) {
            throw new IllegalArgumentException(
                    "Managed source option 'connector' must name another source connector");
        }
        String jobName = context.getOptions().get(JOB_NAME);
        TableSourceFactory inner = innerFactory(context.getClassLoader(), connector);
        TableSource innerTable = inner.createSource(context);
        // The lane is chosen on the member that deserializes the plan, never here: this may be the
        // client's JVM, whose settings are not the cluster's (PendingLaneSource).
        return () -> PendingLaneSource.of(innerTable.createSource(), connector, jobName);
    }

    /**
     * The named connector's factory. SeaTunnel 2.3.8 reports a failure here to a REST submitter
     * only as "Unable to create a source for identifier 'Managed'", so the cause, which the engine
     * logs, names the connector, what the job's class path offers and where the jar goes.
     */
    static TableSourceFactory innerFactory(ClassLoader classLoader, String connector) {
        List<TableSourceFactory> found = new ArrayList<>();
        for (Factory f : FactoryUtil.discoverFactories(classLoader)) {
            if (f instanceof TableSourceFactory) {
                found.add((TableSourceFactory) f);
            }
        }
        List<String> offered = new ArrayList<>();
        for (TableSourceFactory f : found) {
            if (f.factoryIdentifier().equals(connector)) {
                return f;
            }
            if (!IDENTIFIER.equals(f.factoryIdentifier())) {
                offered.add(f.factoryIdentifier());
            }
        }
        Collections.sort(offered);
        throw new IllegalArgumentException(
                "Managed source: connector '"
                        + connector
                        + "' is not installed for this job (sources in its class path: "
                        + offered
                        + "). A managed connector's jar goes into connectors/ with the plugin"
                        + " archive's mapping lines; see docs/en/install.md");
    }
}
