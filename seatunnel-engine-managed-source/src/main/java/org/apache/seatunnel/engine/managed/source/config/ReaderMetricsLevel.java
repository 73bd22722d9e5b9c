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

package org.apache.seatunnel.engine.managed.source.config;

/**
 * Which of a Lane A reader's own metrics its engine task registers ({@code reader.metrics-level}).
 *
 * <p>Every registered metric costs about 1.2 KiB of heap per reader in a stock Zeta member (the
 * engine publishes each through Hazelcast's metrics registry to JMX, and the master keeps a copy of
 * the job's metrics), so a job of many readers pays for the detailed set in every reader.
 */
public enum ReaderMetricsLevel {
    /** What an operator watches: mailbox levels, poll work, commands applied, checkpoints. */
    BASIC,
    /** Every reader metric, for diagnosing one job. */
    DETAILED
}
