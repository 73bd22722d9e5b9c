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
 * keeping every payload would measure the heap instead of the source.
 *
 * <p>Threading: writers count into a JVM-static {@link AtomicLong} per run id; any thread.
 */
public final class CountingSink implements SeaTunnelSink<SeaTunnelRow, Void, Void, Void> {
    private static final long serialVersionUID = 1L;
    public static final String IDENTIFIER = "ManagedCount";
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private final String runId;

    CountingSink(String runId) {
        this.runId = runId;
    }

    public static long count(String runId) {
        AtomicLong c = COUNTS.get(runId);
        return c == null ? 0 : c.get();
    }

    @Override
    public String getPluginName() {
        return IDENTIFIER;
    }

    @Override
    public SinkWriter<SeaTunnelRow, Void, Void> createWriter(SinkWriter.Context context) {
        AtomicLong counter = COUNTS.computeIfAbsent(runId, k -> new AtomicLong());
        return new SinkWriter<SeaTunnelRow, Void, Void>() {
            @Override
            public void write(SeaTunnelRow element) {
                counter.incrementAndGet();
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

        @Override
        public String factoryIdentifier() {
            return IDENTIFIER;
        }

        @Override
        public OptionRule optionRule() {
            return OptionRule.builder().required(RUN_ID).build();
        }

        @Override
        public TableSink<SeaTunnelRow, Void, Void, Void> createSink(
                TableSinkFactoryContext context) {
            String runId = context.getOptions().get(RUN_ID);
            return () -> new CountingSink(runId);
        }
    }
}
