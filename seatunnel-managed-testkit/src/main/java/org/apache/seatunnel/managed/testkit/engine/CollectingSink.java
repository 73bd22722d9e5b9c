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

package org.apache.seatunnel.managed.testkit.engine;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.seatunnel.api.serialization.DefaultSerializer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkCommitter;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * An exactly-once test sink ({@value #IDENTIFIER}) for rows of any type: it records a stable string
 * key per row ({@link RowKeys}) into {@link CollectedRows} under its {@code run.id}, on {@code
 * write} (the at-least-once view, replays after a restore included) and, through a committer, once
 * the checkpoint that covered the row completed (the transactional view that exactly-once is judged
 * by).
 *
 * <p>Threading: immutable and serializable; the engine ships it to every member of this JVM.
 *
 * <p>The committer is a plain {@link SinkCommitter}: Zeta keeps its commit info in memory and
 * commits it when the checkpoint completes. That is exactly-once for every failure a test provokes
 * on the engine's tasks (reader or enumerator failures, cancel, savepoint and restore), but not for
 * the death of a member between storing a checkpoint and notifying it (the batch of that interval
 * is then lost); tests that kill members need a sink with an aggregated committer.
 */
public final class CollectingSink
        implements SeaTunnelSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "TestkitCollect";

    /** {@link #keyField} for "the whole row is the key". */
    public static final int WHOLE_ROW = -1;

    private final String runId;
    private final int keyField;

    /**
     * @param runId the {@link CollectedRows} entry this sink fills
     * @param keyField the index of the field whose value is a row's key ({@link RowKeys#fieldKey}),
     *     or {@link #WHOLE_ROW} for {@link RowKeys#of(SeaTunnelRow)}
     */
    public CollectingSink(String runId, int keyField) {
        if (keyField < WHOLE_ROW) {
            throw new IllegalArgumentException("keyField must be >= 0 or WHOLE_ROW: " + keyField);
        }
        this.runId = runId;
        this.keyField = keyField;
    }

    /** The key this sink records for {@code row}. */
    public String keyOf(SeaTunnelRow row) {
        return keyField == WHOLE_ROW ? RowKeys.of(row) : RowKeys.fieldKey(row.getField(keyField));
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Batch, Void> createWriter(SinkWriter.Context context) {
        CollectedRows.of(runId).recordWriterCreated();
        return new Writer(this);
    }

    @Override
    public Optional<SinkCommitter<Batch>> createCommitter() {
        return Optional.of(new Committer(runId));
    }

    @Override
    public Optional<Serializer<Batch>> getCommitInfoSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    /** The keys of the rows written between two barriers. */
    public static final class Batch implements Serializable {
        private static final long serialVersionUID = 1L;
        final ArrayList<String> keys;

        Batch(List<String> keys) {
            this.keys = new ArrayList<>(keys);
        }
    }

    /**
     * Records each row's key as written and collects the keys of the current checkpoint interval.
     *
     * <p>Threading: {@code write} on the sink task's thread; {@code prepareCommit} on the same task
     * thread when a barrier passes. No other thread touches {@code pending}.
     */
    private static final class Writer implements SinkWriter<SeaTunnelRow, Batch, Void> {
        private final CollectingSink sink;
        private final CollectedRows rows;
        private final List<String> pending = new ArrayList<>();

        Writer(CollectingSink sink) {
            this.sink = sink;
            this.rows = CollectedRows.of(sink.runId);
        }

        @Override
        public void write(SeaTunnelRow element) {
            String key = sink.keyOf(element);
            rows.recordWritten(key);
            pending.add(key);
        }

        @Override
        public Optional<Batch> prepareCommit() {
            Batch batch = new Batch(pending);
            pending.clear();
            return Optional.of(batch);
        }

        @Override
        public void abortPrepare() {}

        @Override
        public void close() {}
    }

    /**
     * Records the keys of a completed checkpoint's batches as committed.
     *
     * <p>Threading: the engine calls {@code commit} from {@code notifyCheckpointComplete}, on a
     * Hazelcast operation thread; {@link CollectedRows} is concurrent.
     */
    private static final class Committer implements SinkCommitter<Batch> {
        private static final long serialVersionUID = 1L;
        private final String runId;

        Committer(String runId) {
            this.runId = runId;
        }

        @Override
        public List<Batch> commit(List<Batch> commitInfos) throws IOException {
            for (Batch batch : commitInfos) {
                CollectedRows.of(runId).recordCommitted(batch.keys);
            }
            return Collections.emptyList();
        }

        @Override
        public void abort(List<Batch> commitInfos) {}
    }
}
