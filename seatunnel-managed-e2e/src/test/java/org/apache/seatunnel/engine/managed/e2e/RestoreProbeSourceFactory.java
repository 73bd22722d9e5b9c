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
 * Creates {@link RestoreProbeSource} from {@code RestoreProbe { ... }} or through {@code Managed}.
 * Stateless.
 */
public final class RestoreProbeSourceFactory implements TableSourceFactory {

    public static final Option<String> RUN_ID =
            Options.key("run.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Key of the RestoreProbe record of this run.");

    public static final Option<String> FAIL_AT =
            Options.key("fail.at")
                    .stringType()
                    .defaultValue("complete")
                    .withDescription(
                            "Where the reader fails once per run: 'snapshot' (its snapshotState of"
                                    + " checkpoint fail.checkpoint), 'complete' (its"
                                    + " notifyCheckpointComplete of it) or 'poll-after-complete'"
                                    + " (its first poll after that notification).");

    public static final Option<Long> FAIL_CHECKPOINT =
            Options.key("fail.checkpoint")
                    .longType()
                    .defaultValue(1L)
                    .withDescription("The checkpoint id fail.at refers to.");

    public static final Option<Long> ROW_INTERVAL_MILLIS =
            Options.key("row.interval.millis")
                    .longType()
                    .defaultValue(5L)
                    .withDescription("One row per interval, round-robin over the splits.");

    public static final Option<Boolean> BROKEN_RESET_RETURNED =
            Options.key("broken.reset-returned")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "A broken fixture: the enumerator resets every split handed back to"
                                    + " it to offset 0, i.e. re-delivers the original splits.");

    @Override
    public String factoryIdentifier() {
        return RestoreProbeSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .required(RUN_ID)
                .optional(FAIL_AT, FAIL_CHECKPOINT, ROW_INTERVAL_MILLIS, BROKEN_RESET_RETURNED)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        ReadonlyConfig o = context.getOptions();
        RestoreProbeSource.Settings settings =
                new RestoreProbeSource.Settings(
                        o.get(RUN_ID),
                        RestoreProbeSource.FailAt.of(o.get(FAIL_AT)),
                        o.get(FAIL_CHECKPOINT),
                        o.get(ROW_INTERVAL_MILLIS),
                        o.get(BROKEN_RESET_RETURNED));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) new RestoreProbeSource(settings);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return RestoreProbeSource.class;
    }
}
