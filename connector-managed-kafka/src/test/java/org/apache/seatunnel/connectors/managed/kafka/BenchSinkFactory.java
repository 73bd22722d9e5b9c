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

package org.apache.seatunnel.connectors.managed.kafka;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
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
 * Runner only: {@code KafkaBench { run.id = ... }} counts rows and, for values {@code seq|nanos}
 * written by the runner's producer in the same JVM, records produce-to-sink latency.
 */
public final class BenchSinkFactory implements TableSinkFactory<SeaTunnelRow, Void, Void, Void> {
    static final String IDENTIFIER = "KafkaBench";
    static final Option<String> RUN_ID =
            Options.key("run.id").stringType().noDefaultValue().withDescription("run");

    static final Map<String, AtomicLong> ROWS = new ConcurrentHashMap<>();
    static final Map<String, ConcurrentLinkedQueue<Long>> LATENCIES = new ConcurrentHashMap<>();

    static AtomicLong rows(String runId) {
        return ROWS.computeIfAbsent(runId, k -> new AtomicLong());
    }

    static ConcurrentLinkedQueue<Long> latencies(String runId) {
        return LATENCIES.computeIfAbsent(runId, k -> new ConcurrentLinkedQueue<>());
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
            ConcurrentLinkedQueue<Long> latencies = latencies(runId);
            return new SinkWriter<SeaTunnelRow, Void, Void>() {
                @Override
                public void write(SeaTunnelRow row) {
                    rows.incrementAndGet();
                    Object f = row.getField(0);
                    if (f instanceof SeaTunnelRow) {
                        f = ((SeaTunnelRow) f).getField(0);
                    }
                    String v = String.valueOf(f);
                    int bar = v.indexOf('|');
                    if (bar > 0) {
                        latencies.add(System.nanoTime() - Long.parseLong(v.substring(bar + 1)));
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
