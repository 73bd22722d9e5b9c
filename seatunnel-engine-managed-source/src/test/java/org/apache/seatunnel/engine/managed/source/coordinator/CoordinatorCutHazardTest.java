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

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/en/architecture.md hazard 1, the coordinator-first cut: the enumerator snapshots checkpoint
 * N before the reader takes barrier N. A split assigned in between is in the enumerator's state N
 * and, if the reader applies it before its barrier, in the reader's state N too: read twice after a
 * restore from N. The coordinator stamps every command with the cut (id of the last enumerator
 * snapshot); a reader that defers commands of cut N past its own barrier N closes the window.
 */
class CoordinatorCutHazardTest {

    private static ModelWorld scenario(boolean cutAware) {
        ModelWorld w =
                new ModelWorld(
                        1,
                        cutAware,
                        true,
                        1,
                        List.of(new TestSplit("a", 2, 0), new TestSplit("b", 2, 0)),
                        100,
                        8);
        w.faults = false;
        w.workers.runAll(); // discovery
        w.drain();
        w.readerStep(0); // asks for a split
        w.drain(); // a is assigned and admitted
        w.readerStep(0); // applies a, emits a#0
        w.drain();
        assertTrue(w.triggerCheckpoint()); // enumerator snapshot 1: b is still pending there
        // Between the enumerator snapshot and the reader's barrier 1 the enumerator assigns b.
        w.loop.handleSplitRequest(0, w.readers[0].attemptId);
        w.drain();
        assertEquals(1, w.readers[0].mailbox.size() + (cutAware ? 0 : 1));
        w.deliverBarrier(0);
        assertTrue(w.completeCheckpoint(false));
        w.drain();
        return w;
    }

    @Test
    void withoutTheCutTagASplitDispatchedBetweenTheSnapshotsIsOwnedTwiceAfterRestore() {
        ModelWorld w = scenario(false);
        AssertionError e =
                assertThrows(AssertionError.class, () -> w.coordinatorFailover(1, false));
        assertTrue(e.getMessage().contains("split b has 2 owners"), e.getMessage());
    }

    @Test
    void withoutTheCutTagTheSplitIsReadTwice() {
        ModelWorld w = scenario(false);
        w.checkOnRestore = false;
        w.coordinatorFailover(1, false);
        // The restored enumerator holds b twice (its own state and the reader's). The first copy
        // is read and its assignment collected by checkpoint 2 before the second goes out.
        w.readerStep(0);
        w.drain();
        w.readerStep(0);
        w.readerStep(0);
        w.drain();
        assertTrue(w.triggerCheckpoint());
        w.deliverBarrier(0);
        assertTrue(w.completeCheckpoint(false));
        w.drain();
        AssertionError e = assertThrows(AssertionError.class, w::runToCompletion);
        assertTrue(e.getMessage().contains("record b#0 committed 2 times"), e.getMessage());
    }

    @Test
    void withTheCutTagTheReaderDefersItAndEverySplitIsReadOnce() {
        ModelWorld w = scenario(true);
        assertTrue(
                w.readers[0].owned.containsKey("b"),
                "applied right after barrier 1, not before it");
        w.coordinatorFailover(1, false); // checks single ownership after the restore
        w.runToCompletion(); // checks every record committed exactly once
    }

    @Test
    void anAbortedCutIsReleasedSoTheReaderDoesNotWaitForever() {
        ModelWorld w = new ModelWorld(1, true, true, 1, List.of(new TestSplit("a", 1, 0)), 100, 8);
        w.faults = false;
        w.workers.runAll();
        w.drain();
        assertTrue(w.triggerCheckpoint());
        w.readerStep(0); // asks; a is assigned with cut 1
        w.drain();
        w.readerStep(0);
        assertTrue(w.readers[0].owned.isEmpty(), "deferred: barrier 1 not taken");
        w.abortCheckpoint(true); // barrier 1 will never come
        w.drain();
        w.readerStep(0);
        assertTrue(w.readers[0].mailbox.isEmpty(), "released by the abort");
        w.runToCompletion();
    }
}
