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

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.source.Collector;
import org.junit.jupiter.api.Test;

/**
 * The record and byte budgets of one turn are exact for uniform records: a greedy reader emits
 * exactly min(records, ceil(bytes / size)) records, the last one being the record that reaches the
 * byte budget. Seeded ({@code -Dfuzz.seed}); the seed is printed.
 */
class PollTurnBudgetTest {
    private final long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());

    @Test
    void uniformRecordsStopExactlyAtTheRecordOrByteBudget() {
        System.out.println("PollTurnBudgetTest fuzz.seed=" + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 20_000; i++) {
            int maxRecords = 1 + rnd.nextInt(300);
            long size;
            long maxBytes;
            switch (rnd.nextInt(4)) {
                case 0: // small records, the budget within a few windows
                    size = 1 + rnd.nextInt(64);
                    maxBytes = 1 + rnd.nextLong(size * 40);
                    break;
                case 1: // typical rows against a MiB-scale budget
                    size = 1 + rnd.nextInt(4096);
                    maxBytes = 1 + rnd.nextLong(4L << 20);
                    break;
                case 2: // sizes too large for the overflow-free multiply
                    size = Long.MAX_VALUE / PollTurn.SIZE_EVERY - 4 + rnd.nextInt(8);
                    maxBytes = 1 + rnd.nextLong(Long.MAX_VALUE / 2);
                    break;
                default: // no byte budget to speak of
                    size = 1 + rnd.nextInt(1 << 20);
                    maxBytes = Long.MAX_VALUE;
                    break;
            }
            long toReach = maxBytes / size + (maxBytes % size == 0 ? 0 : 1);
            long expected = Math.min(maxRecords, toReach);
            int emitted = greedyTurn(maxRecords, maxBytes, size);
            assertEquals(
                    expected,
                    emitted,
                    "seed="
                            + seed
                            + " case="
                            + i
                            + " maxRecords="
                            + maxRecords
                            + " maxBytes="
                            + maxBytes
                            + " size="
                            + size);
        }
    }

    @Test
    void theRecordThatReachesTheByteBudgetIsTheLast() {
        // 16 MiB records against 64 MiB: the fourth record reaches it, inside the first window.
        assertEquals(4, greedyTurn(64, 64L << 20, 16L << 20));
        // One byte past a multiple needs one more record.
        assertEquals(5, greedyTurn(64, (64L << 20) + 1, 16L << 20));
        // Exactly at a window boundary (the mark after SIZE_EVERY records).
        assertEquals(PollTurn.SIZE_EVERY + 1, greedyTurn(64, 10L * (PollTurn.SIZE_EVERY + 1), 10));
    }

    private static int greedyTurn(int maxRecords, long maxBytes, long size) {
        PollBudget budget = LoopHarness.budget(maxRecords, maxBytes, 5);
        LoopHarness h = new LoopHarness(MailboxLimits.defaults(), budget, 256L << 20);
        PollTurn<Object> turn =
                new PollTurn<>(budget, h.clock, h.mailbox, r -> size, new AtomicLong());
        int[] handedOn = new int[1];
        turn.begin(
                new Collector<Object>() {
                    @Override
                    public void collect(Object record) {
                        handedOn[0]++;
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return this;
                    }
                });
        Object record = new Object();
        // Bounded: a turn that ignored its budgets would fail the comparison, not hang.
        while (!turn.shouldYield() && handedOn[0] <= maxRecords) {
            turn.collect(record);
        }
        assertEquals(handedOn[0], turn.emitted());
        return handedOn[0];
    }
}
