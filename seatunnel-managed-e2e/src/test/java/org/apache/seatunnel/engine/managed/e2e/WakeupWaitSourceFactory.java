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

/** Creates {@link WakeupWaitSource}. Stateless. */
public final class WakeupWaitSourceFactory implements TableSourceFactory {

    public static final Option<Integer> SPLITS =
            Options.key("splits").intType().defaultValue(1).withDescription("Number of splits.");

    public static final Option<Long> ROWS_BEFORE_WAIT =
            Options.key("rows-before-wait")
                    .longType()
                    .defaultValue(10L)
                    .withDescription("Rows each reader emits before its turns start waiting.");

    public static final Option<Long> WAIT_MILLIS =
            Options.key("wait-millis")
                    .longType()
                    .defaultValue(30_000L)
                    .withDescription("Longest wait inside one poll turn (ended by wakeup()).");

    public static final Option<Boolean> DISPLACE_LISTENER =
            Options.key("displace-interrupt-listener")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Each wait first does channel I/O (which replaces the runtime's"
                                    + " interrupt listener on the thread) and then waits without"
                                    + " reacting to interrupts, leaving the flag set.");

    public static final Option<String> PROBE =
            Options.key("probe")
                    .stringType()
                    .defaultValue("wakeup")
                    .withDescription("The WakeupProbe this run reports to.");

    @Override
    public String factoryIdentifier() {
        return WakeupWaitSource.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder()
                .optional(SPLITS, ROWS_BEFORE_WAIT, WAIT_MILLIS, DISPLACE_LISTENER, PROBE)
                .build();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, SplitT extends SourceSplit, StateT extends Serializable>
            TableSource<T, SplitT, StateT> createSource(TableSourceFactoryContext context) {
        int splits = context.getOptions().get(SPLITS);
        long rows = context.getOptions().get(ROWS_BEFORE_WAIT);
        long wait = context.getOptions().get(WAIT_MILLIS);
        boolean displace = context.getOptions().get(DISPLACE_LISTENER);
        String probe = context.getOptions().get(PROBE);
        return () ->
                (SeaTunnelSource<T, SplitT, StateT>)
                        (Object) new WakeupWaitSource(splits, rows, wait, displace, probe);
    }

    @Override
    public Class<? extends SeaTunnelSource> getSourceClass() {
        return WakeupWaitSource.class;
    }
}
