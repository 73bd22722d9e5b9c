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
import java.util.ArrayList;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSplit;

/**
 * {@code CutRace}: a streaming test connector, usable on both lanes, that forces the
 * coordinator-first cut of docs/en/architecture.md hazard 1. Two splits of {@code rows.per.split}
 * numbered rows each, with the schema and payloads of {@link ManagedFakeRows} ({@code
 * fake-<split>:<seq>}), so {@link ManagedCollectSinkFactory} and {@link Accounting} check them. S0
 * is assigned at registration; S1 stays pending until the enumerator snapshotted the first
 * checkpoint N and is assigned right after it, while the reader holds its checkpoint lock (see
 * {@link CutRaceProbe} for the handshake, {@link CutRaceEnumerator} and {@link CutRaceReader} for
 * each side).
 *
 * <p>Threading: immutable and {@link Serializable}; the engine ships it to every member.
 *
 * <p>Like many real connectors, the enumerator keeps its pending splits in a plain list and the
 * reader reads whatever it is given: a split handed out twice is read twice. That is what turns the
 * stock path's inconsistent cut into duplicate rows.
 */
public final class CutRaceSource extends FakeSplitTestSource {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "CutRace";

    static final int SPLIT_COUNT = 2;
    static final int S0 = 0;
    static final int S1 = 1;

    private final Settings settings;

    CutRaceSource(Settings settings) {
        this.settings = settings;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(SourceReader.Context ctx) {
        return new CutRaceReader(ctx, settings);
    }

    @Override
    protected SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> enumerator(
            SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
            ArrayList<ManagedFakeSplit> restored) {
        return new CutRaceEnumerator(ctx, settings, restored);
    }

    /** The connector's options; immutable. */
    static final class Settings implements Serializable {
        private static final long serialVersionUID = 1L;

        final String runId;
        final long rowsPerSplit;
        final long rowIntervalMillis;
        final long holdMillis;
        final long assignDelayMillis;

        Settings(
                String runId,
                long rowsPerSplit,
                long rowIntervalMillis,
                long holdMillis,
                long assignDelayMillis) {
            this.runId = runId;
            this.rowsPerSplit = rowsPerSplit;
            this.rowIntervalMillis = rowIntervalMillis;
            this.holdMillis = holdMillis;
            this.assignDelayMillis = assignDelayMillis;
        }
    }
}
