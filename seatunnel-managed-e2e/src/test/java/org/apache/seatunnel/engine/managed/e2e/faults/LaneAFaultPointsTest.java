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

package org.apache.seatunnel.engine.managed.e2e.faults;

import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The eleven fault points on one member: see {@link FaultPointsOnEngine}. */
class LaneAFaultPointsTest extends FaultPointsOnEngine {

    @BeforeAll
    static void startEngine() {
        start("lane-a-fault-points", 25100, 1);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void everyRowExactlyOnceThroughTheFault(
            FaultSite site, FaultAction action, String detail, int times) throws Exception {
        runWithFault(site, action, detail, times);
    }
}
