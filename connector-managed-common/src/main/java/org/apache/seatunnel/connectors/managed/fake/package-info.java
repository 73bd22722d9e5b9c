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
 * A managed FakeSource: a deterministic generator connector on the managed reader base that runs on
 * both lanes of STIP-31.
 *
 * <p>Rows are generated on the base's fetch thread (with optional slow data and rate limits) and
 * emitted on the reader loop. On Lane B, with slow data, the reader waits for the next chunk while
 * holding the checkpoint lock, as today's readers do (apache/seatunnel#5694); on Lane A nothing
 * waits on the loop.
 *
 * <p>Every row carries its split number and sequence number (and a payload {@code
 * "fake-<n>:<seq>"}) so a test sink can check exactly-once delivery as a multiset of (split, seq).
 * Fault injection and probes are {@link
 * org.apache.seatunnel.connectors.managed.fake.ManagedFakeHooks} implemented in test code.
 */
package org.apache.seatunnel.connectors.managed.fake;
