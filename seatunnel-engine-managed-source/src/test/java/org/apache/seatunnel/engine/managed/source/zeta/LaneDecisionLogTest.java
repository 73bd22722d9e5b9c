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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LaneDecisionLogTest {

    @Test
    void aDecisionIsNewOnceAndAgainOnlyWhenItChanges() {
        LaneDecisionLog log = new LaneDecisionLog(16);
        assertTrue(log.isNew("1", "Managed", "lane=A"));
        assertFalse(log.isNew("1", "Managed", "lane=A"), "a job-info call deserializes again");
        assertTrue(log.isNew("2", "Managed", "lane=A"), "another job");
        assertTrue(log.isNew("1", "Other", "lane=A"), "another source of the job");
        assertTrue(log.isNew("1", "Managed", "lane=B"), "the kill switch flipped");
        assertFalse(log.isNew("1", "Managed", "lane=B"));
    }

    @Test
    void itRemembersAtMostItsCapacityForgettingTheLeastRecentlySeen() {
        LaneDecisionLog log = new LaneDecisionLog(2);
        log.isNew("1", "s", "d");
        log.isNew("2", "s", "d");
        log.isNew("1", "s", "d");
        log.isNew("3", "s", "d");
        assertEquals(2, log.size());
        assertFalse(log.isNew("1", "s", "d"), "seen recently, kept");
        assertTrue(log.isNew("2", "s", "d"), "least recently seen, forgotten: logged again");
    }
}
