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
import java.util.List;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Boundedness;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.SupportParallelism;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.NumberedSplitState;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * {@code SafetyNetProbe}: a Lane A connector whose reader breaks the poll contract on purpose, for
 * the runtime's safety nets. The managed FakeSource supplies splits, enumerator, serializers and
 * rows; the reader is a {@link SafetyNetReader} in one of three behaviours:
 *
 * <ul>
 *   <li>{@code unsignalled}: rows arrive on the reader's own fetch thread, and the future from
 *       {@code isAvailable()} is never completed;
 *   <li>{@code block}: subtask {@code block.subtask} blocks in its first poll turn that owns a
 *       split (interruptibly, ignoring {@code wakeup()}); every other subtask waits for its fetch
 *       thread's rows inside its turns until the turn's deadline, as a compliant reader does;
 *   <li>{@code off-loop}: the fetch thread advances a split's offset when it fetches a row, not the
 *       poll turn that emits it (a raw-SPI reader that breaks the rule that only turns move
 *       checkpoint-visible state); its availability future is completed after each row.
 * </ul>
 *
 * <p>Threading: immutable.
 */
public final class SafetyNetSource
        implements SeaTunnelSource<
                        SeaTunnelRow, ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>,
                SupportParallelism,
                SupportManagedSource {
    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "SafetyNetProbe";

    static final ManagedSourceCapability CAPABILITY =
            ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();

    private final ManagedFakeSource fake;
    private final Settings settings;

    SafetyNetSource(ManagedFakeSource fake, Settings settings) {
        this.fake = fake;
        this.settings = settings;
    }

    @Override
    public ManagedSourceCapability managedSourceCapability() {
        return CAPABILITY;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
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
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(SourceReader.Context ctx) {
        return new SafetyNetReader(ctx, fake.config(), settings);
    }

    @Override
    public Serializer<ManagedFakeSplit> getSplitSerializer() {
        return fake.getSplitSerializer();
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            createEnumerator(SourceSplitEnumerator.Context<ManagedFakeSplit> ctx) throws Exception {
        return fake.createEnumerator(ctx);
    }

    @Override
    public SourceSplitEnumerator<ManagedFakeSplit, NumberedSplitState<ManagedFakeSplit>>
            restoreEnumerator(
                    SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
                    NumberedSplitState<ManagedFakeSplit> state)
                    throws Exception {
        return fake.restoreEnumerator(ctx, state);
    }

    @Override
    public Serializer<NumberedSplitState<ManagedFakeSplit>> getEnumeratorStateSerializer() {
        return fake.getEnumeratorStateSerializer();
    }

    /** The probe's own options; immutable. */
    static final class Settings implements Serializable {
        private static final long serialVersionUID = 1L;

        final String behaviour;
        final int blockSubtask;
        final long rowArrivalMillis;

        Settings(String behaviour, int blockSubtask, long rowArrivalMillis) {
            this.behaviour = behaviour;
            this.blockSubtask = blockSubtask;
            this.rowArrivalMillis = rowArrivalMillis;
        }

        boolean blocks(int subtask) {
            return "block".equals(behaviour) && subtask == blockSubtask;
        }
    }
}
