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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.ConfigValidator;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.kerberos.KerberosConfig;
import org.apache.seatunnel.api.table.catalog.CatalogTable;
import org.apache.seatunnel.api.table.catalog.CatalogTableUtil;
import org.apache.seatunnel.api.table.catalog.TableIdentifier;
import org.apache.seatunnel.api.table.catalog.TablePath;
import org.apache.seatunnel.api.table.catalog.schema.TableSchemaOptions;
import org.apache.seatunnel.api.table.type.SeaTunnelDataType;
import org.apache.seatunnel.api.table.type.SeaTunnelRowType;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryConfig;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryOptions;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderOptions;
import org.apache.seatunnel.connectors.managed.reader.UnknownOptions;
import org.apache.seatunnel.connectors.seatunnel.iceberg.IcebergTableLoader;
import org.apache.seatunnel.connectors.seatunnel.iceberg.catalog.IcebergCatalog;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.CommonConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.config.SourceConfig;
import org.apache.seatunnel.connectors.seatunnel.iceberg.source.enumerator.scan.IcebergStreamScanStrategy;
import org.apache.seatunnel.connectors.seatunnel.iceberg.utils.SchemaUtils;

/**
 * Everything {@link ManagedIcebergSourceFactory} does with {@code connector-iceberg}'s classes: the
 * option rule (the stock {@code Iceberg} source's, plus the options its config reads and the
 * managed ones), the planning-time checks and the table's schema. Apart from the factory so that
 * the factory itself loads without {@code connector-iceberg}.
 *
 * <p>Every option is checked when the job is planned, also when the engine did not validate the
 * rule (the {@code Managed} wrapper hands its options through): a key this source does not know, a
 * missing required option, a snapshot option missing for its {@code stream_scan_strategy}, a value
 * that does not parse or is out of range fails with an {@link IllegalArgumentException} naming the
 * option; a table that cannot be loaded fails naming the table and the catalog.
 *
 * <p>Threading: stateless, any thread.
 */
final class ManagedIcebergPlanning {
    /** The stock source's options that its factory's rule leaves out but its config reads. */
    private static final List<Option<?>> STOCK_READ_OPTIONS =
            Arrays.<Option<?>>asList(
                    CommonConfig.HADOOP_PROPS,
                    CommonConfig.HADOOP_CONF_PATH_PROP,
                    KerberosConfig.KERBEROS_PRINCIPAL,
                    KerberosConfig.KRB5_PATH,
                    KerberosConfig.KERBEROS_KEYTAB_PATH);

    /** The typed options whose values are parsed here, so a bad one is named. */
    private static final List<Option<?>> TYPED =
            Arrays.<Option<?>>asList(
                    CommonConfig.KEY_CASE_SENSITIVE,
                    SourceConfig.KEY_START_SNAPSHOT_TIMESTAMP,
                    SourceConfig.KEY_START_SNAPSHOT_ID,
                    SourceConfig.KEY_END_SNAPSHOT_ID,
                    SourceConfig.KEY_USE_SNAPSHOT_ID,
                    SourceConfig.KEY_USE_SNAPSHOT_TIMESTAMP,
                    SourceConfig.KEY_STREAM_SCAN_STRATEGY,
                    CommonConfig.CATALOG_PROPS,
                    CommonConfig.HADOOP_PROPS);

    /** The stock {@code Iceberg} source's rule, plus the options it reads and the managed ones. */
    OptionRule optionRule() {
        return OptionRule.builder()
                .required(
                        CommonConfig.KEY_CATALOG_NAME,
                        CommonConfig.KEY_NAMESPACE,
                        CommonConfig.KEY_TABLE,
                        CommonConfig.CATALOG_PROPS)
                .optional(
                        TableSchemaOptions.SCHEMA,
                        CommonConfig.KEY_CASE_SENSITIVE,
                        SourceConfig.KEY_START_SNAPSHOT_TIMESTAMP,
                        SourceConfig.KEY_START_SNAPSHOT_ID,
                        SourceConfig.KEY_END_SNAPSHOT_ID,
                        SourceConfig.KEY_USE_SNAPSHOT_ID,
                        SourceConfig.KEY_USE_SNAPSHOT_TIMESTAMP,
                        SourceConfig.KEY_STREAM_SCAN_STRATEGY)
                .optional(STOCK_READ_OPTIONS.toArray(new Option<?>[0]))
                .optional(ManagedReaderOptions.ALL)
                .optional(DiscoveryOptions.ALL)
                .optional(ManagedIcebergOptions.ALL.toArray(new Option<?>[0]))
                .build();
    }

