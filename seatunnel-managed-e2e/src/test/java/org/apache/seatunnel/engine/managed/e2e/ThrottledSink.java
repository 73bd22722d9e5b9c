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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.sink.SeaTunnelSink;
import org.apache.seatunnel.api.sink.SinkCommitter;
import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeRows;
import org.apache.seatunnel.managed.testkit.engine.CollectingSink;

/**
 * A sink ({@code ManagedThrottled}) that takes at most {@code rows.per.second} rows per second per
 * writer, so the engine's queue from the source task fills and the source sees backpressure: a test
 * fixture, never shipped. With {@code collect = true} it is the exactly-once {@link CollectingSink}
 * (ManagedFake payload keys) behind the throttle, otherwise it only counts rows per {@code run.id}
 * ({@link #count}).
 *
 * <p>Threading: the writer runs on the sink task's thread and paces itself by parking it (a test
 * sink standing for a slow downstream system); counters are JVM-static atomics.
 */
public final class ThrottledSink
        implements SeaTunnelSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> {
    private static final long serialVersionUID = 1L;
    public static final String IDENTIFIER = "ManagedThrottled";
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private final String runId;
    private final long rowsPerSecond;
    private final CollectingSink collecting;

    ThrottledSink(String runId, long rowsPerSecond, boolean collect) {
        this.runId = runId;
        this.rowsPerSecond = rowsPerSecond;
        this.collecting = collect ? new CollectingSink(runId, ManagedFakeRows.FIELD_PAYLOAD) : null;
    }

    /** Rows written under {@code runId} (both modes). */
    public static long count(String runId) {
        AtomicLong c = COUNTS.get(runId);
        return c == null ? 0 : c.get();
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, CollectingSink.Batch, Void> createWriter(
            SinkWriter.Context context) throws IOException {
        AtomicLong counter = COUNTS.computeIfAbsent(runId, k -> new AtomicLong());
        SinkWriter<SeaTunnelRow, CollectingSink.Batch, Void> inner =
                collecting == null ? null : collecting.createWriter(context);
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rowsPerSecond;
        return new SinkWriter<SeaTunnelRow, CollectingSink.Batch, Void>() {
            // The time the next row may be written; never more than one period in the past, so a
            // writer that waited for input does not burst to catch up.
            private long next = System.nanoTime();

            @Override
            public void write(SeaTunnelRow element) throws IOException {
                long now = System.nanoTime();
                if (next - now > 0) {
                    LockSupport.parkNanos(next - now);
                    now = System.nanoTime();
                }
                next = Math.max(next, now - periodNanos) + periodNanos;
                if (inner != null) {
                    inner.write(element);
                }
                counter.incrementAndGet();
            }

            @Override
            public Optional<CollectingSink.Batch> prepareCommit() throws IOException {
                return inner == null ? Optional.empty() : inner.prepareCommit();
            }

            @Override
            public void abortPrepare() {}

            @Override
            public void close() throws IOException {
                if (inner != null) {
                    inner.close();
                }
            }
        };
    }

    @Override
    public Optional<SinkCommitter<CollectingSink.Batch>> createCommitter() throws IOException {
        return collecting == null ? Optional.empty() : collecting.createCommitter();
    }

    @Override
    public Optional<Serializer<CollectingSink.Batch>> getCommitInfoSerializer() {
        return collecting == null ? Optional.empty() : collecting.getCommitInfoSerializer();
    }

    /** Factory; stateless. */
    public static final class Factory
            implements TableSinkFactory<SeaTunnelRow, Void, CollectingSink.Batch, Void> {
        public static final Option<String> RUN_ID =
                Options.key("run.id").stringType().noDefaultValue().withDescription("run key");
        public static final Option<Long> ROWS_PER_SECOND =
                Options.key("rows.per.second")
                        .longType()
                        .defaultValue(2000L)
                        .withDescription("rows per second each writer takes at most");
        public static final Option<Boolean> COLLECT =
                Options.key("collect")
                        .booleanType()
                        .defaultValue(false)
                        .withDescription("record payload keys exactly once (TestkitCollect)");

        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder().required(RUN_ID).optional(ROWS_PER_SECOND, COLLECT).build();
        }

        @Override
        public TableSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> createSink(
                TableSinkFactoryContext context) {
            String runId = context.getOptions().get(RUN_ID);
            long rate = context.getOptions().get(ROWS_PER_SECOND);
            boolean collect = context.getOptions().get(COLLECT);
            if (rate <= 0) {
                throw new IllegalArgumentException("rows.per.second must be positive: " + rate);
            }
            return () -> new ThrottledSink(runId, rate, collect);
        }
    }
}
