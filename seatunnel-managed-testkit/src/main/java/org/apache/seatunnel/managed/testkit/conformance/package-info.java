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
 * The conformance suite for Lane A connectors: extend {@code ManagedReaderConformanceSuite}, supply
 * the source and fixture data, and every rule of the reader contract runs against the connector;
 * extend {@code ManagedEnumeratorConformanceSuite} and the rules of the enumerator contract run
 * against its enumerator on a deterministic fake engine ({@code DeterministicScheduler}); {@code
 * ConformanceMain} (tools/conformance.sh) runs both against a connector jar from the command line.
 * Each failure names the rule it broke.
 */
package org.apache.seatunnel.managed.testkit.conformance;
