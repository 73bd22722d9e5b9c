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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The split-id index against a plain map, including ids that share a fingerprint. */
class SplitIdIndexTest {

    /** Holds one id; equal fingerprints are forced by the tests, not by this class. */
    private static final class One extends SplitIdIndex.Holder {
        final byte[] id;

        One(String id) {
            this.id = id.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean holds(byte[] other) {
            return Arrays.equals(id, other);
        }
    }

    @Test
    void idsSharingAFingerprintAreTwoEntriesNeverMistakenForOne() {
        SplitIdIndex index = new SplitIdIndex();
        One a = new One("a");
        One b = new One("b");
        index.add(42, a);
        index.add(42, b);
        assertSame(a, index.find(42, a.id));
        assertSame(b, index.find(42, b.id));
        assertNull(index.find(42, "c".getBytes(StandardCharsets.UTF_8)), "same fingerprint");
        assertTrue(index.remove(42, a));
        assertNull(index.find(42, a.id));
        assertSame(b, index.find(42, b.id), "the other one survives the deletion");
        assertFalse(index.remove(42, a), "nothing left to remove");
        assertEquals(1, index.holders(), "a's number was freed with its last entry");
    }

    @Test
    void oneHolderKeepsItsNumberUntilItsLastEntryLeaves() {
        SplitIdIndex index = new SplitIdIndex();
        One a = new One("a");
        One b = new One("b");
        // Two entries of one holder that share a fingerprint: the slots are alike, either goes.
        index.add(42, a);
        index.add(42, a);
        index.add(43, b);
        assertEquals(2, index.holders());
        assertTrue(index.remove(42, a));
        assertSame(a, index.find(42, a.id), "one entry of a is left");
        assertTrue(index.remove(42, a));
        assertNull(index.find(42, a.id));
        assertEquals(1, index.holders());
        // The freed number goes to the next holder; b's entry still answers as b.
        One c = new One("c");
        assertTrue(index.replace(43, b, c));
        assertSame(c, index.find(43, "c".getBytes(StandardCharsets.UTF_8)));
        assertNull(index.find(43, b.id));
        assertFalse(index.remove(43, b), "b left with its entry");
        assertEquals(1, index.holders());
    }

    @Test
    void randomAddsRemovesAndMovesAgreeWithAMapAndTheTableShrinksBack() {
        long seed = Long.getLong("index.seed", System.nanoTime());
        Random rnd = new Random(seed);
        SplitIdIndex index = new SplitIdIndex();
        Map<String, SplitIdIndex.Holder> model = new HashMap<>();
        List<String> live = new ArrayList<>();
        for (int step = 0; step < 200_000; step++) {
            int op = rnd.nextInt(10);
            if (op < 5 || live.isEmpty()) {
                // Few distinct fingerprints now and then, so probe runs collide and wrap.
                String id = "split-" + rnd.nextInt(1_000_000);
                if (model.containsKey(id)) {
                    continue;
                }
                One h = new One(id);
                index.add(fp(id, rnd.nextInt(8) == 0), h);
                model.put(id, h);
                live.add(id);
            } else if (op < 9) {
                String id = live.remove(rnd.nextInt(live.size()));
                SplitIdIndex.Holder h = model.remove(id);
                assertTrue(index.remove(fp(id, isForced(id)), h), "seed " + seed);
            } else {
                String id = live.get(rnd.nextInt(live.size()));
                One moved = new One(id);
                assertTrue(index.replace(fp(id, isForced(id)), model.get(id), moved));
                model.put(id, moved);
            }
            if (step % 1000 == 0) {
                assertEquals(model.size(), index.holders(), "seed " + seed);
                for (String id : live) {
                    byte[] b = id.getBytes(StandardCharsets.UTF_8);
                    assertSame(model.get(id), index.find(fp(id, isForced(id)), b), "seed " + seed);
                }
            }
        }
        assertEquals(model.size(), index.size(), "seed " + seed);
        for (String id : live) {
            index.remove(fp(id, isForced(id)), model.get(id));
        }
        assertEquals(0, index.size());
        assertEquals(0, index.holders(), "seed " + seed);
        assertEquals(SplitIdIndex.MIN_CAPACITY, index.capacity(), "shrinks after a burst");
    }

