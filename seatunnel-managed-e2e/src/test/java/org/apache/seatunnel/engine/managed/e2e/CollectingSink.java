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
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;

/**
 * A test sink ({@code ManagedCollect}) that records the payload of every row into {@link
 * CollectedRows} under its {@code run.id}: on {@code write} (at-least-once view) and, through a
 * committer, once the checkpoint that covered the row completed (the transactional view that
 * exactly-once after a restore is judged by).
 *
 * <p>Threading: immutable and serializable; the engine ships it to every member of this JVM.
 */
public final class CollectingSink
        implements SeaTunnelSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> {

    private static final long serialVersionUID = 1L;

    public static final String IDENTIFIER = "ManagedCollect";

    private final String runId;

    CollectingSink(String runId) {
        this.runId = runId;
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Batch, Void> createWriter(SinkWriter.Context context) {
        CollectedRows.of(runId).recordWriterCreated();
        return new Writer(runId);
    }

    @Override
    public Optional<SinkCommitter<Batch>> createCommitter() {
        return Optional.of(new Committer(runId));
    }

    @Override
    public Optional<Serializer<Batch>> getCommitInfoSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    /** The payloads written between two barriers. */
    public static final class Batch implements Serializable {
        private static final long serialVersionUID = 1L;
        final ArrayList<String> payloads;

        Batch(List<String> payloads) {
            this.payloads = new ArrayList<>(payloads);
        }
    }

    /**
     * Threading: {@code write} on the sink task's thread; {@code prepareCommit} on the same task
     * thread when a barrier passes. No other thread touches {@code pending}.
     */
    private static final class Writer implements SinkWriter<SeaTunnelRow, Batch, Void> {
        private final CollectedRows rows;
        private final List<String> pending = new ArrayList<>();

        Writer(String runId) {
            this.rows = CollectedRows.of(runId);
        }

        @Override
        public void write(SeaTunnelRow element) {
            String payload = (String) element.getField(ManagedFakeRows.FIELD_PAYLOAD);
            rows.recordWritten(payload);
            pending.add(payload);
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
     * Threading: the engine calls {@code commit} from {@code notifyCheckpointComplete}, on a
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
                CollectedRows.of(runId).recordCommitted(batch.payloads);
            }
            return Collections.emptyList();
        }

        @Override
        public void abort(List<Batch> commitInfos) {}
    }
}
