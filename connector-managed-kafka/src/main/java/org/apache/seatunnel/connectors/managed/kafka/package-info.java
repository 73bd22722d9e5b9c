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

/**
 * The Kafka source on Lane A ({@code ManagedKafka}): SeaTunnel {@code connector-kafka} 2.3.8's
 * options, deserialization, partition split reader and record emitter on the managed reader base;
 * offsets live only in engine-owned split state, partitions are discovered on the coordinator
 * scheduler's worker pool, and offsets are committed to Kafka when a checkpoint completes (never by
 * the consumer's auto-commit).
 */
package org.apache.seatunnel.connectors.managed.kafka;
