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

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.apache.seatunnel.engine.managed.faults.world.MiniEngine;
import org.apache.seatunnel.engine.managed.faults.world.WorldConfig;
import org.junit.jupiter.api.Test;

/**
 * One test per STIP-31 fault point. Each runs the real coordinator and reader loops in the {@link
 * MiniEngine} over many seeded schedules with faults at that point only (every action the point
 * allows, at several occurrences), checks split ownership after every step, drives the job to its
 * end and checks that every row of every split was committed exactly once. It also asserts that
 * every action really fired, so a test cannot pass by never reaching its point.
 */
class FaultPointTest {
    private static final int SEEDS = 40;
    private static final int STEPS = 150;

    @Test
    void point1CommandCreationCrashOrLossLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.COMMAND_CREATION, "1@2:CRASH,1@4:LOSE,1@6:LOSE,1@9:CRASH");
    }

    @Test
    void point2OperationSendLossDuplicateOrDelayLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.OPERATION_SEND, "2@1:LOSE,2@2:DELAY,2@3:DUPLICATE,2@5x2:LOSE,2@8x2:DELAY");
    }

    @Test
    void point3CapacityExhaustionStormLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.CAPACITY_RESERVATION, "3@1x6:RETRY_LATER,3@10x12:RETRY_LATER");
    }

    @Test
    void point4AdmissionAckLossOrDelayLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.ADMISSION_ACK, "4@1:LOSE,4@2:DELAY,4@4x2:LOSE,4@7x2:DELAY");
    }

    @Test
    void point5ConnectorApplyFailureBeforeReturnLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.CONNECTOR_APPLY_BEFORE_RETURN, "5@1:CRASH,5@4:CRASH");
    }

    @Test
    void point6ApplyCompletionFailureLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.APPLY_COMPLETION, "6@1:CRASH,6@4:CRASH");
    }

    @Test
    void point7ApplyAckLossDuplicateOrDelayLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.APPLY_ACK, "7@1:LOSE,7@2:DUPLICATE,7@3:DELAY,7@5x2:LOSE,7@8:DELAY");
    }

    @Test
    void point8ReaderSnapshotBeforeStateRegistrationLosesNoSplitAndReadsNoRowTwice() {
        check(
                FaultPoint.READER_SNAPSHOT_BEFORE_STATE_REGISTRATION,
                "8@1:STALL,8@3:CRASH,8@6:STALL");
    }

    @Test
    void point9StateRegistrationBeforeTaskAckLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.STATE_REGISTRATION_BEFORE_TASK_ACK, "9@1:STALL,9@3:CRASH,9@6:STALL");
    }

    @Test
    void point10TaskAckBeforeDownstreamForwardingLosesNoSplitAndReadsNoRowTwice() {
        check(FaultPoint.TASK_ACK_BEFORE_DOWNSTREAM_FORWARDING, "10@1:STALL,10@3:CRASH,10@6:STALL");
    }

    @Test
    void point11GlobalCompletionBeforeTrackerGcLosesNoSplitAndReadsNoRowTwice() {
        check(
                FaultPoint.GLOBAL_COMPLETION_BEFORE_TRACKER_GC,
                "11@1:CRASH,11@2:LOSE,11@3:DELAY,11@5:CRASH");
    }

    private static void check(FaultPoint point, String scheduleText) {
        FaultSchedule schedule = FaultSchedule.parse(scheduleText);
        Map<FaultAction, Integer> fired = new EnumMap<>(FaultAction.class);
        for (long seed = 0; seed < SEEDS; seed++) {
            MiniEngine w = new MiniEngine(config(seed, schedule));
            try {
                WorldDriver.run(w, new Random(seed), STEPS, false);
            } catch (AssertionError e) {
                throw new AssertionError(
                        "fault point " + point.number() + ", seed " + seed + ": " + e.getMessage(),
                        e);
            }
            for (String f : w.faults().fired()) {
                assertTrue(
                        f.startsWith(point.number() + "#"),
                        "only point " + point.number() + " fires: " + f);
                FaultAction a =
                        FaultAction.valueOf(f.substring(f.indexOf(':') + 1, f.indexOf(' ')));
                fired.merge(a, 1, Integer::sum);
            }
        }
        for (FaultAction a : point.actions()) {
            assertTrue(
                    fired.getOrDefault(a, 0) > 0,
                    "fault point " + point.number() + " never fired " + a + ": " + fired);
        }
    }

    static WorldConfig config(long seed, FaultSchedule schedule) {
        return WorldConfig.builder()
                .seed(seed)
                .parallelism(1 + (int) (seed % 3))
                .splits(3 + (int) (seed % 5))
                .drainBatch(seed % 2 == 0 ? 1024 : 2)
                .schedule(schedule)
                .checkOwnershipEveryStep(true)
                .barriersBetweenTurns(true)
                .build();
    }
}
