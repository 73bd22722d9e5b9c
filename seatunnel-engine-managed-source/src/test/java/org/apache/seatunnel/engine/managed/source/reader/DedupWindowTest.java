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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.concurrent.StartTogether;
import org.junit.jupiter.api.Test;

/** {@link DedupWindow}: small until ids collide, never past its bound, duplicates still caught. */
class DedupWindowTest {

    @Test
    void aNewWindowHoldsTheInitialSlotsOnly() {
        assertEquals(DedupWindow.INITIAL_SLOTS, new DedupWindow(4096).slots());
        assertEquals(16, new DedupWindow(16).slots());
    }

    @Test
    void aFewCommandsKeepItSmallAndAreAnsweredDuplicate() {
        DedupWindow w = new DedupWindow(4096);
        for (long id = 1; id <= 4; id++) {
            assertFalse(w.seen(id));
        }
        for (long id = 1; id <= 4; id++) {
            assertTrue(w.seen(id), "redelivery of " + id);
        }
        assertTrue(w.slots() <= 256, "slots " + w.slots());
    }

    @Test
    void manyCommandsGrowItToTheBoundAndNeverPast() {
        DedupWindow w = new DedupWindow(4096);
        for (long id = 1; id <= 100_000; id++) {
            w.seen(id);
            assertTrue(w.slots() <= 4096);
        }
        assertEquals(4096, w.slots());
    }

    @Test
    void idsRecordedBeforeADoublingAreStillDuplicatesAfterIt() {
        DedupWindow w = new DedupWindow(1 << 16);
        List<Long> ids = new ArrayList<>();
        for (long id = 1_000; ids.size() < 40; id += 7) {
            ids.add(id);
            w.seen(id);
        }
        int before = w.slots();
        // Enough further ids to force at least one doubling; then the last 40 are still there
        // unless a collision in the larger table pushed one out, which only a few may do.
        for (long id = 50_000; w.slots() == before; id++) {
            w.seen(id);
        }
        int kept = 0;
        for (long id : ids) {
            if (w.seen(id)) {
                kept++;
            }
        }
        assertTrue(kept >= 30, "ids kept across the doubling: " + kept + " of 40");
    }

    @Test
    void concurrentAdmittersNeverSeeAFreshIdAsDuplicateAndStayBounded() throws Exception {
        DedupWindow w = new DedupWindow(1024);
        int threads = 4;
        int perThread = 50_000;
        AtomicInteger falseDuplicates = new AtomicInteger();
        StartTogether.run(
                threads,
                t -> {
                    long base = (long) t << 40;
                    for (long i = 1; i <= perThread; i++) {
                        if (w.seen(base + i)) {
                            falseDuplicates.incrementAndGet();
                        }
                    }
                });
        assertEquals(0, falseDuplicates.get());
        assertEquals(1024, w.slots());
    }
}
