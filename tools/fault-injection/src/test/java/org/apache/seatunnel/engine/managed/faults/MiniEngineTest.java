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

import java.util.List;
import java.util.Random;
import org.apache.seatunnel.engine.managed.faults.world.MiniEngine;
import org.apache.seatunnel.engine.managed.faults.world.RowSplit;
import org.apache.seatunnel.engine.managed.faults.world.WorldConfig;
import org.apache.seatunnel.engine.managed.source.reader.ReaderDriver;
import org.junit.jupiter.api.Test;

/** The in-process engine itself: a fault-free job and failovers end with every row once. */
class MiniEngineTest {

    @Test
    void faultFreeJobCommitsEveryRowExactlyOnce() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(3)
                                .parallelism(3)
                                .splits(7)
                                .checkOwnershipEveryStep(true)
                                .build());
        w.runToCompletion();
        assertEquals(0, w.restores());
        int rows = 0;
        for (org.apache.seatunnel.engine.managed.faults.world.RowSplit s : w.allSplits()) {
            rows += s.length();
        }
        assertEquals(rows, w.sink().committed().size());
    }

    @Test
    void jobWithoutCheckpointsCommitsEveryRowExactlyOnce() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(4)
                                .checkpointsEnabled(false)
                                .checkOwnershipEveryStep(true)
                                .build());
        WorldDriver.run(w, new Random(4), 60, true);
        w.checkExactlyOnce();
    }

    @Test
    void randomFailoversWithoutInjectedFaultsKeepExactlyOnce() {
        int restores = 0;
        for (long seed = 0; seed < 40; seed++) {
            MiniEngine w =
                    new MiniEngine(
                            WorldConfig.builder()
                                    .seed(seed)
                                    .parallelism(1 + (int) (seed % 3))
                                    .splits(1 + (int) (seed % 6))
                                    .checkOwnershipEveryStep(true)
                                    .barriersBetweenTurns(true)
                                    .build());
            WorldDriver.run(w, new Random(seed), 120, true);
            restores += w.restores();
        }
        assertTrue(restores > 0, "the schedules failed over at least once");
    }

    /**
     * Hazard 1: an assignment dispatched after the coordinator's snapshot of checkpoint 1 reaches
     * the reader before its barrier 1. The reader holds it past the barrier, so after a restore
     * from checkpoint 1 the split is owned once (by the enumerator) and read once.
     */
    @Test
    void assignmentBetweenCoordinatorSnapshotAndReaderBarrierIsNotDuplicatedAfterRestore() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(11)
                                .parallelism(1)
                                .splits(2)
                                .maxRowsPerSplit(1)
                                .checkOwnershipEveryStep(true)
                                .build());
        assertTrue(w.triggerCheckpoint());
        // The reader asks for a split; the coordinator assigns it with cut 1 and it is admitted.
        w.stepReader(0);
        w.drain();
        w.stepReader(0);
        assertEquals(1, w.readerHeldCommands(0), "the post-cut assignment is held");
        assertTrue(w.readerOwned(0).isEmpty());
        assertTrue(w.deliverBarrier(0));
        assertTrue(w.completeCheckpoint());
        w.stepReader(0);
        w.stepReader(0);
        w.failReader(0);
        assertEquals(1, w.restores());
        assertEquals(2, w.enumeratorPending().size(), "both splits are the enumerator's again");
        w.runToCompletion();
    }

    /**
     * Rescale down: reader 2 of 3 has read part of a split when a savepoint is taken (one engine
     * call reads at most {@link ReaderDriver#MAX_TURNS_PER_CALL} turns of one row); the job
     * restores with 2 readers. Zeta hands the survivor 0 the states of old readers 0 and 2; the
     * split comes back to the enumerator at the row where its lineage stops and is read to its end
     * once.
     */
    @Test
    void rescaleDownHandsASplitOfARemovedReaderOutAgainWhereItStopped() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(21)
                                .parallelism(3)
                                .splits(4)
                                .maxRowsPerSplit(20)
                                .checkOwnershipEveryStep(true)
                                .build());
        w.stepReader(2); // asks for a split
        w.drain(); // split-0 assigned and admitted
        w.stepReader(2); // applies it and reads a turn's row per turn, up to the call's turn cap
        w.drain();
        List<RowSplit> owned = w.readerOwned(2);
        assertEquals(1, owned.size(), "reader 2 reads one split");
        RowSplit mid = owned.get(0);
        assertEquals(ReaderDriver.MAX_TURNS_PER_CALL, mid.position(), "rows of one call: " + mid);
        assertTrue(mid.length() > mid.position(), "the split is read part way: " + mid);
        assertTrue(w.fullCheckpoint());

        w.rescale(2);
        assertEquals(2, w.parallelism());
        assertEquals(1, w.rescalesDown());
        assertEquals(1, w.splitsFromRemovedSubtasks());
        assertTrue(
                w.enumeratorPending().stream()
                        .anyMatch(
                                s ->
                                        s.splitId().equals(mid.splitId())
                                                && s.position() == mid.position()),
                "back with the enumerator where it stopped: " + w.enumeratorPending());
        w.runToCompletion();
    }

    /** Rescale up: a savepoint with one reader restores with three, which share the rest. */
    @Test
    void rescaleUpLetsNewReadersTakeOverTheSplitsLeft() {
        MiniEngine w =
                new MiniEngine(
                        WorldConfig.builder()
                                .seed(22)
                                .parallelism(1)
                                .splits(6)
                                .maxRowsPerSplit(3)
                                .checkOwnershipEveryStep(true)
                                .build());
        w.stepReader(0);
        w.drain();
        w.stepReader(0);
        assertTrue(w.fullCheckpoint());
        w.rescale(3);
        assertEquals(3, w.parallelism());
        assertEquals(1, w.rescalesUp());
        w.runToCompletion();
        for (int s = 0; s < 3; s++) {
            assertTrue(w.readerFinished(s), "reader " + s + " reached end of input");
        }
    }
}
