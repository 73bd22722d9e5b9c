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
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;

/**
 * Creates {@link CutRaceSource} from {@code CutRace { ... }} or through {@code Managed}. Stateless.
 */
public final class CutRaceSourceFactory implements TableSourceFactory {

    public static final Option<String> RUN_ID =
            Options.key("run.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Key of the CutRaceProbe entry that steers this run.");

    public static final Option<Long> ROWS_PER_SPLIT =
            Options.key("rows.per.split")
                    .longType()
                    .defaultValue(300L)
                    .withDescription("Numbered rows per split (seq 0..k-1).");

    public static final Option<Long> ROW_INTERVAL_MILLIS =
            Options.key("row.interval.millis")
                    .longType()
                    .defaultValue(20L)
                    .withDescription("One row per interval until the injected fault fired.");

    public static final Option<Long> HOLD_MILLIS =
            Options.key("hold.millis")
                    .longType()
                    .defaultValue(400L)
                    .withDescription("Minimum time the reader holds its lock around checkpoint N.");

    public static final Option<Long> ASSIGN_DELAY_MILLIS =
            Options.key("assign.delay.millis")
                    .longType()
                    .defaultValue(50L)
                    .withDescription("Delay between the enumerator's snapshot N and assigning S1.");

    @Override
    public String factoryIdentifier() {
        return CutRaceSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .required(RUN_ID)
                .optional(ROWS_PER_SPLIT, ROW_INTERVAL_MILLIS, HOLD_MILLIS, ASSIGN_DELAY_MILLIS)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ReadonlyConfig o = context.getOptions();
        CutRaceSource.Settings settings =
                new CutRaceSource.Settings(
                        o.get(RUN_ID),
                        o.get(ROWS_PER_SPLIT),
                        o.get(ROW_INTERVAL_MILLIS),
                        o.get(HOLD_MILLIS),
                        o.get(ASSIGN_DELAY_MILLIS));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) new CutRaceSource(settings);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return CutRaceSource.class;
    }
}
