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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * Runner only: {@code IcebergBench { run.id = ... }} counts rows and, for the runs the runner asked
 * for ({@link #recordArrivals}), records each row's append batch (field 2) and when it reached the
 * sink ({@code System.nanoTime()}, the runner's clock in the same JVM). Scans record nothing but
 * the count, so a large one neither fills the heap nor spends CPU the lanes would be charged.
 */
public final class IcebergBenchSinkFactory
        implements TableSinkFactory<SeaTunnelRow, Void, Void, Void> {
    static final String IDENTIFIER = "IcebergBench";
    static final Option<String> RUN_ID =
            Options.key("run.id").stringType().noDefaultValue().withDescription("run");

    private static final Map<String, AtomicLong> ROWS = new ConcurrentHashMap<>();
    private static final Map<String, ConcurrentLinkedQueue<long[]>> ARRIVALS =
            new ConcurrentHashMap<>();

    private static final Set<String> ARRIVAL_RUNS = ConcurrentHashMap.newKeySet();

    /** {first row's nanos, a row's nanos of the last 1,024} per run: a scan's timeline. */
    private static final Map<String, long[]> SPAN = new ConcurrentHashMap<>();

    /** Records arrivals of run {@code runId}; call before its job starts. */
    static void recordArrivals(String runId) {
        ARRIVAL_RUNS.add(runId);
    }

    static AtomicLong rows(String runId) {
        return ROWS.computeIfAbsent(runId, k -> new AtomicLong());
    }

    /** {first row's nanos, nanos of a row among the last 1,024 written} of run {@code runId}. */
    static long[] span(String runId) {
        return SPAN.computeIfAbsent(runId, k -> new long[2]);
    }

    /** {batch, arrival nanos} of every row written in run {@code runId}. */
    static ConcurrentLinkedQueue<long[]> arrivals(String runId) {
        return ARRIVALS.computeIfAbsent(runId, k -> new ConcurrentLinkedQueue<>());
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder().required(RUN_ID).build();
    }

    @Override
    public TableSink<SeaTunnelRow, Void, Void, Void> createSink(TableSinkFactoryContext context) {
        String runId = context.getOptions().get(RUN_ID);
        return () -> new Sink(runId);
    }

    static final class Sink implements SeaTunnelSink<SeaTunnelRow, Void, Void, Void> {
        private static final long serialVersionUID = 1L;
        private final String runId;

        Sink(String runId) {
            this.runId = runId;
        }

        @Override
        public String getPluginName() {
            return IDENTIFIER;
        }

        @Override
        public SinkWriter<SeaTunnelRow, Void, Void> createWriter(SinkWriter.Context context) {
            AtomicLong rows = rows(runId);
            ConcurrentLinkedQueue<long[]> arrivals =
                    ARRIVAL_RUNS.contains(runId) ? arrivals(runId) : null;
            long[] span = span(runId);
            return new SinkWriter<SeaTunnelRow, Void, Void>() {
                @Override
                public void write(SeaTunnelRow row) {
                    long now = System.nanoTime();
                    long n = rows.incrementAndGet();
                    if (n == 1) {
                        span[0] = now;
                    } else if ((n & 1023) == 0) {
                        span[1] = now;
                    }
                    Object batch = row.getArity() > 2 ? row.getField(2) : null;
                    if (arrivals != null && batch instanceof Number) {
                        arrivals.add(new long[] {((Number) batch).longValue(), now});
                    }
                }

                @Override
                public Optional<Void> prepareCommit() {
                    return Optional.empty();
                }

                @Override
                public void abortPrepare() {}

                @Override
                public void close() throws IOException {}
            };
        }
    }
}
