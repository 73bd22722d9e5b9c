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

package org.apache.seatunnel.managed.testkit.engine;

import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.connector.TableSink;
import org.apache.seatunnel.api.table.factory.TableSinkFactory;
import org.apache.seatunnel.api.table.factory.TableSinkFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * Creates {@link CollectingSink} from {@code TestkitCollect { run.id = "...", key.field = "..." }};
 * registered in the testkit jar's {@code
 * META-INF/services/org.apache.seatunnel.api.table.factory.Factory}, so a job finds it whenever the
 * testkit is on the test classpath.
 *
 * <p>Threading: stateless, any thread.
 */
public final class CollectingSinkFactory
        implements TableSinkFactory<SeaTunnelRow, Void, CollectingSink.Batch, Void> {

    public static final Option<String> RUN_ID =
            Options.key("run.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Key of the CollectedRows registry entry this sink fills.");

    public static final Option<String> KEY_FIELD =
            Options.key("key.field")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The field whose value is a row's key, by name or 0-based index;"
                                    + " empty: the whole row rendered by RowKeys.");

    @Override
    public String factoryIdentifier() {
        return CollectingSink.IDENTIFIER;
    }

    @Override
    public OptionRule optionRule() {
        return OptionRule.builder().required(RUN_ID).optional(KEY_FIELD).build();
    }

    @Override
    public TableSink<SeaTunnelRow, Void, CollectingSink.Batch, Void> createSink(
            TableSinkFactoryContext context) {
        String runId = context.getOptions().get(RUN_ID);
        int keyField =
                keyFieldIndex(context.getOptions().get(KEY_FIELD), context.getCatalogTable());
        return () -> new CollectingSink(runId, keyField);
    }

    /**
     * The index of {@code keyField} (a field name, else a 0-based index) in {@code table}, or
     * {@link CollectingSink#WHOLE_ROW} when it is empty.
     */
    static int keyFieldIndex(String keyField, CatalogTable table) {
        if (keyField == null || keyField.isEmpty()) {
            return CollectingSink.WHOLE_ROW;
        }
        String[] names = table == null ? new String[0] : table.getTableSchema().getFieldNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(keyField)) {
                return i;
            }
        }
        int index;
        try {
            index = Integer.parseInt(keyField);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "key.field '"
                            + keyField
                            + "' is neither a field of "
                            + java.util.Arrays.toString(names)
                            + " nor an index");
        }
        if (index < 0 || (names.length > 0 && index >= names.length)) {
            throw new IllegalArgumentException(
                    "key.field " + index + " is out of range for " + names.length + " fields");
        }
        return index;
    }
}
