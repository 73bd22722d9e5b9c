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

package org.apache.seatunnel.engine.managed.source.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The seam of a JVM that names no injection, as a production member: nothing is installed. */
class FaultSeamTest {

    @Test
    void withoutThePropertyNothingIsInstalledAndEverySiteProceeds() throws Exception {
        assertNull(System.getProperty(FaultSeam.PROPERTY), "this module's tests never set it");
        assertNull(FaultSeam.INSTALLED);
        for (FaultSite s : FaultSite.values()) {
            assertEquals(FaultAction.PROCEED, FaultSeam.at(s, 1, 0, "x"));
        }
        FaultSeam.hold(FaultSite.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION);
    }

    @Test
    void sitesCarryOutOnlyTheirActionsAndAreNumberedAsTheStip() {
        assertEquals(11, FaultSite.values().length);
        for (FaultSite s : FaultSite.values()) {
            assertEquals(s.ordinal() + 1, s.number());
            assertTrue(s.allows(FaultAction.PROCEED));
        }
        assertTrue(FaultSite.CAPACITY_RESERVATION.allows(FaultAction.RETRY_LATER));
        assertFalse(FaultSite.CAPACITY_RESERVATION.allows(FaultAction.CRASH));
        assertFalse(FaultSite.APPLY_COMPLETION.allows(FaultAction.LOSE));
        assertTrue(
                new InjectedFaultException(FaultSite.APPLY_ACK, FaultAction.LOSE)
                        .getMessage()
                        .contains("fault point 7"));
    }
}
