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

package org.apache.seatunnel.engine.managed.e2e.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The checkpoint p99 criterion, including a lane that completed no checkpoint in its window. */
class GateTableCheckpointTest {
    @Test
    void laneAIsAllowedLaneBsP99PlusTheLargerOfFivePercentAndOneHundredMilliseconds() {
        assertEquals("PASS (limit 110 ms)", GateTable.checkpointP99Verdict(10, 110));
        assertEquals("FAIL (limit 110 ms)", GateTable.checkpointP99Verdict(10, 111));
        assertEquals("PASS (limit 4200 ms)", GateTable.checkpointP99Verdict(4000, 4200));
    }

    @Test
    void aLaneWithoutACompletedCheckpointFailsOnlyIfItIsLaneA() {
        assertEquals(
                "PASS (Lane B completed no checkpoint in its window)",
                GateTable.checkpointP99Verdict(Double.NaN, 5));
        assertEquals(
                "FAIL (Lane A completed no checkpoint)",
                GateTable.checkpointP99Verdict(13, Double.NaN));
        assertEquals(
                "FAIL (Lane A completed no checkpoint)",
                GateTable.checkpointP99Verdict(Double.NaN, Double.NaN));
    }
}
