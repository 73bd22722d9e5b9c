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

package org.apache.seatunnel.connectors.managed.fake.testing;

import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.Options;

/** The fault-injection options of {@code ManagedFakeTesting} (test code only). */
public final class ManagedFakeTestingOptions {
    private ManagedFakeTestingOptions() {}

    public static final Option<String> FAULT_ID =
            Options.key("fault.id")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The JVM-wide key of this job's once-only faults, so a restored"
                                    + " attempt does not fail again. Empty = the fault options"
                                    + " below are off.");

    public static final Option<Long> FAIL_ONCE_AT_ROW =
            Options.key("fail.once.at.row")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription(
                            "A reader throws instead of emitting its N-th row (counted per reader"
                                    + " attempt), once per fault.id in this JVM; -1 = never.");

    public static final Option<String> ENUMERATOR_FAIL_ON =
            Options.key("enumerator.fail.on")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "'snapshot' or 'checkpoint-complete' makes the enumerator throw once"
                                    + " per fault.id from that callback for checkpoint"
                                    + " enumerator.fail.at.checkpoint or later.");

    public static final Option<Long> ENUMERATOR_FAIL_AT_CHECKPOINT =
            Options.key("enumerator.fail.at.checkpoint")
                    .longType()
                    .defaultValue(2L)
                    .withDescription("See enumerator.fail.on.");

    public static final Option<Long> HOLD_SNAPSHOT_AT_CHECKPOINT =
            Options.key("enumerator.hold.snapshot.at.checkpoint")
                    .longType()
                    .defaultValue(-1L)
                    .withDescription(
                            "The enumerator's snapshot of this checkpoint waits (bounded) until a"
                                    + " test releases fault.id through ManagedFakeFaults, once per"
                                    + " fault.id; -1 = never.");
}
