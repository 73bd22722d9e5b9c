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

import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.managed.testkit.engine.CollectingSink;
import org.apache.seatunnel.managed.testkit.engine.CollectingSinkFactory;

/**
 * {@code ManagedCollect { run.id = "..." }}: the testkit's {@link CollectingSink} keyed by the
 * ManagedFake payload ({@code fake-<split>:<seq>}), the key {@link Accounting}'s per-split
 * contiguity check parses; the end-to-end jobs and {@code config/managed-demo.conf} name it.
 *
 * <p>Threading: stateless, any thread.
 */
public final class ManagedCollectSinkFactory
        implements TableSinkFactory<SeaTunnelRow, Void, CollectingSink.Batch, Void> {

    public static final String IDENTIFIER = "ManagedCollect";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder().required(CollectingSinkFactory.RUN_ID).build();
    }

    @Override
    public TableSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> createSink(
            TableSinkFactoryContext context) {
        String runId = context.getOptions().get(CollectingSinkFactory.RUN_ID);
        return () -> new CollectingSink(runId, ManagedFakeRows.FIELD_PAYLOAD);
    }
}
