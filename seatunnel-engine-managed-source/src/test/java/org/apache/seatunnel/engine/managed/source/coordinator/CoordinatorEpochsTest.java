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

package org.apache.seatunnel.engine.managed.source.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CoordinatorEpochsTest {

    @Test
    void aFreshSourceStartsAtEpochOne() {
        assertEquals(1, CoordinatorEpochs.next(CoordinatorEpochs.inMemory(), 7, 1, 0));
    }

    @Test
    void twoRestoresFromOneCheckpointGetIncreasingEpochs() {
        CoordinatorEpochs.Store store = CoordinatorEpochs.inMemory();
        long checkpointed = CoordinatorEpochs.next(store, 7, 1, 0);
        long first = CoordinatorEpochs.next(store, 7, 1, checkpointed);
        long second = CoordinatorEpochs.next(store, 7, 1, checkpointed);
        assertEquals(2, first);
        assertEquals(3, second);
    }

    @Test
    void aRestartWithoutCheckpointStillMovesOn() {
        CoordinatorEpochs.Store store = CoordinatorEpochs.inMemory();
        assertEquals(1, CoordinatorEpochs.next(store, 7, 1, 0));
        assertEquals(2, CoordinatorEpochs.next(store, 7, 1, 0));
    }

    @Test
    void aLostMarkFallsBackToTheCheckpointsEpoch() {
        // A cluster restarted: the store is empty, the checkpoint remembers epoch 41.
        assertEquals(42, CoordinatorEpochs.next(CoordinatorEpochs.inMemory(), 7, 1, 41));
    }

    @Test
    void sourcesAndJobsKeepTheirOwnMarks() {
        CoordinatorEpochs.Store store = CoordinatorEpochs.inMemory();
        CoordinatorEpochs.next(store, 7, 1, 0);
        CoordinatorEpochs.next(store, 7, 1, 0);
        assertEquals(1, CoordinatorEpochs.next(store, 7, 2, 0));
        assertEquals(1, CoordinatorEpochs.next(store, 8, 1, 0));
    }

    @Test
    void aStoreThatDoesNotMoveIsRefused() {
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class,
                        () -> CoordinatorEpochs.next((job, source, floor) -> 5, 7, 1, 5));
        assertTrue(e.getMessage().contains("epoch store answered 5"), e.getMessage());
    }

    @Test
    void theEpochSpaceEndsAtTheCommandIdBound() {
        CoordinatorEpochs.Store store = CoordinatorEpochs.inMemory();
        assertEquals(
                CoordinatorEpochs.MAX_EPOCH,
                CoordinatorEpochs.next(store, 7, 1, CoordinatorEpochs.MAX_EPOCH - 1));
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class, () -> CoordinatorEpochs.next(store, 7, 1, 0));
        assertTrue(e.getMessage().contains("ran out of epochs"), e.getMessage());
    }
}
