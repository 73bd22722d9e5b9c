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

package org.apache.seatunnel.engine.managed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The schedule's text form, its seeded generation and the injector's occurrence counting. */
class FaultScheduleTest {

    @Test
    void stipNumbersTheElevenPointsOneToEleven() {
        assertEquals(11, FaultPoint.values().length);
        for (int n = 1; n <= 11; n++) {
            assertEquals(n, FaultPoint.byNumber(n).number());
        }
    }

    @Test
    void printedScheduleParsesBackToTheSameSchedule() {
        FaultSchedule s =
                FaultSchedule.of(
                        FaultSchedule.at(FaultPoint.OPERATION_SEND, 3, FaultAction.LOSE),
                        FaultSchedule.at(
                                FaultPoint.CAPACITY_RESERVATION, 1, 5, FaultAction.RETRY_LATER),
                        FaultSchedule.at(
                                FaultPoint.GLOBAL_COMPLETION_BEFORE_TRACKER_GC,
                                2,
                                FaultAction.CRASH));
        assertEquals("2@3:LOSE,3@1x5:RETRY_LATER,11@2:CRASH", s.toString());
        assertEquals(s, FaultSchedule.parse(s.toString()));
    }

    @Test
    void seedStringReplaysTheSameRandomSchedule() {
        for (long seed = 0; seed < 100; seed++) {
            FaultSchedule s = FaultSchedule.random(seed);
            assertEquals(s, FaultSchedule.parse("seed:" + seed));
            assertEquals(s, FaultSchedule.parse(s.toString()));
        }
    }

    @Test
    void injectorFiresExactlyTheScheduledOccurrences() {
        FaultInjector f = new FaultInjector(FaultSchedule.parse("3@2x3:RETRY_LATER,7@1:DELAY"));
        List<FaultAction> got = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            got.add(f.at(FaultPoint.CAPACITY_RESERVATION, "x"));
        }
        List<FaultAction> want = new ArrayList<>();
        want.add(null);
        want.add(FaultAction.RETRY_LATER);
        want.add(FaultAction.RETRY_LATER);
        want.add(FaultAction.RETRY_LATER);
        want.add(null);
        want.add(null);
        assertEquals(want, got);
        assertEquals(FaultAction.DELAY, f.at(FaultPoint.APPLY_ACK, "y"));
        assertEquals(4, f.fired().size());
        f.disable();
        assertNull(f.at(FaultPoint.APPLY_ACK, "y"));
    }

    @Test
    void actionAPointDoesNotAllowIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse("5@1:LOSE"));
        assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse("12@1:CRASH"));
    }
}
