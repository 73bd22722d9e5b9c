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

import java.util.Arrays;
import java.util.List;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.ConfigValidator;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderConfig;
import org.apache.seatunnel.connectors.managed.reader.ManagedReaderOptions;
import org.apache.seatunnel.connectors.managed.reader.UnknownOptions;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.Config;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.StartMode;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceConfig;
import org.apache.seatunnel.format.compatible.kafka.connect.json.KafkaConnectJsonFormatOptions;

/**
 * Everything {@link ManagedKafkaSourceFactory} does with {@code connector-kafka}'s classes: the
 * option rule (the stock {@code Kafka} source's, plus the options its config reads and the managed
 * ones) and the planning-time checks. Apart from the factory so that the factory itself loads
 * without {@code connector-kafka}: the engine instantiates every factory of a job's class path, and
 * a {@code Managed} job of another connector must not fail because Kafka's jar is not installed.
 *
 * <p>Every option is checked when the job is planned, also when the engine did not validate the
 * rule (the {@code Managed} wrapper hands its options through): a key this source does not know, a
 * missing required option, a conditional option missing for its start mode or a value that does not
 * parse fails with an {@link IllegalArgumentException} naming the option.
 *
 * <p>Threading: stateless, any thread.
 */
final class ManagedKafkaPlanning {
    /** The stock source's options that its factory's rule leaves out but its config reads. */
    private static final List<Option<?>> STOCK_READ_OPTIONS =
            Arrays.<Option<?>>asList(
                    Config.KEY_POLL_TIMEOUT,
                    Config.MESSAGE_FORMAT_ERROR_HANDLE_WAY_OPTION,
                    Config.FIELD_DELIMITER,
                    Config.PROTOBUF_SCHEMA,
                    Config.PROTOBUF_MESSAGE_NAME,
                    KafkaConnectJsonFormatOptions.KEY_CONVERTER_SCHEMA_ENABLED,
                    KafkaConnectJsonFormatOptions.VALUE_CONVERTER_SCHEMA_ENABLED);

    /** The stock {@code Kafka} source's rule, plus the options it reads and the managed ones. */
    OptionRule optionRule() {
        return OptionRule.builder()
                .required(Config.BOOTSTRAP_SERVERS)
                .exclusive(Config.TOPIC, Config.TABLE_LIST)
                .optional(
                        Config.START_MODE,
                        Config.PATTERN,
                        Config.CONSUMER_GROUP,
                        Config.COMMIT_ON_CHECKPOINT,
                        Config.KAFKA_CONFIG,
                        Config.SCHEMA,
                        Config.FORMAT,
                        Config.DEBEZIUM_RECORD_INCLUDE_SCHEMA,
                        Config.KEY_PARTITION_DISCOVERY_INTERVAL_MILLIS)
                .optional(STOCK_READ_OPTIONS.toArray(new Option<?>[0]))
                .optional(ManagedReaderOptions.ALL)
                .optional(ManagedKafkaOptions.ALL.toArray(new Option<?>[0]))
                .conditional(Config.START_MODE, StartMode.TIMESTAMP, Config.START_MODE_TIMESTAMP)
                .conditional(
                        Config.START_MODE, StartMode.SPECIFIC_OFFSETS, Config.START_MODE_OFFSETS)
                .build();
    }

    /** Validates {@code options} as described in the class comment and builds the source. */
    ManagedKafkaSource create(ReadonlyConfig options) {
        rejectUnknownKeys(options);
        try {
            ConfigValidator.of(options).validate(optionRule());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedKafka options are invalid: " + e.getMessage(), e);
        }
        String bootstrap = options.get(Config.BOOTSTRAP_SERVERS);
        if (bootstrap == null || bootstrap.trim().isEmpty()) {
            throw new IllegalArgumentException(
                    "ManagedKafka option '" + Config.BOOTSTRAP_SERVERS.key() + "' is empty");
        }
        long pollTimeout = parse(options, Config.KEY_POLL_TIMEOUT);
        if (pollTimeout <= 0) {
            throw new IllegalArgumentException(
                    "ManagedKafka option '"
                            + Config.KEY_POLL_TIMEOUT.key()
                            + "' must be positive: "
                            + pollTimeout);
        }
        KafkaSourceConfig config;
        try {
            config = new KafkaSourceConfig(options);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedKafka options are invalid: " + e.getMessage(), e);
        }
        return new ManagedKafkaSource(
                options,
                config,
                ManagedReaderConfig.from(options),
                ManagedKafkaOptions.Values.from(options));
    }

    private static <V> V parse(ReadonlyConfig options, Option<V> option) {
        try {
            return options.get(option);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "ManagedKafka option '" + option.key() + "' is invalid: " + e.getMessage(), e);
        }
    }

    private void rejectUnknownKeys(ReadonlyConfig options) {
        // The conditional and exclusive options the rule names only through their conditions.
        UnknownOptions.reject(
                ManagedKafkaSourceFactory.IDENTIFIER,
                options,
                optionRule(),
                Arrays.asList(
                        Config.TOPIC.key(),
                        Config.TABLE_LIST.key(),
                        Config.START_MODE_TIMESTAMP.key(),
                        Config.START_MODE_OFFSETS.key()));
    }
}
