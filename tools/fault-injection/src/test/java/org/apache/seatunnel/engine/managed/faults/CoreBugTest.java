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
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.engine.managed.faults.world.MiniEngine;
import org.apache.seatunnel.engine.managed.faults.world.WorldConfig;
import org.junit.jupiter.api.Test;

/**
 * Deterministic reproductions of defects found in the runtime, kept as regressions: each schedule
 * that exposed one runs against the fixed runtime, next to the configuration that still refuses it
 * where the runtime now refuses rather than reads twice. New open defects are tagged {@code
 * core-bug}, which the default run excludes (run them with {@code -Dfault.excludedGroups=
 * -Dgroups=core-bug}).
 */
class CoreBugTest {

    /**
     * A reader reads split-0 to its end; checkpoint 1's coordinator blob still tracks the
     * assignment as APPLIED (the blob is taken before the reader's barrier), and the reader's
     * metadata at barrier 1 proves it. The job then restores from checkpoint 1.
     */
    private static MiniEngine readSplitThenRestore(WorldConfig.EpochPolicy epochs) {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(5)
                                .parallelism(1)
                                .splits(2)
                                .maxRowsPerSplit(1)
                                .epochPolicy(epochs)
                                .checkOwnershipEveryStep(true)
                                .build());
        w.stepReader(0); // asks for a split
        w.drain(); // split-0 assigned and admitted
        w.stepReader(0); // applies it and reads its only row
        w.drain(); // apply ack: APPLIED
        assertTrue(w.triggerCheckpoint());
        assertTrue(w.deliverBarrier(0));
        assertTrue(w.completeCheckpoint());
        w.failReader(0); // restore from checkpoint 1: the ownership check runs here
        return w;
    }

    @Test
    void restoreWithIncrementedEpochDoesNotHandOutAFinishedSplitAgain() {
        MiniEngine w = readSplitThenRestore(WorldConfig.EpochPolicy.HIGH_WATER);
        assertEquals(2, w.epoch());
        w.runToCompletion();
    }

    /**
     * Regression (was a bug): the Zeta host built every coordinator, restored or not, with epoch 1,
     * so the restored owner's metadata proved nothing and a finished split was handed out again.
     * The host now runs a restored coordinator in the blob's epoch + 1, and the core refuses a
     * restore into an epoch that is not later (the restore fails instead of reading twice).
     */
    @Test
    void restoreIntoTheSameEpochIsRefusedRatherThanReadingTwice() {
        // The mini-engine reports a failed coordinator command as an AssertionError.
        AssertionError e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        AssertionError.class,
                        () -> readSplitThenRestore(WorldConfig.EpochPolicy.CONSTANT));
        assertTrue(e.getMessage().contains("must run in a later epoch"), e.getMessage());
    }

    /**
     * The first assignment to a fresh reader attempt (sequence 1) is lost in transit; before the
     * coordinator's retry, checkpoint 1 is aborted and the cut release (sequence 2) reaches the
     * reader first. Then the retry arrives.
     */
    private static MiniEngine firstCommandOvertaken() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(7)
                                .parallelism(1)
                                .splits(2)
                                .maxRowsPerSplit(1)
                                .schedule(FaultSchedule.parse("2@1:LOSE"))
                                .checkOwnershipEveryStep(true)
                                .build());
        assertTrue(w.triggerCheckpoint());
        w.stepReader(0); // asks for a split
        w.drain(); // split-0 dispatched with sequence 1: lost, a retry is scheduled
        assertEquals(1, w.faults().firedAt(FaultPoint.OPERATION_SEND));
        assertTrue(w.abortCheckpoint(true));
        w.drain(); // releases cut 1 with sequence 2, which arrives first
        w.stepReader(0);
        w.advanceTime(1_000); // the retry of sequence 1
        w.drain();
        for (int i = 0; i < 4; i++) {
            w.stepReader(0);
        }
        w.fullCheckpoint();
        return w;
    }

    @Test
    void firstAssignmentRetriedBehindALaterCommandIsStillRead() {
        firstCommandOvertaken().runToCompletion();
    }

    /**
     * Regression (was a bug): the host chose epoch = the restored checkpoint's epoch + 1, so two
     * restores from one checkpoint (the first failed before it took another) ran in the same epoch,
     * and commands of the first could reach readers of the second. Epochs now come from the
     * source's high-water mark, as on the engine.
     */
    @Test
    void twoRestoresFromOneCheckpointNeverShareAnEpoch() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(11)
                                .parallelism(2)
                                .splits(4)
                                .maxRowsPerSplit(2)
                                .checkOwnershipEveryStep(true)
                                .build());
        assertTrue(w.fullCheckpoint());
        long checkpointed = w.epoch();
        w.failReader(0);
        long first = w.epoch();
        w.failReader(1); // no checkpoint in between: restores from the same one
        long second = w.epoch();
        assertTrue(first > checkpointed, first + " after " + checkpointed);
        assertTrue(second > first, "the second restore's epoch " + second + " after " + first);
        w.failCoordinator();
        assertTrue(w.epoch() > second);
        w.runToCompletion();
    }
}
