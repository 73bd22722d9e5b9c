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

package org.apache.seatunnel.connectors.managed.example.range;

import java.io.Serializable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceReader;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedSourceReaderBase;

/**
 * Test only, not part of the tutorial: {@code ManagedGrowingRangeFailOnce} is the growing range
 * source whose reader throws once, when it reaches row {@link #FAIL_ROW} of range {@link
 * #FAIL_RANGE} while {@link #ARMED}, so an engine test sees a reader failure and its restore.
 *
 * <p>Threading: the fault flag is one JVM-wide atomic, armed by the test thread and taken by
 * whichever reader reaches the row first.
 */
public final class FailOnceGrowingRangeSourceFactory implements TableSourceFactory {
    static final String IDENTIFIER = "ManagedGrowingRangeFailOnce";
    static final int FAIL_RANGE = 7;
    static final long FAIL_ROW = 1500;
    static final AtomicBoolean ARMED = new AtomicBoolean();

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return new GrowingRangeSourceFactory().optionRule();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ReadonlyConfig options = context.getOptions();
        Source source =
                new Source(
                        options.get(GrowingRangeSourceFactory.INITIAL),
                        options.get(GrowingRangeSourceFactory.STEP),
                        options.get(GrowingRangeSourceFactory.MAX),
                        options.get(GrowingRangeSourceFactory.ROWS),
                        DiscoveryConfig.from(options),
                        ManagedReaderConfig.from(options));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return Source.class;
    }

    /** The growing range source with the failing reader. Immutable. */
    static final class Source extends GrowingRangeSource {
        private static final long serialVersionUID = 1L;
        private final ManagedReaderConfig readerConfig;

        Source(
                int initial,
                int step,
                int max,
                long rows,
                DiscoveryConfig discovery,
                ManagedReaderConfig readerConfig) {
            super(initial, step, max, rows, discovery, readerConfig);
            this.readerConfig = readerConfig;
        }

        @Override
        public String getPluginName() {
            return IDENTIFIER;
        }

        @Override
        public SourceReader<SeaTunnelRow, RangeSplit> createReader(SourceReader.Context context) {
            return new Reader(context, readerConfig);
        }
    }

    /** {@link RangeReader} with the fault in its emitter. Threading: as the reader base's. */
    static final class Reader
            extends ManagedSourceReaderBase<Long, SeaTunnelRow, RangeSplit, RangeReader.Position> {
        Reader(SourceReader.Context context, ManagedReaderConfig config) {
            super(
                    context,
                    config,
                    RangeSplitReader::new,
                    (n, output, position) -> {
                        if (position.number == FAIL_RANGE
                                && n == FAIL_ROW
                                && ARMED.compareAndSet(true, false)) {
                            throw new IllegalStateException("injected reader failure");
                        }
                        output.collect(new SeaTunnelRow(new Object[] {position.number, n}));
                        position.next = n + 1;
                    });
        }

        @Override
        protected RangeReader.Position initialState(RangeSplit split) {
            return new RangeReader.Position(split);
        }

        @Override
        protected RangeSplit toSplit(String splitId, RangeReader.Position p) {
            return new RangeSplit(p.number, p.next, p.end);
        }
    }
}
