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
 * Running a connector on a real, embedded SeaTunnel Zeta 2.3.8 engine with Lane A enabled, from a
 * connector author's own test: the engine, the managed-source settings, an exactly-once committing
 * sink for any row type and row accounting.
 *
 * <p>Start with {@link org.apache.seatunnel.managed.testkit.engine.LaneAHarness} and {@link
 * org.apache.seatunnel.managed.testkit.engine.ManagedJob}: a bounded job on Lane A or Lane B in a
 * few lines. The parts it is made of are public for tests that need more (streaming, savepoints,
 * cancel): {@link org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta}, {@link
 * org.apache.seatunnel.managed.testkit.engine.LaneASettings}, the {@code TestkitCollect} sink
 * ({@link org.apache.seatunnel.managed.testkit.engine.CollectingSink}) filling {@link
 * org.apache.seatunnel.managed.testkit.engine.CollectedRows} with {@link
 * org.apache.seatunnel.managed.testkit.engine.RowKeys}, and {@link
 * org.apache.seatunnel.managed.testkit.engine.RowAccounting}. The jar's {@code log4j2.xml} shows
 * the runtime's INFO lines in test output; see the connector guide for overriding it.
 */
package org.apache.seatunnel.managed.testkit.engine;
