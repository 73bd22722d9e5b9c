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
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.connector.TableSource;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;

/** Creates {@link SchemaChangeSource}. Stateless. */
public final class SchemaChangeSourceFactory implements TableSourceFactory {

    public static final Option<String> RUN_ID =
            Options.key("run.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Key of the run's injected-failure counter.");

    public static final Option<Integer> ROWS =
            Options.key("rows").intType().defaultValue(300).withDescription("Rows in all.");

    public static final Option<Integer> CHANGE_AT =
            Options.key("change.at")
                    .intType()
                    .defaultValue(150)
                    .withDescription("The first row read with the added column.");

    public static final Option<Boolean> FAIL_IN_CHANGE =
            Options.key("fail.in.change")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Fail the first checkpoint after the change was emitted, once per"
                                    + " run.id.");

    public static final Option<String> FAIL_AFTER_CHANGE =
            Options.key("fail.after.change")
                    .stringType()
                    .defaultValue("none")
                    .withDescription(
                            "none, after-cut (fail the checkpoint after the after-change one) or"
                                    + " later-cut (fail the one after a later completed"
                                    + " checkpoint), once per run.id.");

    public static final Option<Boolean> REEMIT_ON_RESTORE =
            Options.key("reemit.on.restore")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "A reader starting from a split read after the change emits the"
                                    + " change event again before any row.");

    @Override
    public String factoryIdentifier() {
        return SchemaChangeSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .required(RUN_ID)
                .optional(ROWS, CHANGE_AT, FAIL_IN_CHANGE, FAIL_AFTER_CHANGE, REEMIT_ON_RESTORE)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        SchemaChangeSource source =
                new SchemaChangeSource(
                        context.getOptions().get(RUN_ID),
                        context.getOptions().get(ROWS),
                        context.getOptions().get(CHANGE_AT),
                        context.getOptions().get(FAIL_IN_CHANGE),
                        context.getOptions().get(FAIL_AFTER_CHANGE),
                        context.getOptions().get(REEMIT_ON_RESTORE));
        return () -> (SeaTunnelSource<T, SplitT, StateT>) (Object) source;
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return SchemaChangeSource.class;
    }
}
