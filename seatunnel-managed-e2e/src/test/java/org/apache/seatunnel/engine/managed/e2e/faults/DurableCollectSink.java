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

package org.apache.seatunnel.engine.managed.e2e.faults;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.DefaultSerializer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkAggregatedCommitter;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.managed.testkit.engine.RowKeys;

/**
 * An exactly-once test sink ({@value #IDENTIFIER}) that survives the death of a member: its commits
 * go through a {@link SinkAggregatedCommitter}, whose task checkpoints the aggregated batches and
 * commits them again on restore, so a batch whose checkpoint was stored but never notified is
 * committed after the restore instead of lost. Commits are idempotent by batch id. The row key is
 * ManagedFake's payload ({@code fake-<split>:<seq>}).
 *
 * <p>Threading: writers run on the sink tasks' threads; the committer on the committer task's; the
 * registry is concurrent.
 */
public final class DurableCollectSink
        implements SeaTunnelSink<
                SeaTunnelRow, Void, DurableCollectSink.Batch, DurableCollectSink.Batches> {
    private static final long serialVersionUID = 1L;
    public static final String IDENTIFIER = "ManagedDurableCollect";

    private static final Map<String, Set<String>> BATCHES = new ConcurrentHashMap<>();
    private static final Map<String, ConcurrentLinkedQueue<String>> COMMITTED =
            new ConcurrentHashMap<>();

    private final String runId;

    DurableCollectSink(String runId) {
        this.runId = runId;
    }

    /** The keys committed for {@code runId}, each batch once. */
    public static List<String> committed(String runId) {
        ConcurrentLinkedQueue<String> q = COMMITTED.get(runId);
        return q == null ? new ArrayList<>() : new ArrayList<>(q);
    }

    public static void clear(String runId) {
        COMMITTED.remove(runId);
        BATCHES.remove(runId);
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Batch, Void> createWriter(SinkWriter.Context context) {
        return new Writer();
    }

    @Override
    public Optional<Serializer<Batch>> getCommitInfoSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    @Override
    public Optional<SinkAggregatedCommitter<Batch, Batches>> createAggregatedCommitter() {
        return Optional.of(new Committer(runId));
    }

    @Override
    public Optional<Serializer<Batches>> getAggregatedCommitInfoSerializer() {
        return Optional.of(new DefaultSerializer<>());
    }

    /** The keys one writer attempt wrote between two barriers, under an id of its own. */
    public static final class Batch implements Serializable {
        private static final long serialVersionUID = 1L;
        final String id;
        final ArrayList<String> keys;

        Batch(String id, List<String> keys) {
            this.id = id;
            this.keys = new ArrayList<>(keys);
        }
    }

    /** The batches of one checkpoint. */
    public static final class Batches implements Serializable {
        private static final long serialVersionUID = 1L;
        final ArrayList<Batch> batches;

        Batches(List<Batch> batches) {
            this.batches = new ArrayList<>(batches);
        }
    }

    /** Collects the interval's keys. Threading: the sink task's thread only. */
    private static final class Writer implements SinkWriter<SeaTunnelRow, Batch, Void> {
        private final String attempt = UUID.randomUUID().toString();
        private final List<String> pending = new ArrayList<>();
        private long sequence;

        @Override
        public void write(SeaTunnelRow element) {
            pending.add(RowKeys.fieldKey(element.getField(ManagedFakeRows.FIELD_PAYLOAD)));
        }

        @Override
        public Optional<Batch> prepareCommit() {
            Batch b = new Batch(attempt + "/" + (++sequence), pending);
            pending.clear();
            return Optional.of(b);
        }

        @Override
        public void abortPrepare() {}

        @Override
        public void close() {}
    }

    /** Commits each batch once, whether first or again on restore. Threading: its task's thread. */
    private static final class Committer implements SinkAggregatedCommitter<Batch, Batches> {
        private static final long serialVersionUID = 1L;
        private final String runId;

        Committer(String runId) {
            this.runId = runId;
        }

        @Override
        public List<Batches> commit(List<Batches> infos) {
            Set<String> done = BATCHES.computeIfAbsent(runId, k -> ConcurrentHashMap.newKeySet());
            ConcurrentLinkedQueue<String> keys =
                    COMMITTED.computeIfAbsent(runId, k -> new ConcurrentLinkedQueue<>());
            for (Batches bs : infos) {
                for (Batch b : bs.batches) {
                    if (done.add(b.id)) {
                        keys.addAll(b.keys);
                    }
                }
            }
            return new ArrayList<>();
        }

        @Override
        public Batches combine(List<Batch> commitInfos) {
            return new Batches(commitInfos);
        }

        @Override
        public void abort(List<Batches> infos) {}

        @Override
        public void close() {}
    }

    /** Factory; stateless. */
    public static final class Factory
            implements TableSinkFactory<SeaTunnelRow, Void, Batch, Batches> {
        public static final Option<String> RUN_ID =
                Options.key("run.id").stringType().noDefaultValue().withDescription("run key");

        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder().required(RUN_ID).build();
        }

        @Override
        public TableSink<SeaTunnelRow, Void, Batch, Batches> createSink(
                TableSinkFactoryContext context) {
            String runId = context.getOptions().get(RUN_ID);
            return () -> new DurableCollectSink(runId);
        }
    }
}
