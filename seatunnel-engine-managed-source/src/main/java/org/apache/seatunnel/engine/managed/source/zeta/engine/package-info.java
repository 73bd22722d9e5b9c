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
 * The engine binding: every place Lane A reaches into SeaTunnel Zeta beyond its connector SPI (task
 * internals read by reflection, the job master, the running-job map, Hazelcast's node engine),
 * behind one interface, {@link
 * org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding}, with one implementation
 * per engine version ({@link
 * org.apache.seatunnel.engine.managed.source.zeta.engine.Zeta238Binding}). Supporting a later
 * engine is one new class here and one line in {@link
 * org.apache.seatunnel.engine.managed.source.zeta.engine.EngineBinding#forVersion}; the hosts, the
 * member service and the lane sources only see the interface.
 *
 * <p>Threading: bindings are stateless; the handles they return say which thread may use them.
 */
package org.apache.seatunnel.engine.managed.source.zeta.engine;
