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
 * {@code RestoreProbe}: a streaming test connector, usable on both lanes, that shows what a reader
 * failure restores. Two splits ({@code fake-0}, {@code fake-1}) whose position is the next sequence
 * number, read by one reader at a steady pace, with the rows of {@link ManagedFakeRows}; the reader
 * fails once per run at {@code fail.at} ({@code snapshot}: inside its {@code snapshotState} of
 * checkpoint {@code fail.checkpoint}; {@code complete}: in its {@code notifyCheckpointComplete} of
 * it; {@code poll-after-complete}: in its first poll after that notification). {@link RestoreProbe}
 * records what each reader attempt received and what the enumerator was given.
 *
 * <p>Threading: immutable and {@link Serializable}; the engine ships it to every member.
 */
public final class RestoreProbeSource extends FakeSplitTestSource {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "RestoreProbe";

    static final int SPLIT_COUNT = 2;

    /** Where the reader fails once per run. */
    enum FailAt {
        SNAPSHOT("snapshot"),
        COMPLETE("complete"),
        POLL_AFTER_COMPLETE("poll-after-complete");

        final String option;

        FailAt(String option) {
            this.option = option;
        }

        static FailAt of(String option) {
            for (FailAt f : values()) {
                if (f.option.equals(option)) {
                    return f;
                }
            }
            throw new IllegalArgumentException(
                    "fail.at must be snapshot, complete or poll-after-complete: " + option);
        }
    }

    private final Settings settings;

    RestoreProbeSource(Settings settings) {
        this.settings = settings;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SourceReader<SeaTunnelRow, ManagedFakeSplit> createReader(SourceReader.Context ctx) {
        return new RestoreProbeReader(ctx, settings);
    }

    @Override
    protected SourceSplitEnumerator<ManagedFakeSplit, ArrayList<ManagedFakeSplit>> enumerator(
            SourceSplitEnumerator.Context<ManagedFakeSplit> ctx,
            ArrayList<ManagedFakeSplit> restored) {
        return new RestoreProbeEnumerator(ctx, settings, restored);
    }

    /** The connector's options; immutable. */
    static final class Settings implements Serializable {
        private static final long serialVersionUID = 1L;

        final String runId;
        final FailAt failAt;
        final long failCheckpoint;
        final long rowIntervalMillis;
        final boolean brokenResetReturned;

        Settings(
                String runId,
                FailAt failAt,
                long failCheckpoint,
                long rowIntervalMillis,
                boolean brokenResetReturned) {
            this.runId = runId;
            this.failAt = failAt;
            this.failCheckpoint = failCheckpoint;
            this.rowIntervalMillis = rowIntervalMillis;
            this.brokenResetReturned = brokenResetReturned;
        }
    }
}
