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

package org.apache.seatunnel.connectors.managed.reader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.common.CommonOptions;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.configuration.util.RequiredOption;

/**
 * Refuses a source block's keys that its connector does not know, at planning: SeaTunnel 2.3.8
 * checks required options but lets any other key pass, so a misspelt option ({@code splitcount})
 * would silently run with its default.
 *
 * <p>Threading: stateless, any thread.
 */
public final class UnknownOptions {
    /** Keys the engine or the {@code Managed} wrapper add to every source's options. */
    public static final List<String> FRAMEWORK_KEYS =
            Collections.unmodifiableList(
                    Arrays.asList(
                            CommonOptions.PLUGIN_NAME.key(),
                            CommonOptions.RESULT_TABLE_NAME.key(),
                            CommonOptions.SOURCE_TABLE_NAME.key(),
                            CommonOptions.PARALLELISM.key(),
                            "plugin_output",
                            "plugin_input",
                            "connector",
                            "job-name"));

    private UnknownOptions() {}

    /** Every key {@code rule} names (optional, required, exclusive and conditional ones). */
    public static Set<String> keysOf(OptionRule rule) {
        Set<String> known = new TreeSet<>();
        for (Option<?> o : rule.getOptionalOptions()) {
            known.add(o.key());
        }
        for (RequiredOption r : rule.getRequiredOptions()) {
            for (Option<?> o : r.getOptions()) {
                known.add(o.key());
            }
        }
        return known;
    }

    /**
     * @param extraKeys keys the connector reads beyond its rule
     * @throws IllegalArgumentException naming the unknown keys and the known ones
     */
    public static void reject(
            String connector,
            ReadonlyConfig options,
            OptionRule rule,
            Collection<String> extraKeys) {
        Set<String> known = keysOf(rule);
        known.addAll(FRAMEWORK_KEYS);
        known.addAll(extraKeys);
        List<String> unknown = new ArrayList<>();
        for (String key : options.getSourceMap().keySet()) {
            if (!known.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            Collections.sort(unknown);
            throw new IllegalArgumentException(
                    connector
                            + " does not know the option(s) "
                            + unknown
                            + "; it accepts: "
                            + known);
        }
    }
}
