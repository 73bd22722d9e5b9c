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

import java.util.BitSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * A sink ({@code ManagedCount}) that only counts rows per {@code run.id}, for throughput runs where
 * keeping every payload would measure the heap instead of the source. With {@code distinct.ids =
 * true} it also keeps one bit per ManagedFake row id (field 0), so a run of n rows can prove each
 * of the ids 0..n-1 arrived exactly once at one bit per row rather than a payload per row.
 *
 * <p>Threading: writers count into a JVM-static {@link AtomicLong} per run id and set bits in a
 * per-run {@link Ids} under its monitor; any thread.
 */
public final class CountingSink implements SeaTunnelSink<SeaTunnelRow, Void, Void, Void> {
    private static final long serialVersionUID = 1L;
    public static final String IDENTIFIER = "ManagedCount";
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, Ids> IDS = new ConcurrentHashMap<>();

    private final String runId;
    private final boolean distinctIds;

    CountingSink(String runId, boolean distinctIds) {
        this.runId = runId;
        this.distinctIds = distinctIds;
    }

    public static long count(String runId) {
        AtomicLong c = COUNTS.get(runId);
        return c == null ? 0 : c.get();
    }

    /**
     * Whether a {@code distinct.ids} run wrote each of the ids {@code 0..n-1} exactly once and no
     * other id; false for a run that did not track ids.
     */
    public static boolean idsExactlyOnce(String runId, long n) {
        Ids ids = IDS.get(runId);
        return ids != null && ids.exactlyOnce(n);
    }

    /** Forgets a run's ids (their bits are the only per-row memory this sink keeps). */
    public static void clearIds(String runId) {
        IDS.remove(runId);
    }

    /** Row ids seen by one run: a bit per id, and whether any id came twice or was not an id. */
    private static final class Ids {
        // Guarded by this.
        private final BitSet seen = new BitSet();
        private long repeated;
        private long bad;

        synchronized void add(Object field) {
            if (!(field instanceof Long) || (Long) field < 0 || (Long) field >= Integer.MAX_VALUE) {
                bad++;
                return;
            }
            int id = (int) (long) (Long) field;
            if (seen.get(id)) {
                repeated++;
            } else {
                seen.set(id);
            }
        }

        synchronized boolean exactlyOnce(long n) {
            return repeated == 0 && bad == 0 && seen.cardinality() == n && seen.length() == n;
        }
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Void, Void> createWriter(SinkWriter.Context context) {
        AtomicLong counter = COUNTS.computeIfAbsent(runId, k -> new AtomicLong());
        Ids ids = distinctIds ? IDS.computeIfAbsent(runId, k -> new Ids()) : null;
        return new SinkWriter<SeaTunnelRow, Void, Void>() {
            @Override
            public void write(SeaTunnelRow element) {
                counter.incrementAndGet();
                if (ids != null) {
                    ids.add(element.getField(0));
                }
            }

            @Override
            public Optional<Void> prepareCommit() {
                return Optional.empty();
            }

            @Override
            public void abortPrepare() {}

            @Override
            public void close() {}
        };
    }

    /** Factory; stateless. */
    public static final class Factory implements TableSinkFactory<SeaTunnelRow, Void, Void, Void> {
        public static final Option<String> RUN_ID =
                Options.key("run.id").stringType().noDefaultValue().withDescription("counter key");
        public static final Option<Boolean> DISTINCT_IDS =
                Options.key("distinct.ids")
                        .booleanType()
                        .defaultValue(false)
                        .withDescription("keep a bit per row id (field 0) to prove exactly once");

        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder().required(RUN_ID).optional(DISTINCT_IDS).build();
        }

        @Override
        public TableSink<SeaTunnelRow, Void, Void, Void> createSink(
                TableSinkFactoryContext context) {
            String runId = context.getOptions().get(RUN_ID);
            boolean distinctIds = context.getOptions().get(DISTINCT_IDS);
            return () -> new CountingSink(runId, distinctIds);
        }
    }
}