    /** Validates {@code options} as described in the class comment and builds the source. */
    ManagedIcebergSource create(ReadonlyConfig options) {
        OptionRule rule = optionRule();
        UnknownOptions.reject(
                ManagedIcebergSourceFactory.IDENTIFIER,
                options,
                rule,
                Collections.<String>emptyList());
        try {
            ConfigValidator.of(options).validate(rule);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedIceberg options are invalid: " + e.getMessage(), e);
        }
        for (Option<?> o : TYPED) {
            parse(options, o);
        }
        requireFor(
                options,
                IcebergStreamScanStrategy.FROM_SNAPSHOT_ID,
                SourceConfig.KEY_START_SNAPSHOT_ID);
        requireFor(
                options,
                IcebergStreamScanStrategy.FROM_SNAPSHOT_TIMESTAMP,
                SourceConfig.KEY_START_SNAPSHOT_TIMESTAMP);
        SourceConfig config;
        try {
            config = new SourceConfig(options);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedIceberg options are invalid: " + e.getMessage(), e);
        }
        DiscoveryConfig discovery = DiscoveryConfig.from(options);
        if (discovery.intervalMillis() <= 0) {
            throw new IllegalArgumentException(
                    "ManagedIceberg option '"
                            + DiscoveryOptions.INTERVAL_MS.key()
                            + "' must be positive: "
                            + discovery.intervalMillis()
                            + " (a commit of many files is handed out in chunks, one per"
                            + " interval)");
        }
        ManagedReaderConfig readerConfig = ManagedReaderConfig.from(options);
        ManagedIcebergOptions.Values managed = ManagedIcebergOptions.Values.from(options);

        Schema tableSchema = loadSchema(config);
        SeaTunnelRowType full = rowType(tableSchema);
        TablePath path = TablePath.of(config.getNamespace(), config.getTable());
        SeaTunnelRowType rowType;
        CatalogTable catalogTable;
        if (options.getOptional(TableSchemaOptions.SCHEMA).isPresent()) {
            CatalogTable given =
                    CatalogTableUtil.buildWithConfig(
                            ManagedIcebergSourceFactory.IDENTIFIER, options);
            rowType = checkProjection(full, given.getSeaTunnelRowType());
            catalogTable = CatalogTable.of(TableIdentifier.of(given.getCatalogName(), path), given);
        } else {
            rowType = full;
            catalogTable = catalogTable(options, path);
        }
        Schema projected = tableSchema.select(rowType.getFieldNames());
        return new ManagedIcebergSource(
                config,
                catalogTable,
                tableSchema,
                projected,
                rowType,
                readerConfig,
                discovery,
                managed);
    }

    private static void requireFor(
            ReadonlyConfig options, IcebergStreamScanStrategy strategy, Option<?> needed) {
        if (options.get(SourceConfig.KEY_STREAM_SCAN_STRATEGY) == strategy
                && !options.getOptional(needed).isPresent()) {
            throw new IllegalArgumentException(
                    "ManagedIceberg option '"
                            + needed.key()
                            + "' is required with "
                            + SourceConfig.KEY_STREAM_SCAN_STRATEGY.key()
                            + " = "
                            + strategy);
        }
    }

    private static <V> V parse(ReadonlyConfig options, Option<V> option) {
        try {
            return options.get(option);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedIceberg option '" + option.key() + "' is invalid: " + e.getMessage(),
                    e);
        }
    }

    private static Schema loadSchema(SourceConfig config) {
        Thread thread = Thread.currentThread();
        ClassLoader own = thread.getContextClassLoader();
        try (IcebergTableLoader loader = IcebergTableLoader.create(config)) {
            loader.open();
            Table table = loader.loadTable();
            return table.schema();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedIceberg cannot load table '"
                            + config.getNamespace()
                            + "."
                            + config.getTable()
                            + "' from catalog '"
                            + config.getCatalogName()
                            + "' (option '"
                            + CommonConfig.CATALOG_PROPS.key()
                            + "'): "
                            + e,
                    e);
        } finally {
            thread.setContextClassLoader(own);
        }
    }

    /** The stock conversion of every column. */
    private static SeaTunnelRowType rowType(Schema schema) {
        List<String> names = new ArrayList<>();
        List<SeaTunnelDataType<?>> types = new ArrayList<>();
        for (Types.NestedField column : schema.columns()) {
            names.add(column.name());
            types.add(SchemaUtils.toSeaTunnelType(column.name(), column.type()));
        }
        return new SeaTunnelRowType(
                names.toArray(new String[0]), types.toArray(new SeaTunnelDataType<?>[0]));
    }

    /** A {@code schema} option selects columns; each must exist with the table's type. */
    private static SeaTunnelRowType checkProjection(SeaTunnelRowType full, SeaTunnelRowType given) {
        for (int i = 0; i < given.getTotalFields(); i++) {
            String name = given.getFieldName(i);
            int at = full.indexOf(name, false);
            if (at < 0) {
                throw new IllegalArgumentException(
                        "ManagedIceberg option '"
                                + TableSchemaOptions.SCHEMA.key()
                                + "' names column '"
                                + name
                                + "', which the table does not have");
            }
            if (!full.getFieldType(at).equals(given.getFieldType(i))) {
                throw new IllegalArgumentException(
                        "ManagedIceberg option '"
                                + TableSchemaOptions.SCHEMA.key()
                                + "': column '"
                                + name
                                + "' is "
                                + full.getFieldType(at)
                                + " in the table, not "
                                + given.getFieldType(i));
            }
        }
        return given;
    }

    /** The stock catalog's description of the table (names, types, comments). */
    private static CatalogTable catalogTable(ReadonlyConfig options, TablePath path) {
        Thread thread = Thread.currentThread();
        ClassLoader own = thread.getContextClassLoader();
        IcebergCatalog catalog =
                new IcebergCatalog(options.get(CommonConfig.KEY_CATALOG_NAME), options);
        try {
            catalog.open();
            return catalog.getTable(path);
        } finally {
            try {
                catalog.close();
            } finally {
                thread.setContextClassLoader(own);
            }
        }
    }
}