    // About one id in eight gets the one shared fingerprint 7; the choice sticks to the id.
    private final Map<String, Boolean> forced = new HashMap<>();

    private long fp(String id, boolean force) {
        forced.putIfAbsent(id, force);
        return forced.get(id) ? 7 : SplitIdIndex.fingerprint(id.getBytes(StandardCharsets.UTF_8));
    }

    private boolean isForced(String id) {
        return forced.get(id);
    }

    @Test
    void prepareGrowsTheTableOnceForTheWholeBatch() {
        SplitIdIndex index = new SplitIdIndex();
        for (int i = 0; i < 10; i++) {
            index.add(SplitIdIndex.fingerprint(bytes("old-" + i)), new One("old-" + i));
        }
        assertEquals(SplitIdIndex.MIN_CAPACITY, index.capacity());
        int n = 1_000;
        long[] fps = new long[n];
        for (int i = 0; i < n; i++) {
            fps[i] = SplitIdIndex.fingerprint(bytes("new-" + i));
        }
        index.prepare(fps, n);
        int prepared = index.capacity();
        // 1,010 entries at most half full: 2,048 slots, the smallest power of two that fits.
        assertEquals(2_048, prepared);
        List<One> added = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            One h = new One("new-" + i);
            assertNull(index.addIfAbsent(fps[i], h.id, h));
            added.add(h);
            assertEquals(prepared, index.capacity(), "no growth inside the batch");
        }
        for (One h : added) {
            assertSame(h, index.find(SplitIdIndex.fingerprint(h.id), h.id));
        }
        index.prepare(fps, 0);
        assertEquals(prepared, index.capacity(), "an empty batch changes nothing");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void fingerprintIsStableForTheSameBytes() {
        byte[] x = "fake-123".getBytes(StandardCharsets.UTF_8);
        byte[] framed = new byte[x.length + 3];
        System.arraycopy(x, 0, framed, 2, x.length);
        assertEquals(SplitIdIndex.fingerprint(x), SplitIdIndex.fingerprint(framed, 2, x.length));
        // FNV-1a 64 and the finalizer, computed independently with python3.
        assertEquals(0x3a4e54eb41987852L, SplitIdIndex.fingerprint(x));
    }

    @Test
    void purgeDropsTheEntriesOfHoldersThatLeftAndKeepsTheRestFindable() {
        long seed = Long.getLong("index.seed", System.nanoTime());
        Random rnd = new Random(seed);
        SplitIdIndex index = new SplitIdIndex();
        Map<String, One> kept = new HashMap<>();
        Set<One> gone = new HashSet<>();
        for (int n = 0; n < 20_000; n++) {
            String id = "split-" + n;
            One h = new One(id);
            // Some ids share fingerprint 7, so gone and kept entries sit in one probe run.
            index.add(fp(id, rnd.nextInt(16) == 0), h);
            if (rnd.nextInt(10) < 9) {
                gone.add(h);
            } else {
                kept.put(id, h);
            }
        }

        assertEquals(gone.size(), index.purge(gone::contains), "seed " + seed);

        assertEquals(kept.size(), index.size(), "seed " + seed);
        assertEquals(kept.size(), index.holders(), "numbers of the gone are free: seed " + seed);
        assertTrue(kept.size() <= index.capacity() / 4, "room to grow: seed " + seed);
        assertTrue(kept.size() > index.capacity() / 8, "no room to shrink: seed " + seed);
        for (One h : gone) {
            String id = new String(h.id, StandardCharsets.UTF_8);
            assertNull(index.find(fp(id, isForced(id)), h.id), "seed " + seed);
        }
        for (Map.Entry<String, One> e : kept.entrySet()) {
            String id = e.getKey();
            assertSame(
                    e.getValue(),
                    index.find(fp(id, isForced(id)), e.getValue().id),
                    "seed " + seed);
            assertTrue(index.remove(fp(id, isForced(id)), e.getValue()), "seed " + seed);
        }
        assertEquals(0, index.size(), "seed " + seed);
        assertEquals(SplitIdIndex.MIN_CAPACITY, index.capacity(), "seed " + seed);
    }
}
